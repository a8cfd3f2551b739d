import { getVoucherAssetRoute } from '../../lib/api/routes.js';
import { openEndpoint } from '../../lib/http/endpoint.js';
import { immutableFile } from '../../lib/http/reply.js';
import { voucherAssetParams, voucherAssetQuery } from '../../lib/vouchers/voucher-asset.schema.js';
import { getVoucherAsset } from '../../lib/vouchers/voucher-asset.service.js';

export const schemas = { params: voucherAssetParams, query: voucherAssetQuery };

/** Public, like Voucherify's asset links: an email or a web page embeds the image without credentials. */
export const makeHandler = openEndpoint(getVoucherAssetRoute, schemas, async ({ params, query }) =>
  immutableFile(await getVoucherAsset(params.assetType, params.assetId, query)),
);

export const handler = makeHandler();
