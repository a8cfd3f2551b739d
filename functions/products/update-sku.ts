import { updateSkuRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toSkuReply } from '../../lib/products/product.mapper.js';
import { productSkuParams, updateSkuBody } from '../../lib/products/product.schema.js';
import { updateSku } from '../../lib/products/product.service.js';

export const schemas = { params: productSkuParams, body: updateSkuBody };

export const makeHandler = endpoint(updateSkuRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toSkuReply(await updateSku(runtime, principal.projectId, params.productId, params.skuId, body))),
);

export const handler = makeHandler();
