import { deleteCategoryRoute } from '../../lib/api/routes.js';
import { categoryParams } from '../../lib/categories/category.schema.js';
import { deleteCategory } from '../../lib/categories/category.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';

export const schemas = { params: categoryParams };

export const makeHandler = endpoint(deleteCategoryRoute, schemas, async ({ runtime, principal, params }) => {
  await deleteCategory(runtime, principal.projectId, params.categoryId);
  return noContent();
});

export const handler = makeHandler();
