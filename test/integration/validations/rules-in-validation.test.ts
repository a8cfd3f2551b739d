import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/*
 * Issue 19 item 2: validation rules in validation and redemption. Each redeemable's rules (its
 * campaign's, then its own) are evaluated from what the validation read; a failing rule makes it
 * INAPPLICABLE with order_rules_violated / customer_rules_violated / redemption_rules_violated and
 * the rule's own error.message; applicable_to restricts the lines an item discount touches; and a
 * per-customer limit holds exactly under concurrency.
 */

const at = Date.UTC(2026, 6, 6, 13, 0, 0);
type Json = Record<string, unknown>;
interface Entry {
  id: string;
  status: string;
  result: { error?: { key: string; error?: { message: string } }; discount?: Json };
  order?: { total_applied_discount_amount?: number; items_applied_discount_amount?: number };
}

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const ok = async (id: string, opts: Parameters<typeof api.call>[1]) => {
    const reply = await api.call(id, opts);
    if (reply.status >= 300) throw new Error(`${id}: ${reply.status} ${JSON.stringify(reply.json)}`);
    return reply.json as Json;
  };
  const voucher = (code: string, json: Json = { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } }) =>
    ok('create-voucher', { params: { code }, json });
  const rule = (json: Json) => ok('create-validation-rules', { json: { name: 'rule', ...json } });
  const assign = async (ruleId: string, json: Json) => ok('create-validation-rule-assignment', { params: { validationRuleId: ruleId }, json });
  /** Creates a voucher carrying a new rule; returns the voucher. */
  const ruledVoucher = async (code: string, ruleBody: Json, voucherBody?: Json) => {
    const v = await voucher(code, voucherBody);
    const r = await rule(ruleBody);
    await assign(r.id as string, { related_object_type: 'voucher', related_object_id: v.id });
    return v;
  };
  const validate = async (json: Json) => {
    const reply = await api.call('validate-stacked-discounts', { json });
    return { status: reply.status, json: reply.json as { valid: boolean; redeemables: Entry[]; order: Json } };
  };
  const redeem = async (json: Json) => {
    const reply = await api.call('redeem-stacked-discounts', { json });
    return { status: reply.status, json: reply.json as Json };
  };
  return { runtime, clock, api, pair, ok, voucher, rule, assign, ruledVoucher, validate, redeem };
}

const cart = (amount: number) => ({ amount, items: [{ product_id: 'prod_shoe', quantity: 1, price: amount }] });
const one = (code: string) => [{ object: 'voucher', id: code }];
const errorOf = (e: Entry | undefined) => ({ status: e?.status, key: e?.result.error?.key, message: e?.result.error?.error?.message });

