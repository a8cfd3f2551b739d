import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import { activateDuePendingPoints } from '../../../lib/loyalties/pending-points.job.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

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

  /** Steps with orders: paid (a pending rule holds 7, an immediate one gives 3), activated early, cancelled, a day passing with the worker's run. */
  type OrderStep =
    | { kind: 'add'; points: number }
    | { kind: 'remove'; points: number }
    | { kind: 'pay' }
    | { kind: 'activate'; index: number }
    | { kind: 'cancel'; index: number }
    | { kind: 'day' };
  const orderStep: fc.Arbitrary<OrderStep> = fc.oneof(
    fc.record({ kind: fc.constant('add' as const), points: fc.integer({ min: 1, max: 50 }) }),
    fc.record({ kind: fc.constant('remove' as const), points: fc.integer({ min: 1, max: 50 }) }),
    fc.constant({ kind: 'pay' as const }),
    fc.record({ kind: fc.constant('activate' as const), index: fc.nat(5) }),
    fc.record({ kind: fc.constant('cancel' as const), index: fc.nat(5) }),
    fc.constant({ kind: 'day' as const }),
  );

  it('holds, with pending points, a balance equal to the sum of its transactions and pending_points equal to its PENDING entries, after any sequence of orders paid, activated, cancelled and days passing', async () => {
    const clock = new ManualClock(at);
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const campaigns = campaignApi(runtime, pair);
    const loyalty = loyaltyApi(runtime, pair);
    const api = apiClient({ runtime }, keyPairHeaders(pair));
    await newCampaign(campaigns, { name: 'Club', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    await loyalty.createEarningRules('Club', [
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 7 }, pending_points: { period_type: 'DAY', period_value: 1 } },
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 3 } },
    ]);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(orderStep, { minLength: 1, maxLength: 8 }), async (steps) => {
        run += 1;
        const customer = `holder-${run}`;
        const joined = await api.call('add-member', { params: { campaignId: 'Club' }, json: { customer: { source_id: customer } } });
        const card = joined.json as { id: string; code: string };
        const orders: string[] = [];
        for (const s of steps) {
          clock.advance(1000);
          if (s.kind === 'add' || s.kind === 'remove') {
            expect([200, 400]).toContain((await loyalty.updateBalance('Club', card.code, { points: s.kind === 'add' ? s.points : -s.points })).status);
          } else if (s.kind === 'pay') {
            const o = await api.call('create-order', { json: { amount: 100, customer: { source_id: customer }, status: 'PAID' } });
            orders.push((o.json as { id: string }).id);
          } else if (s.kind === 'activate') {
            const list = (await api.call('list-member-pending-points', { params: { memberId: card.code } })).json as { data: { id: string }[] };
            const entry = list.data[s.index % Math.max(list.data.length, 1)];
            if (entry)
              expect((await api.call('activate-member-pending-points', { params: { memberId: card.code, pendingPointsId: entry.id } })).status).toBe(200);
          } else if (s.kind === 'cancel') {
            const orderId = orders[s.index % Math.max(orders.length, 1)];
            if (orderId) expect((await api.call('update-order', { params: { orderId }, json: { status: 'CANCELED' } })).status).toBe(200);
          } else {
            clock.advance(86_400_000);
            await activateDuePendingPoints(runtime, { projectId: pair.project_id });
          }
        }
        const state = (await campaigns.getVoucher(card.code)).json.loyalty_card as { points: number; balance: number; pending_points: number };
        const transactions = await listCardTransactions(runtime, pair.project_id, card.id);
        expect(transactions.reduce((sum, t) => sum + t.points, 0)).toBe(state.balance);
        const pending = (await api.call('list-member-pending-points', { params: { memberId: card.code }, query: 'limit=100' })).json as {
          data: { points: number }[];
        };
        expect(pending.data.reduce((sum, p) => sum + p.points, 0)).toBe(state.pending_points);
      }),
      { numRuns: 10, seed: 37 },
    );
  }, 240_000);
});
