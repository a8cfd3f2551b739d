import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import { listOrderEarnings } from '../../../lib/loyalties/order-earning.service.js';
import { activateDuePendingPoints } from '../../../lib/loyalties/pending-points.job.js';
import { getPendingEntry } from '../../../lib/loyalties/pending-points.repo.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 1, 10, 12, 0, 0);
const DAY = 86_400_000;

interface Entry {
  id: string;
  voucher_id: string;
  order_id: string;
  points: number;
  activates_at: string;
  details: { order: { id: string }; earning_rule: { id: string } };
}

async function setup(days = 2) {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const club = await newCampaign(campaigns, {
    name: 'Club',
    campaign_type: 'LOYALTY_PROGRAM',
    type: 'AUTO_UPDATE',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  });
  const rules = await loyalty.createEarningRules('Club', [
    { event: 'order.paid', loyalty: { type: 'FIXED', points: 10 }, source: { banner: 'Paid' }, pending_points: { period_type: 'DAY', period_value: days } },
  ]);
  expect(rules.status).toBe(200);
  const join = async (sourceId: string) => {
    const reply = await api.call('add-member', { params: { campaignId: 'Club' }, json: { customer: { source_id: sourceId } } });
    expect(reply.status).toBe(200);
    return reply.json as { id: string; code: string };
  };
  const paidOrder = async (customer: string) => {
    const reply = await api.call('create-order', { json: { amount: 1000, customer: { source_id: customer }, status: 'PAID' } });
    expect(reply.status).toBe(200);
    return reply.json as { id: string };
  };
  const card = async (code: string) =>
    ((await api.call('get-member', { params: { memberId: code } })).json as { loyalty_card: { points: number; balance: number; pending_points: number } })
      .loyalty_card;
  const entries = async (code: string) => (await api.call('list-member-pending-points', { params: { memberId: code } })).json as { data: Entry[] };
  const activate = (memberId: string, pendingPointsId: string) => api.call('activate-member-pending-points', { params: { memberId, pendingPointsId } });
  const cancel = (memberId: string, pendingPointsId: string) => api.call('cancel-member-pending-points', { params: { memberId, pendingPointsId } });
  const adjust = (memberId: string, pendingPointsId: string, points: number) =>
    api.call('adjust-member-pending-points', { params: { memberId, pendingPointsId }, json: { points } });
  const cancelOrder = (orderId: string) => api.call('update-order', { params: { orderId }, json: { status: 'CANCELED' } });
  const transactions = (voucherId: string) => listCardTransactions(runtime, pair.project_id, voucherId);
  /** A member with one paid order's pending entry. */
  const pendingMember = async (customer: string) => {
    const member = await join(customer);
    const order = await paidOrder(customer);
    const [entry] = (await entries(member.code)).data;
    if (!entry) throw new Error('no pending entry');
    return { member, order, entry };
  };
  return { clock, runtime, pair, api, club, join, paidOrder, card, entries, activate, cancel, adjust, cancelOrder, transactions, pendingMember };
}

