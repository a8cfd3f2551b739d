import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

const RESOURCE_TYPES = ['campaign', 'product', 'sku', 'voucher'] as const;

/** One bin entry (lib/bin/bin.mapper.ts); not imported by handlers. */
export const binEntryReplySchema = z.strictObject({
  id: z.string(),
  created_at: z.iso.datetime(),
  deleted_by_user_id: z.nullable(z.string()),
  resource_id: z.string(),
  resource_type: z.enum(RESOURCE_TYPES),
  resource_name: z.string(),
  resource_parent_id: z.nullable(z.string()),
  object: z.enum(RESOURCE_TYPES),
});
export type BinEntryReply = z.output<typeof binEntryReplySchema>;

/** Voucherify's TrashBinListResponseBody: `total` counts this reply's entries. */
export const binListReplySchema = listReply(binEntryReplySchema, {
  dataRef: 'data',
  hasMore: true,
  after: { more_starting_after: z.optional(z.string()) },
});
export type BinListReply = z.output<typeof binListReplySchema>;
