import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import { expirePoints } from '../../../lib/loyalties/points-expiry.job.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { rewardApi } from '../../support/rewards-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const DAY = 86_400_000;
const at = Date.UTC(2026, 1, 10, 12, 0, 0);

/**
 * One step: points added that expire `days` after today, a removal, a reward of 40 points redeemed, the last reward
 * redemption rolled back, days passing, or a run of the expiry worker.
 */
type Step =
  | { kind: 'add'; points: number; days: number }
  | { kind: 'remove'; points: number }
  | { kind: 'redeem' }
  | { kind: 'rollback' }
  | { kind: 'wait'; days: number }
  | { kind: 'sweep' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), points: fc.integer({ min: 1, max: 300 }), days: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('remove' as const), points: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ kind: fc.constant('wait' as const), days: fc.integer({ min: 1, max: 3 }) }),
  fc.constant({ kind: 'redeem' as const }),
  fc.constant({ kind: 'rollback' as const }),
  fc.constant({ kind: 'sweep' as const }),
);

describe('a loyalty card whose points expire', () => {
  it('holds a balance equal to the sum of its transactions after any sequence of adds, removals, reward redemptions, rollbacks, days passing and expiry runs', async () => {
    const clock = new ManualClock(at);
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const campaigns = campaignApi(runtime, pair);
    const loyalty = loyaltyApi(runtime, pair);
    const program = await newCampaign(campaigns, {
      name: 'Club',
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    });
    const api = apiClient({ runtime }, keyPairHeaders(pair));
    const rewards = rewardApi(runtime, pair);
    const reward = await rewards.createReward({ name: 'Mug', type: 'MATERIAL', parameters: { product: { id: 'prod_mug' } } });
    const rewardId = reward.json.id as string;
    expect((await rewards.assign(rewardId, { campaign: program.id, parameters: { loyalty: { points: 40 } } })).status).toBe(200);
    let run = 0;
    const seen = { redemptions: 0, rollbacks: 0, expirations: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        run += 1;
        const code = `EXP-${run}`;
        const card = (await campaigns.addVoucher('Club', { code })).json;
        const redeemed: string[] = [];
        for (const s of steps) {
          clock.advance(1000);
          if (s.kind === 'add') {
            const date = new Date(clock.now().getTime() + s.days * DAY).toISOString().slice(0, 10);
            expect((await loyalty.updateBalance('Club', code, { points: s.points, expiration_date: date })).status).toBe(200);
          } else if (s.kind === 'remove') {
            expect([200, 400]).toContain((await loyalty.updateBalance('Club', code, { points: -s.points })).status);
          } else if (s.kind === 'redeem') {
            const reply = await api.call('redeem-reward', { params: { memberId: code }, json: { reward: { id: rewardId } } });
            expect([200, 400]).toContain(reply.status);
            if (reply.status === 200) {
              redeemed.push(reply.json.id as string);
              seen.redemptions += 1;
            }
          } else if (s.kind === 'rollback') {
            const last = redeemed.pop();
            if (last !== undefined) {
              expect((await api.call('rollback-redemption', { params: { redemptionId: last }, json: {} })).status).toBe(200);
              seen.rollbacks += 1;
            }
          } else if (s.kind === 'wait') {
            clock.advance(s.days * DAY);
          } else {
            await expirePoints(runtime, { projectId: pair.project_id });
          }
        }
        const state = (await campaigns.getVoucher(code)).json.loyalty_card as { points: number; balance: number; expired_points: number };
        const transactions = await listCardTransactions(runtime, pair.project_id, card.id as string);
        expect(transactions.reduce((sum, t) => sum + t.points, 0)).toBe(state.balance);
        expect(transactions.reduce((sum, t) => sum + Math.max(t.points, 0), 0)).toBe(state.points);
        expect(transactions.filter((t) => t.type === 'POINTS_EXPIRATION').reduce((sum, t) => sum - t.points, 0)).toBe(state.expired_points);
        seen.expirations += transactions.filter((t) => t.type === 'POINTS_EXPIRATION').length;
        const last = transactions.at(-1);
        if (last) expect({ total: last.total, balance: last.balance }).toEqual({ total: state.points, balance: state.balance });
      }),
      { numRuns: 25, seed: 7 },
    );
    // The sequences did exercise every kind of change.
    expect(seen.redemptions).toBeGreaterThan(0);
    expect(seen.rollbacks).toBeGreaterThan(0);
    expect(seen.expirations).toBeGreaterThan(0);
  }, 300_000);
});
