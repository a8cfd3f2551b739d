import { snakeize } from '../case.js';
import { noAssignments } from '../campaigns/campaign.mapper.js';
import { toCategoryReply } from '../categories/category.mapper.js';
import type { Voucher } from './voucher.js';
import type { VoucherReply } from './voucher.reply.js';

/**
 * The id of a voucher's QR or barcode image: an opaque, URL-safe token naming the project and
 * the code, which the assets endpoint (not built yet) will render.
 */
export const assetId = (v: Pick<Voucher, 'projectId' | 'code'>, kind: 'qr' | 'barcode'): string =>
  Buffer.from(`${kind}:${v.projectId}:${v.code}`, 'utf8').toString('base64url');

const codePath = (code: string): string => `/v1/vouchers/${encodeURIComponent(code)}`;

/** The voucher object of the spec: every field it lists, unset ones as null. */
export function toVoucherReply(v: Voucher): VoucherReply {
  return {
    id: v.id,
    code: v.code,
    campaign: v.campaignName,
    campaign_id: v.campaignId,
    category: v.category?.name ?? null,
    category_id: v.category?.id ?? null,
    categories: v.category ? [toCategoryReply(v.category)] : [],
    type: v.type,
    discount: v.discount ? snakeize(v.discount) : null,
    gift: v.gift
      ? { amount: v.gift.amount, subtracted_amount: v.gift.subtractedAmount, balance: v.gift.balance, ...(v.gift.effect ? { effect: v.gift.effect } : {}) }
      : null,
    loyalty_card: v.loyaltyCard
      ? {
          points: v.loyaltyCard.points,
          balance: v.loyaltyCard.balance,
          ...(v.loyaltyCard.nextExpirationDate ? { next_expiration_date: v.loyaltyCard.nextExpirationDate } : {}),
          ...(v.loyaltyCard.nextExpirationPoints !== null ? { next_expiration_points: v.loyaltyCard.nextExpirationPoints } : {}),
          pending_points: v.loyaltyCard.pendingPoints,
          expired_points: v.loyaltyCard.expiredPoints,
          subtracted_points: v.loyaltyCard.subtractedPoints,
        }
      : null,
    start_date: v.startDate,
    expiration_date: v.expirationDate,
    validity_timeframe: v.validityTimeframe,
    validity_day_of_week: v.validityDayOfWeek,
    validity_hours: v.validityHours ? snakeize(v.validityHours) : null,
    active: v.active,
    additional_info: v.additionalInfo,
    metadata: v.metadata,
    assets: {
      qr: { id: assetId(v, 'qr'), url: `/v1/assets/qr/${assetId(v, 'qr')}` },
      barcode: { id: assetId(v, 'barcode'), url: `/v1/assets/barcode/${assetId(v, 'barcode')}` },
    },
    is_referral_code: v.isReferralCode,
    created_at: v.createdAt,
    updated_at: v.updatedAt,
    holder_id: v.holderId,
    referrer_id: v.referrerId,
    validation_rules_assignments: noAssignments(),
    redemption: {
      quantity: v.redemptionQuantity,
      redeemed_quantity: v.redeemedQuantity,
      redeemed_points: v.redeemedPoints,
      object: 'list',
      url: `${codePath(v.code)}/redemptions?page=1&limit=10`,
    },
    publish: { object: 'list', count: v.publishCount, url: `${codePath(v.code)}/publications?page=1&limit=10` },
    object: 'voucher',
  };
}
