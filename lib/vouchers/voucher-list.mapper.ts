import { toVoucherReply } from './voucher.mapper.js';
import type { VoucherPage } from './voucher-list.service.js';
import type { VoucherListReply } from './voucher-list.reply.js';

/** GET /v1/vouchers' reply: Voucherify's list envelope around the voucher objects. */
export function toVoucherListReply(page: VoucherPage): VoucherListReply {
  return { object: 'list', data_ref: 'vouchers', vouchers: page.vouchers.map(toVoucherReply), total: page.total };
}
