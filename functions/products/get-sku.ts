import { getSkuRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toSkuReply } from '../../lib/products/product.mapper.js';
import { skuParams } from '../../lib/products/product.schema.js';
import { getSku } from '../../lib/products/product.service.js';

export const schemas = { params: skuParams };

export const makeHandler = endpoint(getSkuRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toSkuReply(await getSku(runtime, principal.projectId, params.skuId))),
);

export const handler = makeHandler();
