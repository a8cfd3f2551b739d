import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;
type Reply = { status: number; json: Json & { id?: string; key?: string; order?: Json; voucher?: Json }; headers: Record<string, string> };

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const api = apiClient({ runtime }, headers);
  const voucher = async (code: string, json: Json = { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } }) => {
    const reply = await api.call('create-voucher', { params: { code }, json });
    if (reply.status !== 200) throw new Error(`voucher ${code}: ${JSON.stringify(reply.json)}`);
    return reply.json as Json;
  };
  const withKey = (key?: string) => (key ? { headers: { ...headers, 'idempotency-key': key } } : {});
  const redeemVoucher = async (code: string, json: Json, key?: string, query?: string) =>
    (await api.call('redeem-voucher', { params: { code }, json, ...(query ? { query } : {}), ...withKey(key) })) as unknown as Reply;
  const redeemPromotion = async (promotionTierId: string, json: Json, key?: string) =>
    (await api.call('redeem-promotion', { params: { promotionTierId }, json, ...withKey(key) })) as unknown as Reply;
  const redeemed = async (code: string) => {
    const reply = await api.call('get-voucher', { params: { code } });
    return reply.json as { redemption: { redeemed_quantity: number }; gift?: { balance: number } };
  };
  const promotion = async (tiers: Json[]) => {
    const reply = (await api.call('create-campaign', {
      json: { name: `Promo ${Math.random()}`, campaign_type: 'PROMOTION', promotion: { tiers } },
    })) as unknown as { status: number; json: { id: string; promotion: { tiers: { id: string }[] } } };
    if (reply.status !== 200) throw new Error(`promotion: ${JSON.stringify(reply.json)}`);
    return { campaignId: reply.json.id, tierIds: reply.json.promotion.tiers.map((t) => t.id) };
  };
  return { runtime, api, voucher, redeemVoucher, redeemPromotion, redeemed, promotion };
}

const cart = {
  items: [
    { product_id: 'prod_shoe', quantity: 2, price: 1500 },
    { product_id: 'prod_sock', quantity: 1, price: 1000 },
  ],
};

