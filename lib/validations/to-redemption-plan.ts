import type { PlannedRedeemable, RedemptionPlan } from '../redemptions/redemption-plan.js';
import type { EvaluatedRedeemable, Evaluation } from './evaluation.js';

/** Ids the caller made for the plan (random in production, fixed in tests). */
export interface PlanIds {
  parentRedemptionId: string;
  /** One per APPLICABLE redeemable, in application order; consumed in that order. */
  redemptionIds: readonly string[];
  /** The order's id when the evaluated order is not stored yet. */
  newOrderId: string;
}

const planned = (r: EvaluatedRedeemable, redemptionId: string, sessionKey: string | null): PlannedRedeemable => {
  if (r.step === null) throw new Error(`Redeemable ${r.id} is APPLICABLE without a calculator step`);
  const voucher = r.object === 'voucher' ? r.voucher : null;
  return {
    redemptionId,
    object: r.object,
    id: r.object === 'voucher' ? (voucher?.code ?? r.id) : (r.tier?.id ?? r.id),
    voucher,
    campaignId: r.campaign?.id ?? voucher?.campaignId ?? null,
    campaignName: r.campaign?.name ?? voucher?.campaignName ?? null,
    quantityLimit: voucher?.redemptionQuantity ?? null,
    giftCredits: r.step.credits,
    loyaltyPoints: 0,
    step: r.step,
    sessionKey,
    countedAs: r.countedAs,
    campaignBound: r.campaignBound,
  };
};

/**
 * The redemption plan of an evaluation: its APPLICABLE redeemables only, in application order, each
 * with the next of `ids.redemptionIds`; the order as evaluated (the stored one on its revision, or
 * a new one under `ids.newOrderId`). Pure.
 * @throws Error when `ids.redemptionIds` has fewer ids than APPLICABLE redeemables (a caller's bug).
 */
export function toRedemptionPlan(evaluation: Evaluation, ids: PlanIds, date: string, customer: RedemptionPlan['customer']): RedemptionPlan {
  const applicable = evaluation.redeemables.filter((r) => r.status === 'APPLICABLE');
  if (ids.redemptionIds.length < applicable.length) throw new Error(`${applicable.length} redemption ids needed, ${ids.redemptionIds.length} given`);
  const sessionKey = evaluation.session?.key ?? null;
  const o = evaluation.order;
  return {
    projectId: evaluation.projectId,
    parentRedemptionId: ids.parentRedemptionId,
    date,
    customer,
    trackingId: evaluation.trackingId,
    metadata: evaluation.metadata,
    order: {
      id: o.id ?? ids.newOrderId,
      sourceId: o.sourceId,
      expectedRevision: o.id === null ? null : o.revision,
      status: o.status,
      metadata: o.metadata,
      items: o.items,
      calculation: evaluation.calculation,
      customerId: customer?.id ?? o.customerId,
      referrerId: o.referrerId,
    },
    redeemables: applicable.map((r, i) => planned(r, ids.redemptionIds[i] as string, sessionKey)),
  };
}
