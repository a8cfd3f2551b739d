import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/** Issue 41 item 8: zero-value redemptions, fractional amounts, and replays byte for byte. */
async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const api = apiClient({ runtime }, headers);
  const voucher = async (code: string, json: Record<string, unknown>) => {
    const reply = await api.call('create-voucher', { params: { code }, json });
    expect(reply.status).toBe(200);
  };
  /** POST /v1/redemptions with a raw JSON text (so that -0 reaches the parser as sent). */
  const redeemText = (body: string, extra: Record<string, string> = {}) =>
    api.call('redeem-stacked-discounts', { body, headers: { ...headers, 'content-type': 'application/json', ...extra } });
  const used = async (code: string) => {
    const v = (await api.call('get-voucher', { params: { code } })).json as { redemption: { redeemed_quantity: number }; gift: { balance: number } | null };
    return { redeemed: v.redemption.redeemed_quantity, balance: v.gift?.balance ?? null };
  };
  return { api, headers, voucher, redeemText, used };
}

describe('zero-value redemptions (issue 41 item 8)', () => {
  it('refuses an order amounting to 0 or -0, and gift credits of 0 or -0, with 400 invalid_amount on every redemption route, writing nothing', async () => {
    const { api, headers, voucher, redeemText, used } = await setup();
    await voucher('TEN', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 1000 } });
    await voucher('GIFT', { type: 'GIFT_VOUCHER', gift: { amount: 5000 } });
    const refusals = [
      await redeemText('{"redeemables":[{"object":"voucher","id":"TEN"}],"order":{"amount":0}}'),
      await redeemText('{"redeemables":[{"object":"voucher","id":"TEN"}],"order":{"amount":-0}}'),
      await redeemText('{"redeemables":[{"object":"voucher","id":"TEN"}],"order":{"items":[{"product_id":"p","quantity":2,"price":0}]}}'),
      await redeemText('{"redeemables":[{"object":"voucher","id":"GIFT","gift":{"credits":-0}}],"order":{"amount":1000}}'),
      await redeemText('{"redeemables":[{"object":"voucher","id":"GIFT","gift":{"credits":0}}],"order":{"amount":1000}}'),
      await api.call('redeem-voucher', {
        params: { code: 'GIFT' },
        body: '{"gift":{"credits":-0},"order":{"amount":1000}}',
        headers: { ...headers, 'content-type': 'application/json' },
      }),
      await api.call('redeem-voucher', {
        params: { code: 'TEN' },
        body: '{"order":{"amount":-0}}',
        headers: { ...headers, 'content-type': 'application/json' },
      }),
    ];
    for (const r of refusals) expect([r.status, r.json.key]).toEqual([400, 'invalid_amount']);
    expect(await used('TEN')).toEqual({ redeemed: 0, balance: null });
    expect(await used('GIFT')).toEqual({ redeemed: 0, balance: 5000 });
    expect((await api.call('list-redemptions')).json.redemptions).toHaveLength(0);
    // What states no amount, or a positive one, is redeemed as before.
    expect((await api.call('redeem-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: 'TEN' }] } })).status).toBe(200);
    expect(
      (await api.call('redeem-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: 'GIFT', gift: { credits: 1 } }], order: { amount: 1 } } }))
        .status,
    ).toBe(200);
  });
});

describe('amounts in minor units are whole numbers (issue 41 item 8)', () => {
  it('refuses amount_off, fixed_amount and amount_limit with a fraction, on vouchers and campaigns', async () => {
    const { api } = await setup();
    const bodies = [
      { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 10.5 } },
      { type: 'DISCOUNT_VOUCHER', discount: { type: 'FIXED', fixed_amount: 99.9 } },
      { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10, amount_limit: 0.5 } },
    ];
    for (const [i, json] of bodies.entries()) {
      const reply = await api.call('create-voucher', { params: { code: `FRACTION-${i}` }, json });
      expect([reply.status, reply.json.key]).toEqual([400, 'invalid_payload']);
    }
    const campaign = await api.call('create-campaign', {
      json: { name: 'Fractions', campaign_type: 'DISCOUNT_COUPONS', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 10.5 } } },
    });
    expect([campaign.status, campaign.json.key]).toEqual([400, 'invalid_payload']);
    expect(
      (await api.call('create-voucher', { params: { code: 'WHOLE' }, json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 1050 } } }))
        .status,
    ).toBe(200);
  });
});

describe('Idempotency-Key replays (issue 41 item 8)', () => {
  it('replays a transactional reply byte for byte, keys in the order first sent', async () => {
    const { voucher, redeemText } = await setup();
    await voucher('ONCE', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 1 } });
    // Keys a DynamoDB map would not give back in this order.
    const body = JSON.stringify({
      redeemables: [{ object: 'voucher', id: 'ONCE' }],
      order: { amount: 1000, metadata: { zulu: 1, alpha: { yankee: true, bravo: [1, { x: 1, a: 2 }] }, mike: 'm' } },
      metadata: { zeta: 'z', beta: 'b', kappa: { omega: 1, alpha: 2 } },
    });
    const first = await redeemText(body, { 'Idempotency-Key': 'order-key-1' });
    expect(first.status).toBe(200);
    const again = await redeemText(body, { 'Idempotency-Key': 'order-key-1' });
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(again.text).toBe(first.text);
  });
});
