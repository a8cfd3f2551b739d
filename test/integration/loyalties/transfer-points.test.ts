import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const DAY = 86_400_000;
const at = Date.UTC(2026, 1, 10, 12, 0, 0); // 2026-02-10

/** Two programs; Ann holds a card of each (A in Club, B in Club2), Bob one of Club2 (C). */
async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const program = { campaign_type: 'LOYALTY_PROGRAM', type: 'AUTO_UPDATE', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } };
  await newCampaign(campaigns, { ...program, name: 'Club' });
  await newCampaign(campaigns, { ...program, name: 'Club2' });
  const join = async (campaignId: string, customer: string): Promise<{ id: string; code: string }> => {
    const reply = await api.call('add-member', { params: { campaignId }, json: { customer: { source_id: customer } } });
    expect(reply.status).toBe(200);
    return { id: reply.json.id as string, code: reply.json.code as string };
  };
  const a = await join('Club', 'ann');
  const b = await join('Club2', 'ann');
  const c = await join('Club2', 'bob');
  const transfer = (target: { code: string }, body: unknown, headers?: Record<string, string>) =>
    api.call('transfer-points', {
      params: { campaignId: target === a ? 'Club' : 'Club2', memberId: target.code },
      json: body,
      ...(headers ? { headers: { ...keyPairHeaders(pair), ...headers } } : {}),
    });
  const cardOf = async (card: { code: string }) => (await campaigns.getVoucher(card.code)).json.loyalty_card as Record<string, unknown>;
  const history = (card: { id: string }) => listCardTransactions(runtime, pair.project_id, card.id);
  const expiries = async (campaign: string, card: { code: string }) =>
    ((await loyalty.listPointsExpiration(campaign, card.code)).json.data as { expires_at?: string; bucket: { total_points: number } }[]).map((d) => [
      d.expires_at ?? null,
      d.bucket.total_points,
    ]);
  return { clock, runtime, pair, loyalty, api, a, b, c, transfer, cardOf, history, expiries };
}

