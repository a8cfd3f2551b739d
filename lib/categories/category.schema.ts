import * as z from '../zod.js';
import { queryInt } from '../http/query-params.js';
import { MAX_CATEGORY_HIERARCHY } from './category.js';

/** Category names: 1–200 characters, case-sensitive, as a campaign's or voucher's `category`. */
const categoryName = z.string().check(z.minLength(1), z.maxLength(200));

/** POST /v1/categories and PUT /v1/categories/{categoryId}: both fields required. */
export const categoryBody = z.strictObject({
  name: categoryName,
  hierarchy: z.int().check(z.minimum(0), z.maximum(MAX_CATEGORY_HIERARCHY)),
});
export type CategoryBody = z.output<typeof categoryBody>;

/** `{categoryId}`: an id (`cat_…`); any other string simply finds nothing. */
export const categoryParams = z.strictObject({ categoryId: z.string().check(z.minLength(1), z.maxLength(100)) });

/**
 * GET /v1/categories. The reference documents no parameters and lists every category; clients send
 * the house's `limit` (1–100) and `page` (1–99). Without `limit` a page holds every category (at
 * most 1,000), so only page 1 has any.
 */
export const listCategoriesQuery = z.strictObject({
  limit: z.optional(queryInt(1, 100)),
  page: z._default(queryInt(1, 99), 1),
});
export type ListCategoriesQuery = z.output<typeof listCategoriesQuery>;
