import type { Evaluation } from '../validations/evaluation.js';
import { redeemableError } from '../validations/redeemable-error.js';
import { type CustomerFailureRecord, campaignTypeOfVoucher, type FailedRedeemable } from './activity.js';

/*
 * The activity record of a validation or redemption that failed for a stored customer
 * (docs/decisions.md "Activity": failures). Pure: the caller puts it (lib/activity/failure.repo.ts).
 * Kept small: the checkout's bundles carry it.
 */

/** The refusal a failed request answers with: the reference's failure code and message. */
export interface Refusal {
  key: string;
  message: string;
}

/** Each redeemable's verdict, in application order; an INAPPLICABLE one with its error key and expanded reason (the reply's `error.message`: the rule's own text, else the key's). */
const verdictsOf = (e: Evaluation): FailedRedeemable[] =>
  e.redeemables.map((r) => {
    if (r.status !== 'INAPPLICABLE' || r.errorKey === null) return { object: r.object, id: r.id, status: r.status, ...(r.skipKey ? { key: r.skipKey } : {}) };
    return {
      object: r.object,
      id: r.id,
      status: r.status,
      key: r.errorKey,
      message: redeemableError(r.errorKey, r.object, r.id, undefined, r.ruleMessage).error.message,
    };
  });

/**
 * The record of `e` failing for `customerId`: `refusal` is the error the request was answered with
 * (a redemption), else the first INAPPLICABLE redeemable's (a validation, as a redemption would refuse it).
 * Its redeemable names the event's campaign. Null when the customer was not stored when evaluated.
 */
export function failureRecordOf(
  e: Evaluation,
  failed: CustomerFailureRecord['failed'],
  id: string,
  refusal: Refusal | null,
  customerId: string | null = e.customer?.id ?? null,
): CustomerFailureRecord | null {
  if (customerId === null) return null;
  const redeemables = verdictsOf(e);
  const first = e.redeemables.find((r) => r.status === 'INAPPLICABLE') ?? e.redeemables[0];
  // As the redemption's refusal (assertRedeemable): the first INAPPLICABLE one's key, else `resource_not_found`.
  const own = redeemables.find((r) => r.status === 'INAPPLICABLE');
  const voucher = first?.voucher ?? null;
  const campaignId = first?.campaign?.id ?? voucher?.campaignId ?? null;
  return {
    id,
    projectId: e.projectId,
    customerId,
    createdAt: e.date,
    failed,
    code: refusal?.key ?? own?.key ?? 'resource_not_found',
    message: refusal?.message ?? own?.message ?? 'No redeemable of the request applies',
    redeemables,
    subject: first ? { object: first.object, id: first.id, voucherId: voucher?.id ?? null } : null,
    campaignId,
    campaignType: first?.object === 'promotion_tier' ? (campaignId ? 'PROMOTION' : null) : voucher ? campaignTypeOfVoucher(voucher) : null,
    trackingId: e.trackingId,
    sessionKey: e.session?.key ?? null,
    metadata: e.metadata,
  };
}
