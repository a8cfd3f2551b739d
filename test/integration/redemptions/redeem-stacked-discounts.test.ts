import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../lib/db/client.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { type FaultProxy, startFaultProxy } from '../../support/fault-proxy.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const api = apiClient({ runtime }, headers);
  const voucher = async (code: string, json: Json = { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } }) => {
    const reply = await api.call('create-voucher', { params: { code }, json });
    if (reply.status !== 200) throw new Error(`voucher ${code}: ${JSON.stringify(reply.json)}`);
    return reply.json;
  };
  const redeem = (json: Json, key?: string) =>
    api.call('redeem-stacked-discounts', { json, ...(key ? { headers: { ...headers, 'idempotency-key': key } } : {}) });
  const redeemed = async (code: string) => {
    const reply = await api.call('get-voucher', { params: { code } });
    return reply.json as { redemption: { redeemed_quantity: number }; gift?: { balance: number } };
  };
  return { runtime, pair, headers, api, voucher, redeem, redeemed };
}

const cart = {
  items: [
    { product_id: 'prod_shoe', quantity: 2, price: 1500 },
    { product_id: 'prod_sock', quantity: 1, price: 1000 },
  ],
};
const vouchers = (...codes: string[]) => codes.map((id) => ({ object: 'voucher', id }));

