import { describe, expect, it } from 'vitest';
import { REPLAYED_HEADER } from '../../../lib/idempotency/idempotency.service.js';
import { campaignBodies } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject } from '../../support/runtime.js';
import { publicationSetup } from '../publications/support.js';

async function setup() {
  const ctx = await publicationSetup();
  const balance = (code: string, json: unknown, headers: Record<string, string> = ctx.headers) =>
    ctx.api.call('update-voucher-balance', { params: { code }, json, headers });
  const transactions = (code: string, query = '') => ctx.api.call('list-voucher-transactions', { params: { code }, query });
  /** A gift card of `amount` credits. */
  const giftCard = async (code: string, amount: number) => {
    const name = `Gift ${code}`;
    const body = { ...campaignBodies.GIFT_VOUCHERS(name), voucher: { type: 'GIFT_VOUCHER', gift: { amount, effect: 'APPLY_TO_ORDER' } } };
    await ctx.campaignWith(name, [code], body);
  };
  return { ...ctx, balance, transactions, giftCard };
}

const giftOf = (v: Record<string, unknown>) => v.gift as { amount: number; balance: number; subtracted_amount: number };

describe('POST /v1/vouchers/{code}/balance and GET /v1/vouchers/{code}/transactions', () => {
  it("adds and removes a gift card's credits, and lists each change newest first", async () => {
    const { api, balance, transactions, giftCard, clock } = await setup();
    await giftCard('GIFT-1', 5000);
    const added = await balance('GIFT-1', { amount: 1000, source_id: 'crm-1', reason: 'goodwill' });
    expect(added.status).toBe(200);
    const voucherId = (await api.call('get-voucher', { params: { code: 'GIFT-1' } })).json.id as string;
    expect(added.json).toEqual({
      amount: 1000,
      total: 6000,
      balance: 6000,
      type: 'gift_voucher',
      operation_type: 'MANUAL',
      object: 'balance',
      related_object: { type: 'voucher', id: voucherId },
    });
    clock.advance(1000);
    const removed = await balance('GIFT-1', { amount: -2500 });
    expect(removed.json).toMatchObject({ amount: -2500, total: 3500, balance: 3500 });
    expect(giftOf((await api.call('get-voucher', { params: { code: 'GIFT-1' } })).json)).toMatchObject({ amount: 3500, balance: 3500, subtracted_amount: 0 });
    const listed = await transactions('GIFT-1');
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject({ object: 'list', data_ref: 'data', has_more: false });
    expect(listed.json.data).toMatchObject([
      {
        type: 'CREDITS_REMOVAL',
        source_id: null,
        reason: null,
        voucher_id: voucherId,
        details: { balance: { type: 'gift_voucher', amount: -2500, total: 3500, balance: 3500 } },
      },
      { type: 'CREDITS_ADDITION', source_id: 'crm-1', reason: 'goodwill', source: 'API', details: { balance: { amount: 1000, total: 6000, balance: 6000 } } },
    ]);
  });

  it('of 20 parallel removals of 100 from a balance of 1,000, exactly 10 succeed; the balance ends at 0 with 10 transactions', async () => {
    const { api, balance, transactions, giftCard } = await setup();
    await giftCard('RACE-GIFT', 1000);
    const replies = await Promise.all(Array.from({ length: 20 }, () => balance('RACE-GIFT', { amount: -100 })));
    const won = replies.filter((r) => r.status === 200);
    const lost = replies.filter((r) => r.status !== 200);
    expect(won).toHaveLength(10);
    for (const r of lost) expect(r.json).toMatchObject({ code: 400, key: 'invalid_balance', resource_id: 'RACE-GIFT' });
    expect(new Set(won.map((r) => r.json.balance))).toEqual(new Set([900, 800, 700, 600, 500, 400, 300, 200, 100, 0]));
    expect(giftOf((await api.call('get-voucher', { params: { code: 'RACE-GIFT' } })).json)).toMatchObject({ balance: 0 });
    const listed = await transactions('RACE-GIFT', 'limit=100');
    expect(listed.json.data).toHaveLength(10);
  });

  it('refuses to take a gift card below 0 and changes nothing', async () => {
    const { api, balance, transactions, giftCard } = await setup();
    await giftCard('LOW', 300);
    const refused = await balance('LOW', { amount: -301 });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ key: 'invalid_balance', resource_type: 'voucher' });
    expect(giftOf((await api.call('get-voucher', { params: { code: 'LOW' } })).json)).toMatchObject({ amount: 300, balance: 300 });
    expect((await transactions('LOW')).json.data).toEqual([]);
    expect((await balance('LOW', { amount: 0 })).status).toBe(400);
    expect((await balance('LOW', { amount: 1.5 })).status).toBe(400);
  });

  it("changes a loyalty card's points as the loyalty balance route does, and lists the change", async () => {
    const { api, balance, transactions, campaigns } = await setup();
    const club = await campaigns.createCampaign(campaignBodies.LOYALTY_PROGRAM('Club'));
    const card = (await campaigns.addVoucher(club.json.id as string, { code: 'CARD-1' })).json;
    const added = await balance('CARD-1', { amount: 50, reason: 'bonus' });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({ amount: 50, total: 150, balance: 150, type: 'loyalty_card', related_object: { id: card.id } });
    expect((await api.call('get-voucher', { params: { code: 'CARD-1' } })).json).toMatchObject({ loyalty_card: { points: 150, balance: 150 } });
    const spent = await balance('CARD-1', { amount: -500 });
    expect(spent.json).toMatchObject({ code: 400, key: 'not_enough_points' });
    expect((await transactions('CARD-1')).json.data).toMatchObject([
      { type: 'POINTS_ADDITION', reason: 'bonus', campaign_id: club.json.id, details: { balance: { type: 'loyalty_card', points: 50, balance: 150 } } },
    ]);
  });

  it('refuses a voucher without a balance, and answers 404 for unknown codes and other projects', async () => {
    const { runtime, balance, transactions, campaignWith, giftCard } = await setup();
    await campaignWith('Coupons', ['COUPON-1']);
    expect((await balance('COUPON-1', { amount: 100 })).json).toMatchObject({ code: 400, key: 'invalid_voucher' });
    expect((await balance('NOPE', { amount: 100 })).json).toMatchObject({ code: 404, key: 'not_found', resource_id: 'NOPE' });
    expect((await transactions('NOPE')).status).toBe(404);
    await giftCard('MINE', 100);
    const other = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    expect((await other.call('update-voucher-balance', { params: { code: 'MINE' }, json: { amount: -100 } })).status).toBe(404);
    expect((await other.call('list-voucher-transactions', { params: { code: 'MINE' } })).status).toBe(404);
  });

  it('applies a change once per Idempotency-Key; the same key on another code is refused', async () => {
    const { api, headers, balance, transactions, giftCard } = await setup();
    await giftCard('KEYED', 1000);
    await giftCard('OTHER', 1000);
    const keyed = { ...headers, 'idempotency-key': 'bal-1' };
    const first = await balance('KEYED', { amount: -100 }, keyed);
    const retry = await balance('KEYED', { amount: -100 }, keyed);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers[REPLAYED_HEADER]).toBe('true');
    expect(giftOf((await api.call('get-voucher', { params: { code: 'KEYED' } })).json)).toMatchObject({ balance: 900 });
    expect((await transactions('KEYED')).json.data).toHaveLength(1);
    expect((await balance('OTHER', { amount: -100 }, keyed)).json).toMatchObject({ code: 422, key: 'idempotency_key_reused' });
  });

  it('pages with limit and starting_after_id in either order, reading one page at a time', async () => {
    const { balance, transactions, giftCard, clock } = await setup();
    await giftCard('PAGED', 100);
    for (let i = 1; i <= 5; i += 1) {
      clock.advance(1000);
      expect((await balance('PAGED', { amount: i })).status).toBe(200);
    }
    const first = await transactions('PAGED', 'limit=2&order=id');
    expect((first.json.data as { details: { balance: { amount: number } } }[]).map((t) => t.details.balance.amount)).toEqual([1, 2]);
    expect(first.json.has_more).toBe(true);
    const second = await transactions('PAGED', `limit=2&order=id&starting_after_id=${first.json.more_starting_after}`);
    expect((second.json.data as { details: { balance: { amount: number } } }[]).map((t) => t.details.balance.amount)).toEqual([3, 4]);
    const third = await transactions('PAGED', `limit=2&order=id&starting_after_id=${second.json.more_starting_after}`);
    expect((third.json.data as { details: { balance: { amount: number } } }[]).map((t) => t.details.balance.amount)).toEqual([5]);
    expect(third.json.has_more).toBe(false);
    expect(third.json).not.toHaveProperty('more_starting_after');
    const newest = await transactions('PAGED', 'limit=3');
    expect((newest.json.data as { details: { balance: { amount: number } } }[]).map((t) => t.details.balance.amount)).toEqual([5, 4, 3]);
    expect((await transactions('PAGED', 'starting_after_id=vtx_nope')).json).toMatchObject({ code: 400, key: 'invalid_query_params' });
    expect((await transactions('PAGED', 'limit=0')).status).toBe(400);
  });
});