describe('pending points of order.paid rules', () => {
  it('holds a paid order’s points as a PENDING entry counted in pending_points, listed by card and by program', async () => {
    const { api, club, card, pendingMember, transactions } = await setup(2);
    const { member, order, entry } = await pendingMember('ann');
    expect(await card(member.code)).toMatchObject({ points: 0, balance: 0, pending_points: 10 });
    expect(entry).toMatchObject({ voucher_id: member.id, order_id: order.id, points: 10, activates_at: '2026-02-12', details: { order: { id: order.id } } });
    expect(await transactions(member.id)).toEqual([]);
    const byProgram = await api.call('list-member-pending-points-1', { params: { campaignId: 'Club', memberId: member.code } });
    expect((byProgram.json as { data: Entry[] }).data.map((e) => e.id)).toEqual([entry.id]);
    const campaign = await api.call('list-campaign-pending-points', { params: { campaignId: club.id as string } });
    expect((campaign.json as { data: Entry[] }).data.map((e) => e.id)).toEqual([entry.id]);
  });

  it('accepts pending_points only on order.paid rules and shows it on the rule', async () => {
    const { api } = await setup();
    const rules = await api.call('list-earning-rules', { params: { campaignId: 'Club' } });
    expect((rules.json as { data: { pending_points?: unknown }[] }).data[0]?.pending_points).toEqual({ period_type: 'DAY', period_value: 2 });
    const bad = await api.call('create-earning-rule', {
      params: { campaignId: 'Club' },
      json: [{ event: 'order.paid', loyalty: { type: 'FIXED', points: 1 }, pending_points: { period_type: 'DAY', period_value: 91 } }],
    });
    expect(bad.status).toBe(400);
  });

  it('activates an entry on request: the points reach the card with a PENDING_POINTS_ACTIVATION, and it cannot be activated, cancelled or changed again', async () => {
    const { activate, cancel, adjust, card, pendingMember, transactions, entries } = await setup();
    const { member, entry } = await pendingMember('ann');
    const reply = await activate(member.code, entry.id);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      points: 10,
      total: 10,
      balance: 10,
      type: 'loyalty_card',
      object: 'balance',
      related_object: { type: 'voucher', id: member.id },
      operation_type: 'MANUAL',
    });
    expect(await card(member.code)).toMatchObject({ points: 10, balance: 10, pending_points: 0 });
    const txs = await transactions(member.id);
    expect(txs.map((t) => [t.type, t.points, t.balance])).toEqual([['PENDING_POINTS_ACTIVATION', 10, 10]]);
    expect((await entries(member.code)).data).toEqual([]);
    const again = await activate(member.code, entry.id);
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({
      key: 'invalid_pending_points_state',
      message: 'Invalid pending points state',
      details: "Only pending points in 'PENDING' status can be activated. Current status: 'ACTIVATED'.",
    });
    expect((await cancel(member.code, entry.id)).json.details).toBe("Only pending points in 'PENDING' status can be canceled. Current status: 'ACTIVATED'.");
    expect((await adjust(member.code, entry.id, 5)).json.details).toBe("Only pending points in 'PENDING' status can be updated. Current status: 'ACTIVATED'.");
  });

  it('answers 404 with the reference keys for an unknown card or entry', async () => {
    const { activate, cancel, pendingMember } = await setup();
    const { member } = await pendingMember('ann');
    const noCard = await activate('NoSuchMemberId', 'lopp_x');
    expect(noCard.status).toBe(404);
    expect(noCard.json).toMatchObject({ key: 'not_found', resource_type: 'voucher', resource_id: 'NoSuchMemberId' });
    const noEntry = await cancel(member.code, 'lopp_0ffc655c85207fe9b');
    expect(noEntry.status).toBe(404);
    expect(noEntry.json).toMatchObject({
      key: 'not_found',
      details: 'Cannot find pending_points with id lopp_0ffc655c85207fe9b',
      resource_id: 'lopp_0ffc655c85207fe9b',
      resource_type: 'pending_points',
    });
  });

  it('cancels an entry: pending_points drop, nothing reaches the card, and it cannot be activated after', async () => {
    const { activate, cancel, card, pendingMember, transactions, runtime, pair } = await setup();
    const { member, order, entry } = await pendingMember('ann');
    expect((await cancel(member.code, entry.id)).status).toBe(204);
    expect(await card(member.code)).toMatchObject({ points: 0, balance: 0, pending_points: 0 });
    expect(await transactions(member.id)).toEqual([]);
    expect((await listOrderEarnings(runtime, pair.project_id, order.id)).map((e) => e.status)).toEqual(['CANCELED']);
    expect((await activate(member.code, entry.id)).json.details).toBe("Only pending points in 'PENDING' status can be activated. Current status: 'CANCELED'.");
  });

  it('adjusts an entry’s points (never to 0 or below) and activates what it holds then', async () => {
    const { activate, adjust, card, pendingMember } = await setup();
    const { member, entry } = await pendingMember('ann');
    const added = await adjust(member.code, entry.id, 5);
    expect(added.status).toBe(200);
    expect(added.json).toEqual({ points: 5, total: 15, object: 'balance', related_object: { type: 'voucher', id: member.id }, operation_type: 'MANUAL' });
    const refused = await adjust(member.code, entry.id, -15);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ key: 'invalid_amount', details: 'Amount has to be a valid positive number' });
    expect((await card(member.code)).pending_points).toBe(15);
    expect((await activate(member.code, entry.id)).json).toMatchObject({ points: 15, balance: 15 });
  });

  it('moves points once for an adjustment or activation retried with the same Idempotency-Key', async () => {
    const { api, pair, card, pendingMember } = await setup();
    const { member, entry } = await pendingMember('ann');
    const keyed = (key: string) => ({ ...keyPairHeaders(pair), 'Idempotency-Key': key });
    const params = { memberId: member.code, pendingPointsId: entry.id };
    const adjust = () => api.call('adjust-member-pending-points', { params, json: { points: 5 }, headers: keyed('adj-1') });
    expect((await adjust()).status).toBe(200);
    const again = await adjust();
    expect(again.status).toBe(200);
    expect(again.headers?.['Idempotent-Replayed']).toBe('true');
    expect((await card(member.code)).pending_points).toBe(15);
    const activate = () => api.call('activate-member-pending-points', { params, headers: keyed('act-1') });
    expect((await activate()).json).toMatchObject({ points: 15, balance: 15 });
    const replay = await activate();
    expect(replay.status).toBe(200);
    expect(replay.json).toMatchObject({ points: 15, balance: 15 });
    expect((await card(member.code)).balance).toBe(15);
  });

  it('activates due entries by the worker on their day, once however often it runs', async () => {
    const { clock, runtime, pair, card, pendingMember, transactions } = await setup(2);
    const { member } = await pendingMember('ann');
    clock.advance(DAY);
    expect((await activateDuePendingPoints(runtime, { projectId: pair.project_id })).activated).toBe(0);
    clock.advance(DAY);
    const [first, second] = await Promise.all([
      activateDuePendingPoints(runtime, { projectId: pair.project_id }),
      activateDuePendingPoints(runtime, { projectId: pair.project_id }),
    ]);
    expect((first?.activated ?? 0) + (second?.activated ?? 0)).toBe(1);
    expect((await activateDuePendingPoints(runtime, { projectId: pair.project_id })).activated).toBe(0);
    expect(await card(member.code)).toMatchObject({ balance: 10, pending_points: 0 });
    expect((await transactions(member.id)).filter((t) => t.type === 'PENDING_POINTS_ACTIVATION')).toHaveLength(1);
  });

  it('leaves the entries of a stopped sweep due, and the next sweep activates each once', async () => {
    const { clock, runtime, pair, card, pendingMember } = await setup(1);
    const { member } = await pendingMember('ann');
    clock.advance(DAY);
    const stop = new AbortController();
    stop.abort();
    await expect(activateDuePendingPoints(runtime, { projectId: pair.project_id, signal: stop.signal })).rejects.toThrow(/stopped/);
    expect((await card(member.code)).pending_points).toBe(10);
    expect((await activateDuePendingPoints(runtime, { projectId: pair.project_id })).activated).toBe(1);
    expect(await card(member.code)).toMatchObject({ balance: 10, pending_points: 0 });
  });

  it('cancels the pending entry of an order cancelled before activation, and takes back one activated before', async () => {
    const { clock, runtime, pair, activate, card, cancelOrder, pendingMember, transactions } = await setup();
    const held = await pendingMember('ann');
    expect((await cancelOrder(held.order.id)).status).toBe(200);
    expect(await card(held.member.code)).toMatchObject({ balance: 0, pending_points: 0 });
    expect((await getPendingEntry(runtime, pair.project_id, held.member.id, held.entry.id))?.status).toBe('CANCELED');
    clock.advance(10 * DAY);
    expect((await activateDuePendingPoints(runtime, { projectId: pair.project_id })).activated).toBe(0);

    const active = await pendingMember('bob');
    expect((await activate(active.member.code, active.entry.id)).status).toBe(200);
    clock.advance(1000);
    expect((await cancelOrder(active.order.id)).status).toBe(200);
    expect(await card(active.member.code)).toMatchObject({ balance: 0, pending_points: 0 });
    expect((await transactions(active.member.id)).map((t) => [t.type, t.points])).toEqual([
      ['PENDING_POINTS_ACTIVATION', 10],
      ['POINTS_REMOVAL', -10],
    ]);
  });
});

