import type { CustomerFailureRecord, FailedRedeemable } from './activity.js';

/*
 * The `data.data` of a failure's event (lib/activity/failure.ts), in wire form: the reference's
 * EventCustomerValidationFailed (`customer`, `validation`: a ValidationEntity) and
 * EventCustomerRedemptionFailed (`customer`, `redemption`: a SimpleRedemption with `result: FAILURE`,
 * `status: FAILED`, `failure_code`, `failure_message`, and the redeemable it names). Pure.
 */

const ref = (r: FailedRedeemable) => ({ id: r.id, type: r.object });

function validationOf(r: CustomerFailureRecord): Record<string, unknown> {
  const is = (status: FailedRedeemable['status']) => r.redeemables.filter((x) => x.status === status);
  return {
    id: r.id,
    ...(r.sessionKey !== null ? { session_id: r.sessionKey } : {}),
    status: 'INVALID',
    created_at: r.createdAt,
    customer_id: r.customerId,
    redeemables: is('APPLICABLE').map(ref),
    // Each refused redeemable with its error, as the validation's reply gave it.
    inapplicable_redeemables: is('INAPPLICABLE').map((x) => ({ ...ref(x), result: { error: { key: x.key, message: x.message } } })),
    skipped_redeemables: is('SKIPPED').map(ref),
  };
}

/** The voucher or promotion tier a failure names, as the reference's SimpleVoucher / SimplePromotionTier (the code or id as sent). */
function subjectOf(r: CustomerFailureRecord): Record<string, unknown> {
  const s = r.subject;
  if (s === null) return {};
  if (s.object === 'promotion_tier')
    return { promotion_tier: { id: s.id, ...(r.campaignId !== null ? { campaign_id: r.campaignId } : {}), object: 'promotion_tier' } };
  return {
    voucher: {
      ...(s.voucherId !== null ? { id: s.voucherId } : {}),
      code: s.id,
      ...(r.campaignId !== null ? { campaign_id: r.campaignId } : {}),
      object: 'voucher',
    },
  };
}

function redemptionOf(r: CustomerFailureRecord): Record<string, unknown> {
  return {
    id: r.id,
    customer_id: r.customerId,
    ...(r.trackingId !== null ? { tracking_id: r.trackingId } : {}),
    date: r.createdAt,
    metadata: r.metadata,
    result: 'FAILURE',
    status: 'FAILED',
    failure_code: r.code,
    failure_message: r.message,
    channel: { channel_type: 'API' },
    ...subjectOf(r),
    object: 'redemption',
  };
}

/** The event's type and data; `customer`: the customer as the list read it (the record keeps no copy). */
export function failureEvent(
  r: CustomerFailureRecord,
  customer: Record<string, unknown>,
): { type: 'customer.validation.failed' | 'customer.redemption.failed'; data: Record<string, unknown> } {
  if (r.failed === 'validation') return { type: 'customer.validation.failed', data: { customer, validation: validationOf(r) } };
  return { type: 'customer.redemption.failed', data: { customer, ...subjectOf(r), redemption: redemptionOf(r) } };
}
