import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { activateDuePendingPoints } from '../../../lib/loyalties/pending-points.job.js';
import type { WebhookEvent } from '../../../lib/webhooks/webhook.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, testRuntime } from '../../support/runtime.js';
import { webhookScenario } from '../../support/webhook-harness.js';

/*
 * Loyalty pending points events through the real outbox (table stream, stream poller, webhooks
 * queue, delivery worker) to a receiver on loopback: one per committed change of an entry (added by
 * a paid order, updated, activated by the route or the worker, cancelled by the route or the
 * order's cancellation), none for a refused one.
 */

const SCHEDULE = { firstDelaySeconds: 1, maxDelaySeconds: 1, giveUpAfterSeconds: 30 };
const PENDING_EVENTS: WebhookEvent[] = [
  'voucher.loyalty_card.pending_points.aded',
  'voucher.loyalty_card.pending_points.updated',
  'voucher.loyalty_card.pending_points.activated',
  'voucher.loyalty_card.pending_points.canceled',
];
const DAY = 86_400_000;

interface Event {
  id: string;
  type: string;
  project_id: string;
  data: { object: { id: string; voucher_id: string; order_id: string; points: number } };
}
const hooks = webhookScenario<Event>(PENDING_EVENTS, SCHEDULE);
const { eventsOf } = hooks;

async function program() {
  const keys = await hooks.subscribedProject();
  const api = apiClient({ runtime: hooks.runtime }, keyPairHeaders(keys));
  const club = await api.call('create-campaign', {
    json: { name: 'Club', campaign_type: 'LOYALTY_PROGRAM', type: 'AUTO_UPDATE', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
  });
  expect(club.status).toBe(200);
  const rules = await api.call('create-earning-rule', {
    params: { campaignId: 'Club' },
    json: [
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 10 }, source: { banner: 'Paid' }, pending_points: { period_type: 'DAY', period_value: 2 } },
    ],
  });
  expect(rules.status).toBe(200);
  /** A member and one paid order's pending entry. */
  const pendingMember = async (customer: string) => {
    const member = await api.call('add-member', { params: { campaignId: 'Club' }, json: { customer: { source_id: customer } } });
    expect(member.status).toBe(200);
    const order = await api.call('create-order', { json: { amount: 1000, customer: { source_id: customer }, status: 'PAID' } });
    expect(order.status).toBe(200);
    const code = member.json.code as string;
    const list = await api.call('list-member-pending-points', { params: { memberId: code } });
    const entry = (list.json as { data: { id: string }[] }).data[0];
    if (!entry) throw new Error('no pending entry');
    return { code, orderId: order.json.id as string, entryId: entry.id };
  };
  return { keys, api, pendingMember };
}

const pairsOf = (events: Event[]) => events.map((e) => `${e.type} ${e.data.object.id}`).sort();

