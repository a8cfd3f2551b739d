import type { CampaignType } from '../campaigns/campaign.js';
import { REDEEMABLE_ERROR_KEYS, type RedeemableErrorKey, redeemableError } from '../validations/redeemable-error.js';
import { type CustomerFailureRecord, campaignTypeOfVoucher, type FailedRedeemable } from './activity.js';

/*
 * The event of a failure's record (lib/activity/failure.ts), in wire form: the reference's
 * EventCustomerValidationFailed (`customer`, `validation`: a ValidationEntity) and
 * EventCustomerRedemptionFailed (`customer`, the redeemable, `redemption`: a SimpleRedemption with
 * `result: FAILURE`, `status: FAILED`, `failure_code`, `failure_message`). Worked out on read from
 * the verdicts the record copied. Pure.
 */

export interface FailureEvent {
  type: 'customer.validation.failed' | 'customer.redemption.failed';
  campaignId: string | null;
  campaignType: CampaignType | null;
  data: Record<string, unknown>;
}

const isErrorKey = (key: string | null | undefined): key is RedeemableErrorKey => REDEEMABLE_ERROR_KEYS.includes(key as RedeemableErrorKey);

/** The error an INAPPLICABLE redeemable was answered with: its key, and the reply's `error.message` (the rule's own text, else the key's explanation). */
function errorOf(r: FailedRedeemable): { key: string; message: string } {
  const key = isErrorKey(r.key) ? r.key : 'resource_not_found';
  return { key, message: redeemableError(key, r.object, r.id, undefined, r.rule).error.message };
}

const ref = (r: FailedRedeemable) => ({ id: r.id, type: r.object });

function validationOf(r: CustomerFailureRecord): Record<string, unknown> {
  const is = (status: FailedRedeemable['status']) => r.redeemables.filter((x) => x.status === status);
  return {
    id: r.id,
    ...(r.sessionKey !== undefined ? { session_id: r.sessionKey } : {}),
    status: 'INVALID',
    created_at: r.createdAt,
    customer_id: r.customerId,
    redeemables: is('APPLICABLE').map(ref),
    // Each refused redeemable with its error, as the validation's reply gave it.
    inapplicable_redeemables: is('INAPPLICABLE').map((x) => ({ ...ref(x), result: { error: errorOf(x) } })),
    skipped_redeemables: is('SKIPPED').map(ref),
  };
}

/** The voucher or promotion tier a failure names, as the reference's SimpleVoucher / SimplePromotionTier (the code or id as sent). */
function subjectOf(s: FailedRedeemable | undefined): Record<string, unknown> {
  if (s === undefined) return {};
  const campaign = s.campaignId ? { campaign_id: s.campaignId } : {};
  if (s.object === 'promotion_tier') return { promotion_tier: { id: s.id, ...campaign, object: 'promotion_tier' } };
  return { voucher: { ...(s.voucherId !== undefined ? { id: s.voucherId } : {}), code: s.id, ...campaign, object: 'voucher' } };
}

/**
 * A failure record's event; `customer`: the customer as the list read it (the record keeps no
 * copy). The failure is the refusal at commit, else the first INAPPLICABLE redeemable's error (as
 * the redemption's reply chose it), else `resource_not_found`; its redeemable names the campaign.
 */
export function failureEvent(r: CustomerFailureRecord, customer: Record<string, unknown>): FailureEvent {
  const failing = r.redeemables.find((x) => x.status === 'INAPPLICABLE');
  const subject = failing ?? r.redeemables[0];
  const campaignId = subject?.campaignId ?? null;
  const campaignType: CampaignType | null =
    campaignId === null || subject === undefined
      ? null
      : subject.object === 'promotion_tier'
        ? 'PROMOTION'
        : campaignTypeOfVoucher({ type: subject.voucherType ?? 'DISCOUNT_VOUCHER', isReferralCode: subject.referral === true, campaignId });
  if (r.failed === 'validation') return { type: 'customer.validation.failed', campaignId, campaignType, data: { customer, validation: validationOf(r) } };
  const failure = r.refusal ?? (failing ? errorOf(failing) : { key: 'resource_not_found', message: 'No redeemable of the request applies' });
  const named = subjectOf(subject);
  return {
    type: 'customer.redemption.failed',
    campaignId,
    campaignType,
    data: {
      customer,
      ...named,
      redemption: {
        id: r.id,
        customer_id: r.customerId,
        ...(r.trackingId !== null ? { tracking_id: r.trackingId } : {}),
        date: r.createdAt,
        metadata: r.metadata,
        result: 'FAILURE',
        status: 'FAILED',
        failure_code: failure.key,
        failure_message: failure.message,
        channel: { channel_type: 'API' },
        ...named,
        object: 'redemption',
      },
    },
  };
}
