import { getCategoryRoute } from '../../lib/api/routes.js';
import { toCategoryReply } from '../../lib/categories/category.mapper.js';
import { categoryParams } from '../../lib/categories/category.schema.js';
import { getCategory } from '../../lib/categories/category.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: categoryParams };

export const makeHandler = endpoint(getCategoryRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toCategoryReply(await getCategory(runtime, principal.projectId, params.categoryId))),
);

export const handler = makeHandler();