describe('pending points under concurrency', () => {
  it('activates an entry once when 20 activations run at once', async () => {
    const { activate, card, pendingMember, transactions } = await setup();
    const { member, entry } = await pendingMember('ann');
    const replies = await Promise.all(Array.from({ length: 20 }, () => activate(member.code, entry.id)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 400 && r.json.key === 'invalid_pending_points_state')).toHaveLength(19);
    expect(await card(member.code)).toMatchObject({ balance: 10, pending_points: 0 });
    expect((await transactions(member.id)).filter((t) => t.type === 'PENDING_POINTS_ACTIVATION')).toHaveLength(1);
  }, 60_000);

  it('ends an entry activated while its order is cancelled either activated then taken back, or cancelled: never both, never neither', async () => {
    const { runtime, pair, activate, card, cancelOrder, pendingMember, transactions } = await setup();
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const { member, order, entry } = await pendingMember(`c${i}`);
      const [activation, cancellation] = await Promise.all([activate(member.code, entry.id), cancelOrder(order.id)]);
      expect(cancellation.status).toBe(200);
      expect([200, 400]).toContain(activation.status);
      const stored = await getPendingEntry(runtime, pair.project_id, member.id, entry.id);
      const earnings = await listOrderEarnings(runtime, pair.project_id, order.id);
      const txs = await transactions(member.id);
      const types = txs.map((t) => t.type);
      if (stored?.status === 'ACTIVATED') {
        expect(activation.status).toBe(200);
        expect(earnings.map((e) => e.status)).toEqual(['TAKEN_BACK']);
        // Both written at the same instant of the test's clock: listed by id.
        expect(types.sort()).toEqual(['PENDING_POINTS_ACTIVATION', 'POINTS_REMOVAL']);
        outcomes.push('activated-then-taken-back');
      } else {
        expect(stored?.status).toBe('CANCELED');
        expect(activation.status).toBe(400);
        expect(earnings.map((e) => e.status)).toEqual(['CANCELED']);
        expect(types).toEqual([]);
        outcomes.push('cancelled');
      }
      expect(await card(member.code)).toMatchObject({ balance: 0, pending_points: 0 });
      expect(txs.reduce((s, t) => s + t.points, 0)).toBe(0);
    }
    expect(outcomes).toHaveLength(6);
  }, 120_000);
});
