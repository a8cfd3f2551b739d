import * as z from 'zod';
import { queryInt } from '../http/query-params.js';

/** GET /v1/trash-bin. Default order is newest first (`-id`), as Voucherify's other lists default to newest first. */
export const listBinQuery = z.strictObject({
  limit: queryInt(1, 100).default(10),
  order: z.enum(['id', '-id']).default('-id'),
  starting_after_id: z.string().regex(/^tbe_[0-9a-f]{12}[0-9A-Za-z]{10}$/, 'must be a bin entry id').optional(),
});
export type ListBinQuery = z.output<typeof listBinQuery>;
