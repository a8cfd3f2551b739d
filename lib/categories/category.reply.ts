import * as z from '../zod.js';

/** The category object of campaign and voucher replies. */
export const categoryReplySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  hierarchy: z.int(),
  object: z.literal('category'),
  created_at: z.iso.datetime(),
  updated_at: z.optional(z.iso.datetime()),
});
export type CategoryReply = z.output<typeof categoryReplySchema>;