describe('POST /v1/redemptions (redeem-stacked-discounts)', () => {
  it('redeems two codes with the validation figures, stores the order and the customer, and counts each use', async () => {
    const { api, voucher, redeem, redeemed } = await setup();
    await voucher('AMOUNT500', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 }, redemption: { quantity: 3 } });
    await voucher('PERCENT10', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } });
    const request = {
      redeemables: vouchers('AMOUNT500', 'PERCENT10'),
      order: { ...cart, source_id: 'order-1' },
      customer: { source_id: 'shopper-1', name: 'Ann' },
    };
    const validation = await api.call('validate-stacked-discounts', { json: request });
    const reply = await redeem(request);
    expect(reply.status).toBe(200);
    const json = reply.json as {
      redemptions: Json[];
      parent_redemption: Json & { id: string };
      order: Json & { id: string };
      inapplicable_redeemables?: unknown[];
      skipped_redeemables?: unknown[];
    };
    // The same engine: the redemption's figures are the validation's.
    const { id: _validatedId, ...validatedFigures } = validation.json.order as Json;
    expect(json.order).toMatchObject({
      amount: 4000,
      discount_amount: 850,
      total_discount_amount: 850,
      total_amount: 3150,
      total_applied_discount_amount: 850,
      source_id: 'order-1',
      status: 'CREATED',
    });
    for (const field of ['amount', 'discount_amount', 'total_discount_amount', 'total_amount', 'applied_discount_amount']) {
      expect(json.order[field]).toBe(validatedFigures[field]);
    }
    expect(json.redemptions.map((r) => [r.result, r.status])).toEqual([
      ['SUCCESS', 'SUCCEEDED'],
      ['SUCCESS', 'SUCCEEDED'],
    ]);
    expect(json.parent_redemption).toMatchObject({ object: 'redemption', result: 'SUCCESS' });
    // Nothing inapplicable or skipped: both lists are left out, as the reference's examples leave them out.
    expect(json).not.toHaveProperty('inapplicable_redeemables');
    expect(json).not.toHaveProperty('skipped_redeemables');
    expect((await redeemed('AMOUNT500')).redemption.redeemed_quantity).toBe(1);
    expect((await redeemed('PERCENT10')).redemption.redeemed_quantity).toBe(1);

    // The order is stored with its figures, and the customer was upserted by source_id.
    const order = await api.call('get-order', { params: { orderId: json.order.id } });
    expect(order.status).toBe(200);
    expect(order.json).toMatchObject({ source_id: 'order-1', amount: 4000, total_amount: 3150 });
    const customer = await api.call('get-customer', { params: { customerId: 'shopper-1' } });
    expect(customer.status).toBe(200);
    expect(customer.json).toMatchObject({
      source_id: 'shopper-1',
      name: 'Ann',
      summary: { redemptions: { total_redeemed: 2, total_succeeded: 2, total_rolled_back: 0 } },
    });
    const child = await api.call('get-redemption', { params: { redemptionId: String(json.redemptions[0]?.id) } });
    expect(child.status).toBe(200);
    expect(child.json).toMatchObject({ customer_id: customer.json.id, redemption: json.parent_redemption.id });

    // Rolled back: every use is given back.
    const rollback = await api.call('rollback-stacked-redemptions', { params: { redemptionId: json.parent_redemption.id } });
    expect(rollback.status).toBe(200);
    expect((await redeemed('AMOUNT500')).redemption.redeemed_quantity).toBe(0);
    expect((await redeemed('PERCENT10')).redemption.redeemed_quantity).toBe(0);
    const after = await api.call('get-customer', { params: { customerId: 'shopper-1' } });
    expect(after.json.summary).toMatchObject({
      redemptions: { total_redeemed: 2, total_succeeded: 2, total_rolled_back: 2, total_rollback_succeeded: 2 },
    });
  });

  it('redeems for a customer known only by email: a new customer without source_id each time, never merged into another', async () => {
    const { api, voucher, redeem } = await setup();
    await voucher('GUEST', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 }, redemption: { quantity: 5 } });
    const request = { redeemables: vouchers('GUEST'), order: cart, customer: { email: 'guest@example.com' } };
    const first = await redeem(request);
    expect(first.status).toBe(200);
    const [redemption] = (first.json as { redemptions: { customer: { id: string; source_id: string | null } }[] }).redemptions;
    expect(redemption?.customer).toMatchObject({ id: expect.stringMatching(/^cust_/), source_id: null });
    const customerId = redemption?.customer.id as string;
    const stored = await api.call('get-customer', { params: { customerId } });
    expect(stored.json).toMatchObject({ id: customerId, email: 'guest@example.com', summary: { redemptions: { total_redeemed: 1 } } });
    expect(stored.json).not.toHaveProperty('source_id');

    const second = await redeem(request);
    expect(second.status).toBe(200);
    const [again] = (second.json as { redemptions: { customer: { id: string } }[] }).redemptions;
    expect(again?.customer.id).not.toBe(customerId);
    expect((await api.call('get-customer', { params: { customerId } })).json).toMatchObject({ summary: { redemptions: { total_redeemed: 1 } } });
    expect((await api.call('list-redemptions', { query: `customer=${customerId}` })).json).toMatchObject({ total: 2 });
  });

  it('refuses the whole request in ALL mode with the first inapplicable redeemable’s error, and writes nothing', async () => {
    const { api, voucher, redeem, redeemed } = await setup();
    await voucher('GOOD', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 5 } });
    await voucher('OFF', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, active: false });
    await voucher('OLD', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, expiration_date: '2020-01-01T00:00:00Z' });
    const disabled = await redeem({ redeemables: vouchers('GOOD', 'OFF'), order: { ...cart, source_id: 'never' } });
    expect(disabled.status).toBe(400);
    expect(disabled.json).toMatchObject({ code: 400, key: 'voucher_disabled', resource_id: 'OFF', resource_type: 'voucher' });
    expect(typeof disabled.json.request_id).toBe('string');
    const expired = await redeem({ redeemables: vouchers('OLD'), order: cart });
    expect(expired.json).toMatchObject({ code: 400, key: 'voucher_expired' });
    const unknown = await redeem({ redeemables: vouchers('NOPE'), order: cart });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'resource_not_found', resource_id: 'NOPE' });
    expect((await redeemed('GOOD')).redemption.redeemed_quantity).toBe(0);
    const orders = await api.call('list-orders');
    expect(orders.json.orders).toEqual([]);
    const list = await api.call('list-redemptions');
    expect(list.json.redemptions).toEqual([]);
  });

  it('redeems what applies in PARTIAL mode and lists the rest as inapplicable', async () => {
    const { api, voucher, redeem, redeemed } = await setup();
    await voucher('GOOD', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } });
    await voucher('OFF', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, active: false });
    const rules = await api.call('update-project-stacking-rules', { json: { redeemables_application_mode: 'PARTIAL' } });
    expect(rules.status).toBe(200);
    const reply = await redeem({ redeemables: vouchers('OFF', 'GOOD'), order: cart });
    expect(reply.status).toBe(200);
    expect((reply.json.redemptions as unknown[]).length).toBe(1);
    expect(reply.json.inapplicable_redeemables).toMatchObject([{ id: 'OFF', status: 'INAPPLICABLE', result: { error: { key: 'voucher_disabled' } } }]);
    expect(reply.json.order).toMatchObject({ amount: 4000, total_amount: 3900 });
    expect((await redeemed('GOOD')).redemption.redeemed_quantity).toBe(1);
    // None applicable: refused even in PARTIAL mode.
    const none = await redeem({ redeemables: vouchers('OFF'), order: cart });
    expect(none.status).toBe(400);
    expect(none.json.key).toBe('voucher_disabled');
  });

  it('lets exactly 10 of 50 parallel redemptions of a 10-use code through; the others get quantity_exceeded', async () => {
    const { voucher, redeem, redeemed } = await setup();
    await voucher('TEN', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 10 } });
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => redeem({ redeemables: vouchers('TEN'), order: { amount: 1000 }, customer: { source_id: `c${i % 5}` } })),
    );
    const ok = replies.filter((r) => r.status === 200);
    expect(ok).toHaveLength(10);
    const refused = replies.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect([r.status, r.json.key]).toEqual([400, 'quantity_exceeded']);
    expect((await redeemed('TEN')).redemption.redeemed_quantity).toBe(10);
  });

  it('lets exactly 10 of 20 parallel 100-credit redemptions through a 1,000 gift card, down to 0 and never below', async () => {
    const { api, voucher, redeem, redeemed } = await setup();
    await voucher('GIFT', { type: 'GIFT_VOUCHER', gift: { amount: 1000 } });
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        redeem({ redeemables: [{ object: 'voucher', id: 'GIFT', gift: { credits: 100 } }], order: { amount: 5000 }, customer: { source_id: 'gifted' } }),
      ),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(10);
    for (const r of replies.filter((x) => x.status !== 200)) expect([r.status, r.json.key]).toEqual([400, 'gift_amount_exceeded']);
    expect((await redeemed('GIFT')).gift?.balance).toBe(0);
    // The customer's counters are written in each winner's transaction: exactly the winners count.
    const customer = await api.call('get-customer', { params: { customerId: 'gifted' } });
    expect(customer.json.summary).toMatchObject({ redemptions: { total_redeemed: 10, total_succeeded: 10, gift: { redeemed_amount: 1000 } } });
  });

  it('replays the first reply to a retry with the same Idempotency-Key, even once the code is used up', async () => {
    const { voucher, redeem, redeemed, api } = await setup();
    await voucher('ONCE', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 1 } });
    const request = { redeemables: vouchers('ONCE'), order: { amount: 1000 } };
    const first = await redeem(request, 'checkout-1');
    expect(first.status).toBe(200);
    const again = await redeem(request, 'checkout-1');
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect((await redeemed('ONCE')).redemption.redeemed_quantity).toBe(1);
    // Another key is another redemption: none is left.
    const other = await redeem(request, 'checkout-2');
    expect([other.status, other.json.key]).toEqual([400, 'quantity_exceeded']);
    // The same key with another body is refused.
    const reused = await redeem({ ...request, metadata: { changed: true } }, 'checkout-1');
    expect([reused.status, reused.json.key]).toEqual([422, 'idempotency_key_reused']);
    expect((await api.call('list-redemptions')).json.redemptions).toHaveLength(2);
  });

  it('keeps the last use held by a LOCK session from other redemptions until the session redeems it', async () => {
    const { api, voucher, redeem, redeemed } = await setup();
    await voucher('LAST', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 1 } });
    const held = await api.call('validate-stacked-discounts', {
      json: { redeemables: vouchers('LAST'), order: { amount: 1000 }, session: { type: 'LOCK', key: 'checkout-a' } },
    });
    expect(held.json.valid).toBe(true);
    const stranger = await redeem({ redeemables: vouchers('LAST'), order: { amount: 1000 } });
    expect([stranger.status, stranger.json.key]).toEqual([400, 'quantity_exceeded']);
    const owner = await redeem({ redeemables: vouchers('LAST'), order: { amount: 1000 }, session: { type: 'LOCK', key: 'checkout-a' } });
    expect(owner.status).toBe(200);
    expect((await redeemed('LAST')).redemption.redeemed_quantity).toBe(1);
    // The hold was consumed with the use: releasing it now finds nothing.
    const release = await api.call('release-validation-session', { params: { code: 'LAST', sessionKey: 'checkout-a' } });
    expect(release.status).toBe(404);
  });
});