describe('validation rules in POST /v1/validations', () => {
  it('order rule: INAPPLICABLE with order_rules_violated and the condition’s own message; APPLICABLE once the order meets it', async () => {
    const { ruledVoucher, validate } = await setup();
    await ruledVoucher('BIG50', {
      error: { message: 'Rule text' },
      rules: { 1: { name: 'order.amount', conditions: { $more_than_or_equal: [5000] }, error: { message: 'Spend at least 50' } } },
    });
    const small = await validate({ redeemables: one('BIG50'), order: cart(4999) });
    expect(small.status).toBe(200);
    expect(small.json.valid).toBe(false);
    expect(errorOf(small.json.redeemables[0])).toEqual({ status: 'INAPPLICABLE', key: 'order_rules_violated', message: 'Spend at least 50' });
    const big = await validate({ redeemables: one('BIG50'), order: cart(5000) });
    expect(big.json.valid).toBe(true);
    expect(big.json.redeemables[0]?.status).toBe('APPLICABLE');
  });

  it('customer rule: customer_rules_violated with the rule’s message; the stored customer’s metadata, overridden by the request’s, decides', async () => {
    const { ruledVoucher, validate, ok } = await setup();
    await ruledVoucher('GOLD', {
      error: { message: 'Gold members only' },
      rules: { 1: { name: 'customer.metadata', property: 'tier', conditions: { $is: ['gold'] } } },
    });
    await ok('create-customer', { json: { source_id: 'ann', metadata: { tier: 'silver' } } });
    const silver = await validate({ redeemables: one('GOLD'), order: cart(1000), customer: { source_id: 'ann' } });
    expect(errorOf(silver.json.redeemables[0])).toEqual({ status: 'INAPPLICABLE', key: 'customer_rules_violated', message: 'Gold members only' });
    const none = await validate({ redeemables: one('GOLD'), order: cart(1000) });
    expect(errorOf(none.json.redeemables[0])).toMatchObject({ key: 'customer_rules_violated' });
    const gold = await validate({ redeemables: one('GOLD'), order: cart(1000), customer: { source_id: 'ann', metadata: { tier: 'gold' } } });
    expect(gold.json.redeemables[0]?.status).toBe('APPLICABLE');
  });

  it('a campaign’s rule applies to its vouchers, before the voucher’s own; (1 and 2) or 3 logic is honoured', async () => {
    const { ok, rule, assign, validate } = await setup();
    const campaign = await ok('create-campaign', {
      json: { name: 'Ruled campaign', type: 'AUTO_UPDATE', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } },
    });
    await ok('add-voucher-with-specific-code-to-campaign', { params: { campaignId: campaign.id as string, code: 'CAMP-1' }, json: {} });
    const campaignRule = await rule({
      rules: {
        1: { name: 'order.items.count', conditions: { $more_than_or_equal: [2] } },
        2: { name: 'order.metadata', property: 'channel', conditions: { $is: ['web'] } },
        3: { name: 'order.amount', conditions: { $more_than: [100000] } },
        logic: '(1 and 2) or 3',
      },
      error: { message: 'Two items on the web, or a big order' },
    });
    await assign(campaignRule.id as string, { related_object_type: 'campaign', related_object_id: campaign.id });
    const twoItems = {
      items: [
        { product_id: 'a', quantity: 1, price: 1000 },
        { product_id: 'b', quantity: 1, price: 1000 },
      ],
    };
    const web = await validate({ redeemables: one('CAMP-1'), order: { ...twoItems, metadata: { channel: 'web' } } });
    expect(web.json.redeemables[0]?.status).toBe('APPLICABLE');
    const shop = await validate({ redeemables: one('CAMP-1'), order: { ...twoItems, metadata: { channel: 'shop' } } });
    expect(errorOf(shop.json.redeemables[0])).toEqual({ status: 'INAPPLICABLE', key: 'order_rules_violated', message: 'Two items on the web, or a big order' });
    const big = await validate({ redeemables: one('CAMP-1'), order: cart(200000) });
    expect(big.json.redeemables[0]?.status).toBe('APPLICABLE');
  });

  it('a rule changed, assigned or unassigned is obeyed by the very next validation (the container’s copy is checked against the project’s rules revision)', async () => {
    const { voucher, rule, assign, validate, ok } = await setup();
    const v = await voucher('LIVE');
    const r = await rule({ rules: { 1: { name: 'order.amount', conditions: { $more_than_or_equal: [1000] } } } });
    const assignment = await assign(r.id as string, { related_object_type: 'voucher', related_object_id: v.id });
    const status = async () => (await validate({ redeemables: one('LIVE'), order: cart(1500) })).json.redeemables[0]?.status;
    expect(await status()).toBe('APPLICABLE');
    expect(await status()).toBe('APPLICABLE');
    await ok('update-validation-rule', {
      params: { validationRuleId: r.id as string },
      json: { rules: { 1: { name: 'order.amount', conditions: { $more_than_or_equal: [2000] } } } },
    });
    expect(await status()).toBe('INAPPLICABLE');
    const api = await ok('delete-validation-rule-assignment', { params: { validationRuleId: r.id as string, assignmentId: assignment.id as string } }).catch(
      (e: unknown) => e,
    );
    expect(api).not.toBeInstanceOf(Error);
    expect(await status()).toBe('APPLICABLE');
  });

  it('applicable_to: a PERCENT item discount touches only the included lines, with each effect and limit giving exact figures', async () => {
    const { ruledVoucher, validate } = await setup();
    const percent = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10, effect: 'APPLY_TO_ITEMS' } };
    const order = {
      items: [
        { product_id: 'prod_shoe', quantity: 2, price: 3000 },
        { product_id: 'prod_sock', quantity: 3, price: 500 },
        { product_id: 'prod_hat', quantity: 1, price: 2000 },
      ],
    };
    const cases: [string, Json, number][] = [
      ['EVERY', { included: [{ object: 'product', id: 'prod_shoe' }] }, 600],
      ['QTY', { included: [{ object: 'product', id: 'prod_shoe', quantity_limit: 1 }] }, 300],
      [
        'CHEAPEST',
        {
          included: [
            { object: 'product', id: 'prod_shoe' },
            { object: 'product', id: 'prod_sock', effect: 'APPLY_TO_CHEAPEST' },
          ],
        },
        650,
      ],
      [
        'DEAREST',
        {
          included: [
            { object: 'product', id: 'prod_sock' },
            { object: 'product', id: 'prod_hat', effect: 'APPLY_TO_MOST_EXPENSIVE' },
          ],
        },
        350,
      ],
      ['AMOUNTCAP', { included: [{ object: 'product', id: 'prod_shoe', amount_limit: 250 }] }, 250],
      [
        'AGGCAP',
        {
          included: [
            { object: 'product', id: 'prod_shoe', aggregated_quantity_limit: 1 },
            { object: 'product', id: 'prod_hat' },
          ],
        },
        500,
      ],
      ['EXCLUDED', { excluded: [{ object: 'product', id: 'prod_shoe' }] }, 350],
    ];
    for (const [code, applicableTo] of cases) {
      await ruledVoucher(code, { rules: {}, applicable_to: { included: [], excluded: [], ...applicableTo } }, percent);
    }
    for (const [code, , expected] of cases) {
      const reply = await validate({ redeemables: one(code), order });
      expect([code, reply.json.redeemables[0]?.status, reply.json.redeemables[0]?.order?.total_applied_discount_amount]).toEqual([
        code,
        'APPLICABLE',
        expected,
      ]);
    }
    // An item discount whose rules leave it no line of the order has nothing to act on.
    const none = await validate({ redeemables: one('EVERY'), order: { items: [{ product_id: 'prod_hat', quantity: 1, price: 2000 }] } });
    expect(errorOf(none.json.redeemables[0])).toMatchObject({ status: 'INAPPLICABLE', key: 'order_rules_violated' });
  });
});

