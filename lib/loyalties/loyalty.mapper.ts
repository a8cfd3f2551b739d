import type { BalanceChange, BucketPage } from './loyalty.service.js';
import type { PointsBucket } from './points-bucket.js';
import type * as z from '../zod.js';
import type { balanceReplySchema, pointsBucketReplySchema, pointsExpirationReplySchema } from './loyalty.reply.js';

/** Voucherify's balance object after a manual points change. */
export const toBalanceReply = (c: BalanceChange): z.input<typeof balanceReplySchema> => ({
  points: c.points,
  total: c.total,
  balance: c.balance,
  type: 'loyalty_card',
  object: 'balance',
  related_object: { type: 'voucher', id: c.voucherId },
  operation_type: 'MANUAL',
});

/** Voucherify's loyalty points bucket; a bucket that never expires has no `expires_at`. */
export const toBucketReply = (b: PointsBucket): z.input<typeof pointsBucketReplySchema> => ({
  id: b.id,
  voucher_id: b.voucherId,
  campaign_id: b.campaignId,
  bucket: { total_points: b.points },
  status: b.status,
  ...(b.expiresAt !== null ? { expires_at: b.expiresAt } : {}),
  created_at: b.createdAt,
  ...(b.updatedAt !== b.createdAt ? { updated_at: b.updatedAt } : {}),
  object: 'loyalty_points_bucket',
});

export const toBucketPageReply = (p: BucketPage): z.input<typeof pointsExpirationReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: p.buckets.map(toBucketReply),
  total: p.total,
});
