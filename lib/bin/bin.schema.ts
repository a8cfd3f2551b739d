import * as z from '../zod.js';
import { queryInt } from '../http/query-params.js';

/** GET /v1/trash-bin. Default order is newest first (`-id`), as Voucherify's other lists default to newest first. */
export const listBinQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  order: z._default(z.enum(['id', '-id']), '-id'),
  starting_after_id: z.optional(z.string().check(z.regex(/^tbe_[0-9a-f]{12}[0-9A-Za-z]{10}$/, 'must be a bin entry id'))),
});
export type ListBinQuery = z.output<typeof listBinQuery>;
