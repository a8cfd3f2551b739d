import { listCategoriesRoute } from '../../lib/api/routes.js';
import { toCategoryListReply } from '../../lib/categories/category.mapper.js';
import { listCategoriesQuery } from '../../lib/categories/category.schema.js';
import { listCategories } from '../../lib/categories/category.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { query: listCategoriesQuery };

export const makeHandler = endpoint(listCategoriesRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toCategoryListReply(await listCategories(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
