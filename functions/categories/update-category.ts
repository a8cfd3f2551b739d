import { updateCategoryRoute } from '../../lib/api/routes.js';
import { toCategoryReply } from '../../lib/categories/category.mapper.js';
import { categoryBody, categoryParams } from '../../lib/categories/category.schema.js';
import { updateCategory } from '../../lib/categories/category.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: categoryParams, body: categoryBody };

export const makeHandler = endpoint(updateCategoryRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toCategoryReply(await updateCategory(runtime, principal.projectId, params.categoryId, body))),
);

export const handler = makeHandler();