describe('POST /v1/vouchers/{code}/redemption (redeem-voucher)', () => {
  it('redeems the code with the validation figures, counts the use, and answers one redemption with the voucher and the order', async () => {
    const { api, voucher, redeemVoucher, redeemed } = await setup();
    await voucher('PCT10', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, redemption: { quantity: 5 } });
    const validation = await api.call('validate-voucher', { params: { code: 'PCT10' }, json: { order: cart, customer: { source_id: 'old-shopper' } } });
    const reply = await redeemVoucher('PCT10', { order: { ...cart, source_id: 'old-order-1' }, customer: { source_id: 'old-shopper' }, metadata: { till: 3 } });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      object: 'redemption',
      result: 'SUCCESS',
      status: 'SUCCEEDED',
      related_object_type: 'voucher',
      metadata: { till: 3 },
      voucher: { code: 'PCT10' },
      customer: { source_id: 'old-shopper', object: 'customer' },
    });
    expect(reply.json.id).toMatch(/^r_/);
    expect(reply.json.tracking_id).toBe((validation.json as Json).tracking_id);
    expect(reply.json.order).toMatchObject({
      source_id: 'old-order-1',
      amount: 4000,
      total_discount_amount: 400,
      total_amount: 3600,
      applied_discount_amount: 400,
    });
    for (const field of ['amount', 'total_discount_amount', 'total_amount']) {
      expect(reply.json.order?.[field]).toBe(((validation.json as Json).order as Json)[field]);
    }
    expect((await redeemed('PCT10')).redemption.redeemed_quantity).toBe(1);
    // The redemption is the store's: it reads back and rolls back like any other.
    expect((await api.call('get-redemption', { params: { redemptionId: reply.json.id ?? '' } })).json).toMatchObject({ id: reply.json.id, result: 'SUCCESS' });
    expect((await api.call('rollback-redemption', { params: { redemptionId: reply.json.id ?? '' }, json: {} })).status).toBe(200);
    expect((await redeemed('PCT10')).redemption.redeemed_quantity).toBe(0);
  });

  it('takes the tracking id from the query and the gift credits from the body, never above the balance', async () => {
    const { voucher, redeemVoucher, redeemed } = await setup();
    await voucher('CARD', { type: 'GIFT_VOUCHER', gift: { amount: 1000 } });
    const reply = await redeemVoucher('CARD', { order: { amount: 5000 }, gift: { credits: 300 } }, undefined, 'tracking_id=track-me');
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ tracking_id: 'track-me', gift: { amount: 300 } });
    expect(reply.json.order).toMatchObject({ amount: 5000, total_amount: 4700 });
    expect((await redeemed('CARD')).gift?.balance).toBe(700);
    const tooMuch = await redeemVoucher('CARD', { order: { amount: 5000 }, gift: { credits: 701 } });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json).toMatchObject({ code: 400, key: 'gift_amount_exceeded', details: 'CARD' });
    expect((await redeemed('CARD')).gift?.balance).toBe(700);
  });

  it.each([
    ['voucher_disabled', { active: false }],
    ['voucher_not_active', { start_date: '2099-01-01T00:00:00Z' }],
    ['voucher_expired', { expiration_date: '2020-01-01T00:00:00Z' }],
    ['missing_order_items', { discount: { type: 'AMOUNT', amount_off: 100, effect: 'APPLY_TO_ITEMS' } }],
  ])('refuses with 400 %s and writes nothing', async (key, fields) => {
    const { voucher, redeemVoucher, redeemed } = await setup();
    await voucher('BAD', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, ...fields });
    const reply = await redeemVoucher('BAD', { order: { amount: 1000 } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 400, key, details: 'BAD' });
    expect((await redeemed('BAD')).redemption.redeemed_quantity).toBe(0);
  });

  it('answers 404 for an unknown code (case-sensitive)', async () => {
    const { voucher, redeemVoucher } = await setup();
    await voucher('MiXeD');
    const reply = await redeemVoucher('mixed', { order: { amount: 1000 } });
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ code: 404, key: 'resource_not_found' });
  });

  it('gives the last uses to exactly as many of 12 parallel requests, the others quantity_exceeded', async () => {
    const { voucher, redeemVoucher, redeemed } = await setup();
    await voucher('THREE', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 3 } });
    const replies = await Promise.all(Array.from({ length: 12 }, () => redeemVoucher('THREE', { order: { amount: 1000 } })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(3);
    expect(replies.filter((r) => r.status === 400).map((r) => r.json.key)).toEqual(Array(9).fill('quantity_exceeded'));
    expect((await redeemed('THREE')).redemption.redeemed_quantity).toBe(3);
  });

  it('replays the first reply to a retry with the same Idempotency-Key, and refuses the key with another code', async () => {
    const { voucher, redeemVoucher, redeemed } = await setup();
    await voucher('ONCE', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 1 } });
    await voucher('OTHER');
    const first = await redeemVoucher('ONCE', { order: { amount: 1000 } }, 'pay-old-1');
    expect(first.status).toBe(200);
    const again = await redeemVoucher('ONCE', { order: { amount: 1000 } }, 'pay-old-1');
    expect(again.status).toBe(200);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.json).toEqual(first.json);
    expect((await redeemed('ONCE')).redemption.redeemed_quantity).toBe(1);
    const otherCode = await redeemVoucher('OTHER', { order: { amount: 1000 } }, 'pay-old-1');
    expect(otherCode.status).toBe(422);
    expect(otherCode.json.key).toBe('idempotency_key_reused');
    expect((await redeemed('OTHER')).redemption.redeemed_quantity).toBe(0);
  });

  it('consumes the hold of a LOCK session made by the old validation; without the session the held use is quantity_exceeded', async () => {
    const { api, voucher, redeemVoucher, redeemed } = await setup();
    await voucher('HELD', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 1 } });
    const held = await api.call('validate-voucher', { params: { code: 'HELD' }, json: { order: { amount: 1000 }, session: { type: 'LOCK', key: 'till-7' } } });
    expect((held.json as Json).valid).toBe(true);
    const without = await redeemVoucher('HELD', { order: { amount: 1000 } });
    expect(without.status).toBe(400);
    expect(without.json.key).toBe('quantity_exceeded');
    const withSession = await redeemVoucher('HELD', { order: { amount: 1000 }, session: { type: 'LOCK', key: 'till-7' } });
    expect(withSession.status).toBe(200);
    expect((await redeemed('HELD')).redemption.redeemed_quantity).toBe(1);
  });
});

describe('POST /v1/promotions/tiers/{promotionTierId}/redemption (redeem-promotion)', () => {
  it('redeems the tier with its figures and answers one redemption naming the tier', async () => {
    const { promotion, redeemPromotion } = await setup();
    const { campaignId, tierIds } = await promotion([{ name: 'Forty', action: { discount: { type: 'PERCENT', percent_off: 40 } } }]);
    const tierId = tierIds[0] ?? '';
    const reply = await redeemPromotion(tierId, { order: cart, customer: { source_id: 'promo-shopper' } });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      object: 'redemption',
      result: 'SUCCESS',
      related_object_type: 'promotion_tier',
      related_object_id: tierId,
      promotion_tier: { id: tierId, campaign: { id: campaignId }, object: 'promotion_tier' },
    });
    expect(reply.json.order).toMatchObject({ amount: 4000, total_discount_amount: 1600, total_amount: 2400 });
  });

  it('refuses a disabled tier with 400 promotion_inactive and an unknown tier with 404', async () => {
    const { promotion, redeemPromotion } = await setup();
    const { tierIds } = await promotion([{ name: 'Off', active: false, action: { discount: { type: 'AMOUNT', amount_off: 100 } } }]);
    const off = await redeemPromotion(tierIds[0] ?? '', { order: { amount: 1000 } });
    expect(off.status).toBe(400);
    expect(off.json).toMatchObject({ code: 400, key: 'promotion_inactive', message: 'Inactive Promotion' });
    const unknown = await redeemPromotion('promo_none', { order: { amount: 1000 } });
    expect(unknown.status).toBe(404);
  });
});
