import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TRANSACTION_ITEMS } from '../../../lib/db/transact.js';
import { MAX_REDEEMABLES, pickShard, REDEMPTION_COUNT_SHARDS, transactionBudget } from '../../../lib/redemptions/redemption.js';
import type { PlannedRedeemable, RedemptionPlan } from '../../../lib/redemptions/redemption-plan.js';

const redeemable = (r: Partial<PlannedRedeemable>): PlannedRedeemable =>
  ({ object: 'voucher', quantityLimit: null, giftCredits: 0, sessionKey: null, ...r }) as PlannedRedeemable;
const plan = (redeemables: PlannedRedeemable[], order: { expectedRevision: number | null; sourceId: string | null }): RedemptionPlan =>
  ({ redeemables, order }) as unknown as RedemptionPlan;

describe('pickShard', () => {
  it('always names one of the shards, whatever the random number', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (x) => {
        const shard = pickShard(() => x);
        expect(Number.isInteger(shard) && shard >= 0 && shard < REDEMPTION_COUNT_SHARDS).toBe(true);
      }),
    );
    expect(pickShard(() => 0.999999999)).toBe(REDEMPTION_COUNT_SHARDS - 1);
  });
});

describe('transactionBudget', () => {
  it('counts a voucher item, a shard and a child per redeemable as the write does', () => {
    expect(transactionBudget(plan([redeemable({ quantityLimit: 3 })], { expectedRevision: null, sourceId: 'o' }), false)).toBe(1 + 2 + 4);
    expect(transactionBudget(plan([redeemable({})], { expectedRevision: 2, sourceId: 'o' }), true)).toBe(1 + 2 + 2 + 1);
    expect(transactionBudget(plan([redeemable({ giftCredits: 5 })], { expectedRevision: null, sourceId: null }), false)).toBe(1 + 3 + 3);
    expect(transactionBudget(plan([redeemable({ sessionKey: 's' })], { expectedRevision: null, sourceId: null }), false)).toBe(1 + 4 + 3);
    expect(transactionBudget(plan([redeemable({ object: 'promotion_tier' })], { expectedRevision: 0, sourceId: null }), false)).toBe(1 + 1 + 2);
  });

  it("counts the campaign's condition, a campaign count shard (validation rules' campaign.redemptions.count) and a summary counter per distinct campaign", () => {
    const two = [redeemable({ campaignId: 'camp_1' }), redeemable({ campaignId: 'camp_1' }), redeemable({ campaignId: 'camp_2' })];
    expect(transactionBudget(plan(two, { expectedRevision: 2, sourceId: 'o' }), false)).toBe(1 + 3 * 2 + 2 + 3 * 2);
  });

  it("fits 10 redeemables of 10 campaigns, or 17 of one campaign, each needing every item and the customer's count items, in one transaction", () => {
    const customer = { id: 'cust_1', sourceId: null };
    const every = (i: number, campaignId: string) => redeemable({ id: `v_${i}`, campaignId, giftCredits: 1, sessionKey: 's' });
    const budget = (rs: PlannedRedeemable[]) =>
      transactionBudget({ ...plan(rs, { expectedRevision: null, sourceId: 'src' }), customer } as RedemptionPlan, true);
    // Per redeemable: voucher item, its session's hold item, count shard, child, the customer's count of it; per campaign:
    // condition, count shard, summary counter, the customer's count of it; then parent, 4 order items, the customer's totals,
    // the idempotency record.
    const worst = Array.from({ length: 10 }, (_, i) => every(i, `camp_${i}`));
    expect(budget(worst)).toBe(10 * 9 + 7);
    expect(budget([...worst, every(10, 'camp_10')])).toBeGreaterThan(MAX_TRANSACTION_ITEMS);
    const oneCampaign = Array.from({ length: 17 }, (_, i) => every(i, 'camp_1'));
    expect(budget(oneCampaign)).toBe(17 * 5 + 4 + 7);
    expect(budget([...oneCampaign, every(17, 'camp_1')])).toBeGreaterThan(MAX_TRANSACTION_ITEMS);
  });

  it('fits the largest plan the reference allows in one transaction', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ limited: fc.boolean(), gift: fc.boolean(), session: fc.boolean(), tier: fc.boolean() }), {
          minLength: 1,
          maxLength: MAX_REDEEMABLES,
        }),
        fc.boolean(),
        fc.boolean(),
        (rs, stored, withKey) => {
          const p = plan(
            rs.map((r) =>
              redeemable({
                object: r.tier ? 'promotion_tier' : 'voucher',
                quantityLimit: r.limited ? 1 : null,
                giftCredits: r.gift ? 1 : 0,
                sessionKey: r.session ? 's' : null,
              }),
            ),
            { expectedRevision: stored ? 1 : null, sourceId: 'src' },
          );
          expect(transactionBudget(p, withKey)).toBeLessThanOrEqual(MAX_TRANSACTION_ITEMS);
        },
      ),
    );
  });
});
