import { snakeize } from '../case.js';
import type * as z from '../zod.js';
import type { EvaluatedRedeemable, Evaluation } from './evaluation.js';
import type { promotionTierValidationReplySchema, voucherValidationReplySchema } from './legacy-validation.reply.js';
import type { SingleEvaluation } from './legacy-validation.service.js';
import { redeemableError } from './redeemable-error.js';
import { toCalculatedOrderReply } from './validation.mapper.js';

type VoucherReply = z.input<typeof voucherValidationReplySchema>;
type TierReply = z.input<typeof promotionTierValidationReplySchema>;

const emptyList = () => ({ object: 'list' as const, data_ref: 'data' as const, data: [], total: 0 });

const skipMessages: Record<string, string> = {
  applicable_redeemables_limit_exceeded: 'Applicable redeemables limit exceeded',
  applicable_exclusive_redeemables_limit_exceeded: 'Applicable exclusive redeemables limit exceeded',
  applicable_redeemables_per_category_limit_exceeded: 'Applicable redeemables limit per category exceeded',
  exclusion_rules_not_met: 'Redeemable cannot be applied due to exclusion rules',
  preceding_validation_failed: 'Redeemable cannot be applied due to preceding validation failure',
};

/** Why a redeemable that is not APPLICABLE fails: `reason` and the error object, as the old calls write them. */
function failureOf(r: EvaluatedRedeemable, requestId: string | undefined) {
  if (r.status === 'SKIPPED' && r.skipKey !== null) {
    const message = skipMessages[r.skipKey] ?? r.skipKey;
    return { reason: message, error: { code: 400, key: r.skipKey, message, details: r.id, ...(requestId !== undefined ? { request_id: requestId } : {}) } };
  }
  const e = redeemableError(r.errorKey ?? 'resource_not_found', r.object, r.id, requestId, r.ruleMessage);
  return {
    reason: e.message,
    error: { code: e.code, key: e.key, message: e.message, details: e.details, ...(e.request_id !== undefined ? { request_id: e.request_id } : {}) },
  };
}

const isValid = (e: Evaluation, r: EvaluatedRedeemable): boolean => e.valid && r.status === 'APPLICABLE' && r.step !== null;
const trackingOf = (e: Evaluation) => (e.trackingId !== null ? { tracking_id: e.trackingId } : {});

/** POST /v1/vouchers/{code}/validate's reply: `valid: true` with the voucher's discount or gift and the order's figures, else `valid: false` with `reason` and `error`. */
export function toVoucherValidationReply({ evaluation: e, redeemable: r }: SingleEvaluation, requestId?: string): VoucherReply {
  const v = r.voucher;
  if (v === null || !isValid(e, r)) {
    return {
      valid: false,
      code: v?.code ?? r.id,
      ...failureOf(r, requestId),
      ...trackingOf(e),
      ...(e.customer ? { customer_id: e.customer.id } : {}),
      metadata: v?.metadata ?? {},
    };
  }
  const campaignName = r.campaign?.name ?? v.campaignName;
  const campaignId = r.campaign?.id ?? v.campaignId;
  return {
    valid: true,
    code: v.code,
    applicable_to: emptyList(),
    inapplicable_to: emptyList(),
    ...(campaignName !== null ? { campaign: campaignName } : {}),
    ...(campaignId !== null ? { campaign_id: campaignId } : {}),
    metadata: v.metadata,
    ...(v.discount ? { discount: snakeize(v.discount) } : {}),
    ...(v.gift
      ? {
          gift: {
            amount: v.gift.amount,
            subtracted_amount: v.gift.subtractedAmount,
            balance: v.gift.balance,
            ...(v.gift.effect ? { effect: v.gift.effect } : {}),
          },
        }
      : {}),
    order: toCalculatedOrderReply(e.order, e.calculation),
    ...(e.session ? { session: { type: e.session.type, key: e.session.key, ttl: e.session.ttl, ttl_unit: e.session.ttlUnit } } : {}),
    ...(v.startDate !== null ? { start_date: v.startDate } : {}),
    ...(v.expirationDate !== null ? { expiration_date: v.expirationDate } : {}),
    ...trackingOf(e),
  };
}

/** POST /v1/promotions/tiers/{promotionTierId}/validation's reply: the tier with `valid: true` and the order's figures, else `valid: false` with `reason` and `error`. */
export function toPromotionTierValidationReply({ evaluation: e, redeemable: r }: SingleEvaluation, requestId?: string): TierReply {
  const t = r.tier;
  const c = r.campaign;
  if (t === null || c === null) throw new Error('a promotion tier evaluated is found with its campaign');
  const common = {
    id: t.id,
    name: t.name,
    ...(t.banner !== null ? { banner: t.banner } : {}),
    ...(t.discount ? { discount: snakeize(t.discount) } : {}),
    ...(t.startDate !== null ? { start_date: t.startDate } : {}),
    ...(t.expirationDate !== null ? { expiration_date: t.expirationDate } : {}),
    campaign: { id: c.id, start_date: c.startDate, expiration_date: c.expirationDate, active: c.active, object: 'campaign' as const },
    hierarchy: t.hierarchy,
    metadata: t.metadata,
    object: 'promotion_tier' as const,
  };
  if (!isValid(e, r)) return { valid: false, ...failureOf(r, requestId), ...trackingOf(e), ...common };
  return {
    valid: true,
    applicable_to: emptyList(),
    inapplicable_to: emptyList(),
    ...trackingOf(e),
    order: toCalculatedOrderReply(e.order, e.calculation),
    ...common,
    discount_amount: e.calculation.totalDiscountAmount,
    applied_discount_amount: e.calculation.totalAppliedDiscountAmount,
  };
}
