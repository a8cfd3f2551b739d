import { createCategoryRoute } from '../../lib/api/routes.js';
import { toCategoryReply } from '../../lib/categories/category.mapper.js';
import { categoryBody } from '../../lib/categories/category.schema.js';
import { createCategory } from '../../lib/categories/category.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { body: categoryBody };

export const makeHandler = endpoint(createCategoryRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toCategoryReply(await createCategory(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
