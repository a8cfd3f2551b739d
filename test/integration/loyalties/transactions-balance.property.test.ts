import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 1, 10, 12, 0, 0);

/** One step against the card: a manual add or removal, or an event earning by its rules (5 fixed + 1 per 10 of `amount`). */
type Step = { kind: 'add'; points: number } | { kind: 'remove'; points: number } | { kind: 'earn'; amount: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), points: fc.integer({ min: 1, max: 500 }) }),
  fc.record({ kind: fc.constant('remove' as const), points: fc.integer({ min: 1, max: 500 }) }),
  fc.record({ kind: fc.constant('earn' as const), amount: fc.integer({ min: 0, max: 300 }) }),
);

describe('a loyalty card and its transactions', () => {
  it('holds a balance equal to the sum of its transactions, and a total equal to the sum of what they added, after any sequence of adds, removals and earnings', async () => {
    const clock = new ManualClock(at);
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const campaigns = campaignApi(runtime, pair);
    const loyalty = loyaltyApi(runtime, pair);
    const events = eventApi(runtime, pair);
    await events.createSchema(schemaBody('order_paid', { amount: 'number?' }));
    await newCampaign(campaigns, { name: 'Club', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    await loyalty.createEarningRules('Club', [
      { event: 'order_paid', loyalty: { type: 'FIXED', points: 5 } },
      {
        event: 'order_paid',
        loyalty: { type: 'PROPORTIONAL', calculation_type: 'CUSTOM_EVENT_METADATA', custom_event: { metadata: { every: 10, points: 1, property: 'amount' } } },
      },
    ]);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        run += 1;
        const code = `CARD-${run}`;
        const card = (await campaigns.addVoucher('Club', { code })).json;
        for (const s of steps) {
          clock.advance(1000);
          if (s.kind === 'earn') {
            expect(
              (await events.trackEvent({ event: 'order_paid', customer: { source_id: 'ann' }, loyalty: { code }, metadata: { amount: s.amount } })).status,
            ).toBe(200);
          } else {
            const reply = await loyalty.updateBalance('Club', code, { points: s.kind === 'add' ? s.points : -s.points });
            // A removal beyond the balance is refused and changes nothing.
            expect([200, 400]).toContain(reply.status);
          }
        }
        const state = (await campaigns.getVoucher(code)).json.loyalty_card as { points: number; balance: number };
        const transactions = await listCardTransactions(runtime, pair.project_id, card.id as string);
        expect(transactions.reduce((sum, t) => sum + t.points, 0)).toBe(state.balance);
        expect(transactions.reduce((sum, t) => sum + Math.max(t.points, 0), 0)).toBe(state.points);
        // The last transaction shows the card as it is.
        const last = transactions.at(-1);
        if (last) expect({ total: last.total, balance: last.balance }).toEqual({ total: state.points, balance: state.balance });
      }),
      { numRuns: 12, seed: 18 },
    );
  }, 240_000);
});
