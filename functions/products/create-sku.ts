import { createSkuRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toSkuReply } from '../../lib/products/product.mapper.js';
import { createSkuBody, productParams } from '../../lib/products/product.schema.js';
import { createSku } from '../../lib/products/product.service.js';

export const schemas = { params: productParams, body: createSkuBody };

export const makeHandler = endpoint(createSkuRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toSkuReply(await createSku(runtime, principal.projectId, params.productId, body))),
);

export const handler = makeHandler();
