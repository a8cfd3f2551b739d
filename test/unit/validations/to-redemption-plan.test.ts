import { describe, expect, it } from 'vitest';
import { calculate } from '../../../lib/redemptions/calculator.js';
import type { EvaluatedRedeemable, Evaluation } from '../../../lib/validations/evaluation.js';
import { redeemableError } from '../../../lib/validations/redeemable-error.js';
import { DEFAULT_STACKING_RULES } from '../../../lib/validations/stacking-rules.js';
import { toRedemptionPlan } from '../../../lib/validations/to-redemption-plan.js';
import type { Voucher } from '../../../lib/vouchers/voucher.js';

const calc = calculate({ amount: 1000 }, [
  { kind: 'discount', id: 'A', discount: { type: 'AMOUNT', amountOff: 100 } },
  { kind: 'gift', id: 'G', balance: 500 },
]);
const voucherA = { code: 'A', campaignId: 'camp_1', campaignName: 'Sale', redemptionQuantity: 3 } as Voucher;
const giftG = { code: 'G', campaignId: null, campaignName: null, redemptionQuantity: null } as Voucher;
const base = {
  position: 0,
  errorKey: null,
  skipKey: null,
  tier: null,
  campaign: null,
  categories: [],
  giftCreditsAsked: null,
  lines: null,
  ruleMessage: null,
  countedAs: null,
  campaignBound: null,
};
const redeemables: EvaluatedRedeemable[] = [
  { ...base, object: 'voucher', requested: 'voucher', id: 'A', status: 'APPLICABLE', voucher: voucherA, step: calc.steps[0] ?? null },
  { ...base, object: 'voucher', requested: 'voucher', id: 'X', status: 'INAPPLICABLE', errorKey: 'resource_not_found', voucher: null, step: null },
  { ...base, object: 'voucher', requested: 'gift_card', id: 'G', status: 'APPLICABLE', voucher: giftG, step: calc.steps[1] ?? null },
  { ...base, object: 'voucher', requested: 'voucher', id: 'S', status: 'SKIPPED', skipKey: 'applicable_redeemables_limit_exceeded', voucher: null, step: null },
];

const evaluation = (over: Partial<Evaluation> = {}): Evaluation => ({
  projectId: 'p1',
  date: '2026-07-06T13:00:00.000Z',
  rules: DEFAULT_STACKING_RULES,
  redeemables,
  order: {
    id: null,
    sourceId: 'cart-1',
    revision: null,
    status: 'CREATED',
    amount: 1000,
    items: [],
    metadata: { a: 1 },
    customerId: null,
    referrerId: null,
    createdAt: null,
  },
  calculation: calc.order,
  customer: null,
  session: { type: 'LOCK', key: 'ssn_1', ttl: 7, ttlUnit: 'DAYS', ttlMs: 7 * 86_400_000 },
  trackingId: 'track_1',
  metadata: { m: true },
  valid: false,
  ...over,
});
const ids = { parentRedemptionId: 'r_parent', redemptionIds: ['r_1', 'r_2'], newOrderId: 'ord_new' };

describe('toRedemptionPlan', () => {
  it('plans only the APPLICABLE redeemables, in order, with their ids, limits, credits, steps and the session', () => {
    const plan = toRedemptionPlan(evaluation(), ids, '2026-07-06T13:00:01.000Z', { id: 'cust_1', sourceId: 'alice' });
    expect(plan).toMatchObject({
      projectId: 'p1',
      parentRedemptionId: 'r_parent',
      date: '2026-07-06T13:00:01.000Z',
      trackingId: 'track_1',
      metadata: { m: true },
    });
    expect(plan.redeemables.map((r) => [r.redemptionId, r.id, r.campaignId, r.campaignName, r.quantityLimit, r.giftCredits, r.sessionKey])).toEqual([
      ['r_1', 'A', 'camp_1', 'Sale', 3, 0, 'ssn_1'],
      ['r_2', 'G', null, null, null, 500, 'ssn_1'],
    ]);
    expect(plan.redeemables[0]?.step.appliedAmount).toBe(100);
    expect(plan.order).toMatchObject({ id: 'ord_new', sourceId: 'cart-1', expectedRevision: null, customerId: 'cust_1', metadata: { a: 1 } });
    expect(plan.order.calculation.totalAmount).toBe(400);
  });

  it('keeps a stored order’s id and holds it on its revision', () => {
    const stored = evaluation({ order: { ...evaluation().order, id: 'ord_1', revision: 4, customerId: 'cust_9' } });
    expect(toRedemptionPlan(stored, ids, 'd', null).order).toMatchObject({ id: 'ord_1', expectedRevision: 4, customerId: 'cust_9' });
  });

  it('throws when fewer redemption ids than applicable redeemables are given', () => {
    expect(() => toRedemptionPlan(evaluation(), { ...ids, redemptionIds: ['r_1'] }, 'd', null)).toThrow(/2 redemption ids/);
  });
});

describe('redeemableError', () => {
  it('is the reference’s error object: 404 for resource_not_found, 400 otherwise', () => {
    expect(redeemableError('resource_not_found', 'voucher', 'NOPE', 'v-1')).toMatchObject({
      code: 404,
      key: 'resource_not_found',
      details: 'NOPE',
      request_id: 'v-1',
      resource_id: 'NOPE',
      resource_type: 'voucher',
      error: { message: expect.any(String) },
    });
    expect(redeemableError('promotion_inactive', 'promotion_tier', 'promo_1')).toMatchObject({ code: 400, message: 'Inactive Promotion' });
    expect(redeemableError('quantity_exceeded', 'voucher', 'C')).not.toHaveProperty('request_id');
  });
});