describe('loyalty pending points webhook events', () => {
  it('added, updated, activated (route and worker) and canceled (route and order cancellation), once each; none for refused changes', async () => {
    const { keys, api, pendingMember } = await program();
    const a = await pendingMember('ann');
    const b = await pendingMember('bob');
    const c = await pendingMember('cyd');
    const d = await pendingMember('dan');
    expect((await api.call('adjust-member-pending-points', { params: { memberId: a.code, pendingPointsId: a.entryId }, json: { points: 7 } })).status).toBe(
      200,
    ); // adds 7
    expect((await api.call('activate-member-pending-points', { params: { memberId: a.code, pendingPointsId: a.entryId } })).status).toBe(200);
    expect((await api.call('cancel-member-pending-points', { params: { memberId: b.code, pendingPointsId: b.entryId } })).status).toBe(204);
    expect((await api.call('update-order', { params: { orderId: c.orderId }, json: { status: 'CANCELED' } })).status).toBe(200);
    // Refused: each entry is no longer PENDING, or the points are not valid.
    const refused = [
      await api.call('activate-member-pending-points', { params: { memberId: a.code, pendingPointsId: a.entryId } }),
      await api.call('cancel-member-pending-points', { params: { memberId: a.code, pendingPointsId: a.entryId } }),
      await api.call('adjust-member-pending-points', { params: { memberId: b.code, pendingPointsId: b.entryId }, json: { points: 3 } }),
      await api.call('adjust-member-pending-points', { params: { memberId: d.code, pendingPointsId: d.entryId }, json: { points: -10 } }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    // The worker, two days on, activates what is still due: dan's entry only.
    const later = testRuntime({ tableName: hooks.runtime.tableName, clock: new ManualClock(Date.now() + 3 * DAY) });
    expect((await activateDuePendingPoints(later, { projectId: keys.project_id })).activated).toBe(1);

    const events = await eventsOf(keys.project_id, 4 + 1 + 4);
    expect(pairsOf(events)).toEqual(
      [
        ...[a, b, c, d].map((m) => `voucher.loyalty_card.pending_points.aded ${m.entryId}`),
        `voucher.loyalty_card.pending_points.updated ${a.entryId}`,
        `voucher.loyalty_card.pending_points.activated ${a.entryId}`,
        `voucher.loyalty_card.pending_points.canceled ${b.entryId}`,
        `voucher.loyalty_card.pending_points.canceled ${c.entryId}`,
        `voucher.loyalty_card.pending_points.activated ${d.entryId}`,
      ].sort(),
    );
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const activated = events.find((e) => e.type === 'voucher.loyalty_card.pending_points.activated' && e.data.object.id === a.entryId);
    expect(activated?.data.object).toMatchObject({ points: 17, order_id: a.orderId });
  }, 90_000);

  it('counted: 8 parallel activations and cancellations of each of 3 entries send exactly one event per entry, of the change that won', async () => {
    const { keys, api, pendingMember } = await program();
    const members = [await pendingMember('eve'), await pendingMember('fay'), await pendingMember('gus')];
    const calls = members.flatMap((m) =>
      Array.from({ length: 8 }, (_, n) => ({
        entryId: m.entryId,
        op: n % 2 === 0 ? 'activate-member-pending-points' : 'cancel-member-pending-points',
        params: { memberId: m.code, pendingPointsId: m.entryId },
      })),
    );
    const replies = await Promise.all(calls.map((c) => api.call(c.op, { params: c.params })));
    const won = calls.filter((_, i) => [200, 204].includes(replies[i]?.status ?? 0));
    expect(replies.filter((r) => ![200, 204].includes(r.status)).every((r) => r.status === 400 || r.status === 409)).toBe(true);
    expect(won.map((w) => w.entryId).sort()).toEqual(members.map((m) => m.entryId).sort());
    const events = await eventsOf(keys.project_id, 3 + won.length);
    const ends = events.filter((e) => e.type !== 'voucher.loyalty_card.pending_points.aded');
    expect(pairsOf(ends)).toEqual(
      won.map((w) => `voucher.loyalty_card.pending_points.${w.op === 'activate-member-pending-points' ? 'activated' : 'canceled'} ${w.entryId}`).sort(),
    );
  }, 90_000);

  it('counted: 3 worker runs at once over 4 due entries send exactly 4 activated events', async () => {
    const { keys, pendingMember } = await program();
    const members = [await pendingMember('hal'), await pendingMember('ida'), await pendingMember('jon'), await pendingMember('kim')];
    const later = testRuntime({ tableName: hooks.runtime.tableName, clock: new ManualClock(Date.now() + 3 * DAY) });
    const runs = await Promise.all([1, 2, 3].map(() => activateDuePendingPoints(later, { projectId: keys.project_id })));
    expect(runs.reduce((n, r) => n + r.activated, 0)).toBe(4);
    const events = await eventsOf(keys.project_id, 8);
    expect(pairsOf(events.filter((e) => e.type === 'voucher.loyalty_card.pending_points.activated'))).toEqual(
      members.map((m) => `voucher.loyalty_card.pending_points.activated ${m.entryId}`).sort(),
    );
    expect(events).toHaveLength(8);
  }, 90_000);
});