describe('validation rules in POST /v1/redemptions', () => {
  it('redemption rule: once per customer, refused the second time with redemption_rules_violated and the message; a rollback frees it', async () => {
    const { ruledVoucher, redeem, api } = await setup();
    await ruledVoucher('ONCE', {
      rules: { 1: { name: 'redemption.count.per_customer', conditions: { $less_than_or_equal: [1] }, error: { message: 'One per customer' } } },
    });
    const first = await redeem({ redeemables: one('ONCE'), order: cart(1000), customer: { source_id: 'bob' } });
    expect(first.status).toBe(200);
    const second = await redeem({ redeemables: one('ONCE'), order: cart(1000), customer: { source_id: 'bob' } });
    expect(second.status).toBe(400);
    expect(second.json).toMatchObject({ key: 'redemption_rules_violated', resource_id: 'ONCE', error: { message: 'One per customer' } });
    const other = await redeem({ redeemables: one('ONCE'), order: cart(1000), customer: { source_id: 'carol' } });
    expect(other.status).toBe(200);
    const parent = (first.json.parent_redemption as Json).id as string;
    const rolled = await api.call('rollback-stacked-redemptions', { params: { redemptionId: parent }, json: {} });
    expect(rolled.status).toBe(200);
    const again = await redeem({ redeemables: one('ONCE'), order: cart(1000), customer: { source_id: 'bob' } });
    expect(again.status).toBe(200);
  });

  it('per-campaign count: redemption.count.per_campaign counts the customer’s redemptions of every code of the campaign', async () => {
    const { ok, rule, assign, redeem } = await setup();
    const campaign = await ok('create-campaign', {
      json: { name: 'Two per customer', type: 'AUTO_UPDATE', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } },
    });
    for (const code of ['PC-1', 'PC-2', 'PC-3']) {
      await ok('add-voucher-with-specific-code-to-campaign', { params: { campaignId: campaign.id as string, code }, json: {} });
    }
    const r = await rule({ rules: { 1: { name: 'redemption.count.per_campaign', conditions: { $less_than_or_equal: [2] } } } });
    await assign(r.id as string, { related_object_type: 'campaign', related_object_id: campaign.id });
    const statuses = [];
    for (const code of ['PC-1', 'PC-2', 'PC-3'])
      statuses.push((await redeem({ redeemables: one(code), order: cart(1000), customer: { source_id: 'dan' } })).status);
    expect(statuses).toEqual([200, 200, 400]);
  });

  it('campaign.redemptions.count: the campaign’s redemptions by anyone, counted on shards', async () => {
    const { ok, rule, assign, redeem } = await setup();
    const campaign = await ok('create-campaign', {
      json: { name: 'First three', type: 'AUTO_UPDATE', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } },
    });
    await ok('add-voucher-with-specific-code-to-campaign', { params: { campaignId: campaign.id as string, code: 'FIRST3' }, json: {} });
    const r = await rule({ rules: { 1: { name: 'campaign.redemptions.count', conditions: { $less_than_or_equal: [3] } } } });
    await assign(r.id as string, { related_object_type: 'campaign', related_object_id: campaign.id });
    const statuses = [];
    for (const who of ['a', 'b', 'c', 'd'])
      statuses.push((await redeem({ redeemables: one('FIRST3'), order: cart(1000), customer: { source_id: who } })).status);
    expect(statuses).toEqual([200, 200, 200, 400]);
  });

  it('a per-customer limit holds under concurrency: 20 parallel redemptions by one customer of a limitless code → exactly 1', async () => {
    const { ruledVoucher, redeem, ok } = await setup();
    await ruledVoucher('RACE', { rules: { 1: { name: 'redemption.count.per_customer', conditions: { $less_than_or_equal: [1] } } } });
    await ok('create-customer', { json: { source_id: 'eve' } });
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        redeem({ redeemables: one('RACE'), order: { ...cart(1000), source_id: `race-${i}` }, customer: { source_id: 'eve' } }),
      ),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status !== 200).map((r) => r.json.key)).toEqual(Array(19).fill('redemption_rules_violated'));
    const summary = await ok('get-customer', { params: { customerId: 'eve' } });
    expect(summary).toMatchObject({ summary: { redemptions: { total_redeemed: 1 } } });
  });
});