describe('POST /v1/loyalties/{campaignId}/members/{memberId}/transfers', () => {
  it("moves points between the holder's cards soonest-expiring first, keeping their expiry, and records both sides", async () => {
    const { clock, loyalty, a, b, transfer, cardOf, history, expiries } = await setup();
    await loyalty.updateBalance('Club', a.code, { points: 10, expiration_date: '2026-06-30' });
    await loyalty.updateBalance('Club', a.code, { points: 5, expiration_date: '2026-03-31' });
    await loyalty.updateBalance('Club', a.code, { points: 4, expiration_type: 'NON_EXPIRING' });

    const reply = await transfer(b, [{ code: a.code, points: 8, reason: 'merge cards', source_id: 'crm-1' }]);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      code: b.code,
      object: 'voucher',
      loyalty_card: { points: 8, balance: 8, next_expiration_date: '2026-03-31', next_expiration_points: 5 },
    });
    expect(await expiries('Club2', b)).toEqual([
      ['2026-03-31', 5],
      ['2026-06-30', 3],
    ]);
    expect(await expiries('Club', a)).toEqual([
      ['2026-06-30', 7],
      [null, 4],
    ]);
    expect(await cardOf(a)).toMatchObject({ points: 19, balance: 11, subtracted_points: 8 });

    // Then more than the buckets hold: the bucket-less points follow, non-expiring.
    clock.advance(1000);
    expect((await transfer(b, [{ code: a.code, points: 10, source_id: 'crm-2' }])).status).toBe(200);
    // Two buckets of one date (one per transfer) list in id order: compare them as a set.
    const [first, second, third, last] = await expiries('Club2', b);
    expect([first, last]).toEqual([
      ['2026-03-31', 5],
      [null, 3],
    ]);
    expect([second, third].sort()).toEqual([
      ['2026-06-30', 3],
      ['2026-06-30', 7],
    ]);
    const out = (await history(a)).filter((t) => t.type === 'POINTS_TRANSFER_OUT');
    const into = (await history(b)).filter((t) => t.type === 'POINTS_TRANSFER_IN');
    expect(out.map((t) => [t.points, t.balance, t.sourceId, t.reason])).toEqual([
      [-8, 11, 'crm-1', 'merge cards'],
      [-10, 1, 'crm-2', null],
    ]);
    expect(into.map((t) => [t.points, t.balance, t.sourceId])).toEqual([
      [8, 8, 'crm-1'],
      [10, 18, 'crm-2'],
    ]);
    expect(out.map((t) => t.relatedTransactionId)).toEqual(into.map((t) => t.id));
    expect(into.map((t) => t.relatedTransactionId)).toEqual(out.map((t) => t.id));
  });

  it('never takes an expired bucket, and the points it moves expire on the target as they would have on the source', async () => {
    const { clock, loyalty, a, b, transfer, cardOf } = await setup();
    await loyalty.updateBalance('Club', a.code, { points: 6, expiration_date: '2026-02-20' });
    await loyalty.updateBalance('Club', a.code, { points: 9, expiration_date: '2026-04-30' });
    clock.advance(15 * DAY); // 2026-02-25: the first bucket is gone
    const refused = await transfer(b, [{ code: a.code, points: 10, source_id: 's1' }]);
    expect(refused.status).toBe(400);
    expect(refused.json.key).toBe('not_enough_points');
    expect((await transfer(b, [{ code: a.code, points: 9, source_id: 's2' }])).status).toBe(200);
    expect(await cardOf(b)).toMatchObject({ balance: 9, next_expiration_date: '2026-04-30', next_expiration_points: 9 });
    expect(await cardOf(a)).toMatchObject({ balance: 0, expired_points: 6 });
  });

  it("refuses another holder's card, the target among the sources, an unknown card and a card without holder, and changes nothing", async () => {
    const { loyalty, a, b, c, transfer, cardOf } = await setup();
    await loyalty.updateBalance('Club', a.code, { points: 10 });
    const other = await transfer(c, [{ code: a.code, points: 1, source_id: 'x' }]);
    expect(other.status).toBe(400);
    expect(other.json).toMatchObject({ code: 400, key: 'invalid_customer' });
    expect((await transfer(a, [{ code: a.code, points: 1, source_id: 'x' }])).json).toMatchObject({ code: 400, key: 'invalid_payload' });
    expect((await transfer(b, [{ code: 'NOPE', points: 1, source_id: 'x' }])).json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'voucher' });
    const twice = await transfer(b, [
      { code: a.code, points: 1, source_id: 'x' },
      { code: a.code, points: 1, source_id: 'y' },
    ]);
    expect(twice.json).toMatchObject({ code: 400, key: 'invalid_payload' });
    expect((await transfer(b, [])).status).toBe(400);
    expect((await transfer(b, [{ code: a.code, points: 0, source_id: 'x' }])).status).toBe(400);
    expect(await cardOf(a)).toMatchObject({ balance: 10 });
    expect(await cardOf(b)).toMatchObject({ balance: 0 });
    expect(await cardOf(c)).toMatchObject({ balance: 0 });
  });

  it('takes from several cards at once in one transaction, all or nothing', async () => {
    const { loyalty, api, a, b, transfer, cardOf } = await setup();
    await newCampaignCard(api, 'Club3');
    const d = await api.call('add-member', { params: { campaignId: 'Club3' }, json: { customer: { source_id: 'ann' } } });
    const dCode = d.json.code as string;
    await loyalty.updateBalance('Club', a.code, { points: 5 });
    await loyalty.updateBalance('Club3', dCode, { points: 2 });
    const short = await transfer(b, [
      { code: a.code, points: 5, source_id: 'p' },
      { code: dCode, points: 3, source_id: 'q' },
    ]);
    expect(short.json).toMatchObject({ code: 400, key: 'not_enough_points' });
    expect(await cardOf(a)).toMatchObject({ balance: 5 });
    const both = await transfer(b, [
      { code: a.code, points: 5, source_id: 'p' },
      { code: dCode, points: 2, source_id: 'q' },
    ]);
    expect(both.json).toMatchObject({ loyalty_card: { balance: 7, points: 7 } });
    expect(await cardOf(a)).toMatchObject({ balance: 0 });
    expect(await cardOf({ code: dCode })).toMatchObject({ balance: 0 });
  });

  it('never takes a card below zero under parallel transfers: 20 transfers of 10 from 100 points, exactly 10 win', async () => {
    const { loyalty, a, b, transfer, cardOf, history } = await setup();
    await loyalty.updateBalance('Club', a.code, { points: 60, expiration_date: '2026-05-31' });
    await loyalty.updateBalance('Club', a.code, { points: 40, expiration_date: '2026-08-31' });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => transfer(b, [{ code: a.code, points: 10, source_id: `par-${i}` }])));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(await cardOf(a)).toMatchObject({ balance: 0, subtracted_points: 100 });
    expect(await cardOf(b)).toMatchObject({ balance: 100, points: 100, next_expiration_date: '2026-05-31', next_expiration_points: 60 });
    expect((await history(a)).filter((t) => t.type === 'POINTS_TRANSFER_OUT')).toHaveLength(10);
    expect((await history(b)).filter((t) => t.type === 'POINTS_TRANSFER_IN')).toHaveLength(10);
  }, 60_000);

  it('moves the points once for a retried request with the same Idempotency-Key, and replays the card', async () => {
    const { loyalty, a, b, transfer, cardOf } = await setup();
    await loyalty.updateBalance('Club', a.code, { points: 30 });
    const body = [{ code: a.code, points: 10, source_id: 'idem' }];
    const [first, second] = await Promise.all([transfer(b, body, { 'idempotency-key': 'tr-1' }), transfer(b, body, { 'idempotency-key': 'tr-1' })]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.json.code).toBe(b.code);
    expect(second.json.code).toBe(b.code);
    expect(await cardOf(a)).toMatchObject({ balance: 20 });
    expect(await cardOf(b)).toMatchObject({ balance: 10 });
  });
});

async function newCampaignCard(api: ReturnType<typeof apiClient>, name: string): Promise<void> {
  const reply = await api.call('create-campaign', {
    json: { name, campaign_type: 'LOYALTY_PROGRAM', type: 'AUTO_UPDATE', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
  });
  expect(reply.status).toBe(200);
}
