import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of categories (lib/categories/category.mapper.ts writes these shapes). Only the
 * OpenAPI generator and the tests import this module: handler bundles stay small.
 */

/** The category object: of the category endpoints, and inside campaign and voucher replies. */
export const categoryReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  hierarchy: z.int().check(z.nonnegative()),
  object: z.literal('category'),
  created_at: z.iso.datetime(),
  updated_at: z.optional(z.iso.datetime()),
});
export type CategoryReply = z.output<typeof categoryReplySchema>;

/** GET /v1/categories: a page of the project's categories (all of them, at most 1,000, without `limit`), highest hierarchy first. */
/** `total`: the number of the project's categories (all pages). */
export const categoryListReplySchema = listReply(categoryReplySchema, { dataRef: 'data' });
export type CategoryListReply = z.output<typeof categoryListReplySchema>;
