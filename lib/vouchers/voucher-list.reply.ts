import { listReply } from '../openapi/list-reply.js';
import type * as z from '../zod.js';
import { voucherReplySchema } from './voucher.reply.js';

/*
 * Reply schema of GET /v1/vouchers (lib/vouchers/voucher-list.mapper.ts writes it). Only the
 * OpenAPI generator and the tests import this module: handler bundles stay small.
 */

/** Voucherify's VouchersListResponseBody: the page's vouchers and `total`, whose meaning here is said below. */
export const voucherListReplySchema = listReply(voucherReplySchema, {
  dataRef: 'vouchers',
  total:
    'With `campaign_id` or `campaign`: the number of vouchers of that campaign (a kept count; `created_at` bounds do not narrow it). Otherwise no count is kept: the vouchers up to the end of this page plus one when more follow, so it is exact on the last page (and on any page past it) and a lower bound before it.',
});
export type VoucherListReply = z.output<typeof voucherListReplySchema>;
