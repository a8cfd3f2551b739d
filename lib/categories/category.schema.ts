import * as z from '../zod.js';
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