describe('POST /v1/redemptions under DynamoDB faults', () => {
  const proxies: FaultProxy[] = [];
  afterEach(async () => {
    for (const proxy of proxies.splice(0)) await proxy.close();
  });
  const via = async (runtime: Runtime, rule: Parameters<typeof startFaultProxy>[1]): Promise<Runtime> => {
    const proxy = await startFaultProxy(engines().dynamoEndpoint, rule);
    proxies.push(proxy);
    return { ...runtime, ddb: createDocumentClient({ region: engines().region, endpoint: proxy.url }) };
  };

  it('moves no counter and writes no order when the transaction fails; the retry with its key redeems once', async () => {
    const { runtime, headers, voucher, redeemed, api } = await setup();
    await voucher('FAULTY', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 5 } });
    const request = {
      json: { redeemables: vouchers('FAULTY'), order: { amount: 1000, source_id: 'faulty-order' } },
      headers: { ...headers, 'idempotency-key': 'pay-1' },
    };
    const failing = apiClient({ runtime: await via(runtime, (operation) => (operation === 'TransactWriteItems' ? 'server-error' : 'pass')) }, headers);
    const failed = await failing.call('redeem-stacked-discounts', request);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect((await redeemed('FAULTY')).redemption.redeemed_quantity).toBe(0);
    expect((await api.call('list-orders')).json.orders).toEqual([]);
    // Committed, but the reply is lost on the way back: the retry gets the first reply, and one use is taken.
    const lossy = apiClient({ runtime: await via(runtime, (operation) => (operation === 'TransactWriteItems' ? 'lost-reply' : 'pass')) }, headers);
    const lost = await lossy.call('redeem-stacked-discounts', request);
    expect(lost.status).toBeGreaterThanOrEqual(500);
    const retried = await api.call('redeem-stacked-discounts', request);
    expect(retried.status).toBe(200);
    expect(retried.headers['Idempotent-Replayed']).toBe('true');
    expect((await redeemed('FAULTY')).redemption.redeemed_quantity).toBe(1);
    expect((await api.call('list-redemptions')).json.redemptions).toHaveLength(2);
  });
});
