import type { Evaluation } from '../validations/evaluation.js';
import type { CustomerFailureRecord } from './activity.js';

/*
 * The activity record of a validation or redemption that failed for a stored customer
 * (docs/decisions.md "Activity": failures). Pure: the caller puts it (lib/activity/failure.repo.ts).
 * The checkout's bundles carry it: it copies the verdicts, and the event is worked out on read.
 */

/**
 * The record of `e` failing; `refusal`: a redemption's refusal at commit (else the first INAPPLICABLE
 * redeemable's error is the failure). Null when the customer was not stored when `e` was evaluated.
 */
export const failureRecordOf = (
  e: Evaluation,
  failed: CustomerFailureRecord['failed'],
  id: string,
  refusal: CustomerFailureRecord['refusal'] = null,
): CustomerFailureRecord | null =>
  e.customer && {
    id,
    projectId: e.projectId,
    customerId: e.customer.id,
    createdAt: e.date,
    failed,
    refusal,
    redeemables: e.redeemables.map((r) => ({
      object: r.object,
      id: r.id,
      status: r.status,
      key: r.errorKey ?? r.skipKey,
      rule: r.ruleMessage,
      voucherId: r.voucher?.id,
      campaignId: r.campaign?.id ?? r.voucher?.campaignId,
      voucherType: r.voucher?.type,
      referral: r.voucher?.isReferralCode,
    })),
    trackingId: e.trackingId,
    sessionKey: e.session?.key,
    metadata: e.metadata,
  };
