import * as z from '../zod.js';
import { queryInt } from '../http/query-params.js';

const BIN_ENTRY_ID = /^tbe_[0-9a-f]{12}[0-9A-Za-z]{10}$/;

/** DELETE /v1/trash-bin/{binEntryId}. */
export const binEntryParams = z.strictObject({ binEntryId: z.string().check(z.regex(BIN_ENTRY_ID, 'must be a bin entry id')) });

/** GET /v1/trash-bin. Default order is newest first (`-id`), as Voucherify's other lists default to newest first. */
export const listBinQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  order: z._default(z.enum(['id', '-id']), '-id'),
  starting_after_id: z.optional(z.string().check(z.regex(BIN_ENTRY_ID, 'must be a bin entry id'))),
});
export type ListBinQuery = z.output<typeof listBinQuery>;
