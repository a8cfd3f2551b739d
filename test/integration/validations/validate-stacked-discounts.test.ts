import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import * as entities from '../../../lib/db/entities.js';
import { DEFAULT_STACKING_RULES, type StackingRules } from '../../../lib/validations/stacking-rules.js';
import type { stackedValidationReplySchema } from '../../../lib/validations/validation.reply.js';
import type * as z from '../../../lib/zod.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/** Monday 2026-07-06 13:00 UTC. */
const monday = Date.UTC(2026, 6, 6, 13, 0, 0);

type Json = Record<string, unknown>;
type Reply = z.output<typeof stackedValidationReplySchema>;
type Entry = Reply['redeemables'][number];
const applicable = (e: Entry | undefined) => {
  if (e?.status !== 'APPLICABLE') throw new Error(`not APPLICABLE: ${JSON.stringify(e)}`);
  return e;
};
const inapplicable = (e: Entry | undefined) => {
  if (e?.status !== 'INAPPLICABLE') throw new Error(`not INAPPLICABLE: ${JSON.stringify(e)}`);
  return e;
};

async function setup(at = monday) {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const projectId = pair.project_id;
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const voucher = async (code: string, json: Json = { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } }) => {
    const reply = await api.call('create-voucher', { params: { code }, json });
    if (reply.status !== 200) throw new Error(`voucher ${code}: ${JSON.stringify(reply.json)}`);
    return reply.json as Json;
  };
  const validate = async (json: Json) => (await api.call('validate-stacked-discounts', { json })) as unknown as { status: number; json: Reply & Json };
  const setRules = (rules: Partial<StackingRules>) =>
    runtime.ddb.send(
      new PutCommand({
        TableName: runtime.tableName,
        Item: entities.stackingRules.toItem({ ...DEFAULT_STACKING_RULES, ...rules, updatedAt: new Date(at).toISOString() }, projectId),
      }),
    );
  return { runtime, clock, api, projectId, voucher, validate, setRules };
}

const cart = {
  items: [
    { product_id: 'prod_shoe', quantity: 2, price: 1500 },
    { product_id: 'prod_sock', quantity: 1, price: 1000 },
  ],
};
const vouchers = (...codes: string[]) => codes.map((id) => ({ object: 'voucher', id }));
const statuses = (json: Reply) =>
  json.redeemables.map((r) => [r.id, r.status, r.status === 'INAPPLICABLE' ? r.result.error.key : r.status === 'SKIPPED' ? r.result.details.key : null]);

describe('POST /v1/validations (validate-stacked-discounts)', () => {
  it('applies two codes one after another on the running total, with each step and the final figures exact', async () => {
    const { voucher, validate } = await setup();
    await voucher('AMOUNT500');
    await voucher('PERCENT10', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } });
    const reply = await validate({ redeemables: vouchers('AMOUNT500', 'PERCENT10'), order: cart, customer: { source_id: 'shopper-1' } });
    expect(reply.status).toBe(200);
    expect(reply.json.valid).toBe(true);
    expect(statuses(reply.json)).toEqual([
      ['AMOUNT500', 'APPLICABLE', null],
      ['PERCENT10', 'APPLICABLE', null],
    ]);
    expect(reply.json.order).toMatchObject({
      amount: 4000,
      initial_amount: 4000,
      discount_amount: 850,
      items_discount_amount: 0,
      total_discount_amount: 850,
      total_amount: 3150,
      applied_discount_amount: 850,
      total_applied_discount_amount: 850,
      source_id: null,
      object: 'order',
    });
    expect(reply.json.order.id).toBeUndefined();
    const first = applicable(reply.json.redeemables[0]);
    const second = applicable(reply.json.redeemables[1]);
    expect(first.order).toMatchObject({ total_discount_amount: 500, total_amount: 3500, applied_discount_amount: 500 });
    expect(second.order).toMatchObject({ total_discount_amount: 850, total_amount: 3150, applied_discount_amount: 350 });
    expect(first.result).toEqual({ discount: { type: 'AMOUNT', amount_off: 500 } });
    expect(first.applicable_to).toEqual({ object: 'list', data_ref: 'data', data: [], total: 0 });
    expect(reply.json.tracking_id).toMatch(/^track_/);
    expect(reply.json.stacking_rules).toMatchObject({ redeemables_limit: 30, applicable_redeemables_limit: 5, redeemables_application_mode: 'ALL' });
    // Nothing inapplicable or skipped: both lists are left out, as the reference's examples leave them out.
    expect(reply.json).not.toHaveProperty('inapplicable_redeemables');
    expect(reply.json).not.toHaveProperty('skipped_redeemables');
  });

  it('writes nothing: the customer named by source_id is not created and the voucher is unchanged', async () => {
    const { voucher, validate, api } = await setup();
    await voucher('NOWRITE');
    const before = await api.call('get-voucher', { params: { code: 'NOWRITE' } });
    expect((await validate({ redeemables: vouchers('NOWRITE'), order: { amount: 1000 }, customer: { source_id: 'ghost' } })).json.valid).toBe(true);
    expect((await api.call('get-customer', { params: { customerId: 'ghost' } })).status).toBe(404);
    expect((await api.call('get-voucher', { params: { code: 'NOWRITE' } })).json).toEqual(before.json);
  });

  it('validates for a customer known only by email, creating no customer and giving no tracking id', async () => {
    const { voucher, validate, api } = await setup();
    await voucher('BYMAIL');
    const reply = await validate({
      redeemables: vouchers('BYMAIL'),
      order: { amount: 1000 },
      customer: { email: 'guest@example.com', metadata: { vip: true } },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.valid).toBe(true);
    expect(reply.json).not.toHaveProperty('tracking_id');
    expect((await api.call('list-customers', {})).json.total).toBe(0);
  });

  it('answers resource_not_found, voucher_disabled, voucher_not_active, voucher_expired and missing_order_items in PARTIAL mode', async () => {
    const { voucher, validate, setRules } = await setup();
    await setRules({ redeemablesApplicationMode: 'PARTIAL', applicableRedeemablesLimit: 10 });
    await voucher('OFF', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, active: false });
    await voucher('LATER', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, start_date: '2026-08-01T00:00:00Z' });
    await voucher('GONE', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, expiration_date: '2026-07-01T00:00:00Z' });
    await voucher('ITEMS', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100, effect: 'APPLY_TO_ITEMS' } });
    await voucher('GOOD', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } });
    const reply = await validate({ redeemables: vouchers('NOPE', 'OFF', 'LATER', 'GONE', 'ITEMS', 'GOOD'), order: { amount: 1000 } });
    expect(reply.status).toBe(200);
    expect(statuses(reply.json)).toEqual([
      ['NOPE', 'INAPPLICABLE', 'resource_not_found'],
      ['OFF', 'INAPPLICABLE', 'voucher_disabled'],
      ['LATER', 'INAPPLICABLE', 'voucher_not_active'],
      ['GONE', 'INAPPLICABLE', 'voucher_expired'],
      ['ITEMS', 'INAPPLICABLE', 'missing_order_items'],
      ['GOOD', 'APPLICABLE', null],
    ]);
    expect(reply.json.valid).toBe(true);
    expect(reply.json.order.total_amount).toBe(900);
    expect(reply.json.inapplicable_redeemables).toHaveLength(5);
    const error = inapplicable(reply.json.redeemables[0]).result.error;
    expect(error).toMatchObject({ code: 404, key: 'resource_not_found', resource_id: 'NOPE', resource_type: 'voucher' });
    expect(error.request_id).toEqual(expect.any(String));
  });

  it('in ALL mode (the default) skips every redeemable after an inapplicable one and answers valid false', async () => {
    const { voucher, validate } = await setup();
    await voucher('FIRST');
    await voucher('THIRD');
    const reply = await validate({ redeemables: vouchers('FIRST', 'MISSING', 'THIRD'), order: { amount: 2000 } });
    expect(statuses(reply.json)).toEqual([
      ['FIRST', 'APPLICABLE', null],
      ['MISSING', 'INAPPLICABLE', 'resource_not_found'],
      ['THIRD', 'SKIPPED', 'preceding_validation_failed'],
    ]);
    expect(reply.json.valid).toBe(false);
    expect(reply.json.skipped_redeemables?.map((r) => r.id)).toEqual(['THIRD']);
  });

  it('answers campaign_not_active for a voucher of a disabled campaign, and promotion_inactive for a disabled tier', async () => {
    const { voucher, validate, api } = await setup();
    const campaign = (await api.call('create-campaign', {
      json: { name: 'Sale', campaign_type: 'DISCOUNT_COUPONS', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 300 } } },
    })) as unknown as { json: { id: string } };
    await voucher('SALE-1', { campaign_id: campaign.json.id });
    expect(statuses((await validate({ redeemables: vouchers('SALE-1'), order: { amount: 1000 } })).json)).toEqual([['SALE-1', 'APPLICABLE', null]]);
    expect((await api.call('disable-campaign', { params: { campaignId: campaign.json.id } })).status).toBe(200);
    expect(statuses((await validate({ redeemables: vouchers('SALE-1'), order: { amount: 1000 } })).json)).toEqual([
      ['SALE-1', 'INAPPLICABLE', 'campaign_not_active'],
    ]);

    const promo = (await api.call('create-campaign', {
      json: {
        name: 'Promo',
        campaign_type: 'PROMOTION',
        promotion: {
          tiers: [
            { name: 'On', action: { discount: { type: 'AMOUNT', amount_off: 200 } } },
            { name: 'Off', active: false, action: { discount: { type: 'AMOUNT', amount_off: 200 } } },
          ],
        },
      },
    })) as unknown as { json: { id: string; promotion: { tiers: { id: string }[] } } };
    const [on, off] = promo.json.promotion.tiers.map((t) => t.id);
    const reply = await validate({ redeemables: [{ object: 'promotion_tier', id: on }], order: { amount: 1000 } });
    expect(statuses(reply.json)).toEqual([[on, 'APPLICABLE', null]]);
    expect(reply.json.redeemables[0]).toMatchObject({ object: 'promotion_tier', name: 'On', campaign_name: 'Promo', campaign_id: promo.json.id });
    expect(reply.json.order.total_amount).toBe(800);
    expect(statuses((await validate({ redeemables: [{ object: 'promotion_tier', id: off }], order: { amount: 1000 } })).json)).toEqual([
      [off, 'INAPPLICABLE', 'promotion_inactive'],
    ]);
  });

  it('counts another live LOCK session holding the last use as used (quantity_exceeded), but not the request’s own session or an expired one', async () => {
    const { voucher, validate, runtime, projectId, clock } = await setup();
    await voucher('LAST', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 1 } });
    const expiresAt = new Date(monday + 3_600_000).toISOString();
    await runtime.ddb.send(
      new UpdateCommand({
        TableName: runtime.tableName,
        Key: entities.voucher.key(projectId, 'LAST'),
        UpdateExpression: 'SET sessions = :s',
        ExpressionAttributeValues: { ':s': { 'other-checkout': { expiresAt, uses: 1, credits: 0 } } },
      }),
    );
    const order = { amount: 1000 };
    expect(statuses((await validate({ redeemables: vouchers('LAST'), order })).json)).toEqual([['LAST', 'INAPPLICABLE', 'quantity_exceeded']]);
    // The holder validating again renews its own hold (for an hour from now).
    const own = await validate({ redeemables: vouchers('LAST'), order, session: { type: 'LOCK', key: 'other-checkout', ttl: 1, ttl_unit: 'HOURS' } });
    expect(statuses(own.json)).toEqual([['LAST', 'APPLICABLE', null]]);
    expect(own.json.session).toEqual({ type: 'LOCK', key: 'other-checkout', ttl: 1, ttl_unit: 'HOURS' });
    expect(statuses((await validate({ redeemables: vouchers('LAST'), order })).json)).toEqual([['LAST', 'INAPPLICABLE', 'quantity_exceeded']]);
    clock.advance(3_600_001);
    expect(statuses((await validate({ redeemables: vouchers('LAST'), order })).json)).toEqual([['LAST', 'APPLICABLE', null]]);
  });

  it('gives a gift card what the order needs capped by its balance by default, and answers gift_amount_exceeded above the balance', async () => {
    const { voucher, validate } = await setup();
    await voucher('GIFT', { type: 'GIFT_VOUCHER', gift: { amount: 1000 } });
    const byDefault = await validate({ redeemables: [{ object: 'gift_card', id: 'GIFT' }], order: { amount: 2500 } });
    expect(byDefault.json.redeemables[0]).toMatchObject({ status: 'APPLICABLE', object: 'voucher', result: { gift: { balance: 1000, credits: 1000 } } });
    expect(byDefault.json.order.total_amount).toBe(1500);
    const small = await validate({ redeemables: [{ object: 'gift_card', id: 'GIFT', gift: { credits: 300 } }], order: { amount: 2500 } });
    expect(small.json.order.total_amount).toBe(2200);
    const needsLess = await validate({ redeemables: [{ object: 'gift_card', id: 'GIFT' }], order: { amount: 400 } });
    expect(applicable(needsLess.json.redeemables[0]).result.gift?.credits).toBe(400);
    const tooMuch = await validate({ redeemables: [{ object: 'gift_card', id: 'GIFT', gift: { credits: 1001 } }], order: { amount: 2500 } });
    expect(statuses(tooMuch.json)).toEqual([['GIFT', 'INAPPLICABLE', 'gift_amount_exceeded']]);
  });

  it('skips beyond the applicable limit, the per-category limit, the exclusive limit, and non-joint codes beside an exclusive one', async () => {
    const { voucher, validate, setRules, api } = await setup();
    for (const code of ['L1', 'L2', 'L3', 'L4', 'L5', 'L6']) await voucher(code, { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 10 } });
    const limit = await validate({ redeemables: vouchers('L1', 'L2', 'L3', 'L4', 'L5', 'L6'), order: { amount: 1000 } });
    expect(statuses(limit.json)[5]).toEqual(['L6', 'SKIPPED', 'applicable_redeemables_limit_exceeded']);
    expect(limit.json.valid).toBe(true);
    expect(limit.json.order.total_discount_amount).toBe(50);

    await voucher('CAT1', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 10 }, category: 'Shoes' });
    await voucher('CAT2', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 10 }, category: 'Shoes' });
    expect(statuses((await validate({ redeemables: vouchers('CAT1', 'CAT2'), order: { amount: 1000 } })).json)).toEqual([
      ['CAT1', 'APPLICABLE', null],
      ['CAT2', 'SKIPPED', 'applicable_redeemables_per_category_limit_exceeded'],
    ]);

    const categoryId = (await api.call('get-voucher', { params: { code: 'CAT1' } })).json.category_id as string;
    await voucher('JOINT', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 10 }, category: 'Always' });
    const jointId = (await api.call('get-voucher', { params: { code: 'JOINT' } })).json.category_id as string;
    await setRules({ exclusiveCategories: [categoryId], jointCategories: [jointId], applicableRedeemablesPerCategoryLimit: 5 });
    const exclusive = await validate({ redeemables: vouchers('L1', 'CAT1', 'CAT2', 'JOINT'), order: { amount: 1000 } });
    expect(statuses(exclusive.json)).toEqual([
      ['L1', 'SKIPPED', 'exclusion_rules_not_met'],
      ['CAT1', 'APPLICABLE', null],
      ['CAT2', 'SKIPPED', 'applicable_exclusive_redeemables_limit_exceeded'],
      ['JOINT', 'APPLICABLE', null],
    ]);
    expect(exclusive.json.redeemables[1]?.categories[0]).toMatchObject({ id: categoryId, stacking_rules_type: 'EXCLUSIVE' });
  });

  it('uses the stored order named by source_id, with its lines and id', async () => {
    const { voucher, validate, api } = await setup();
    await voucher('P10', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } });
    const stored = (await api.call('create-order', { json: { source_id: 'cart-7', ...cart } })).json as Json;
    const reply = await validate({ redeemables: vouchers('P10'), order: { source_id: 'cart-7' } });
    expect(reply.json.order).toMatchObject({ id: stored.id, source_id: 'cart-7', amount: 4000, total_amount: 3600 });
    expect(reply.json.order.items.map((i) => i.product_id)).toEqual(['prod_shoe', 'prod_sock']);
    expect((await validate({ redeemables: vouchers('P10'), order: { id: 'ord_missing' } })).status).toBe(404);
  });

  it('reads validity_day_of_week and validity_hours against the runtime clock (UTC)', async () => {
    const { voucher, validate, clock } = await setup();
    await voucher('MONDAYS', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, validity_day_of_week: [1] });
    await voucher('LUNCH', {
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'AMOUNT', amount_off: 100 },
      validity_hours: { daily: [{ start_time: '12:00', expiration_time: '14:00', days_of_week: [1, 2, 3, 4, 5] }] },
    });
    const order = { amount: 1000 };
    expect(statuses((await validate({ redeemables: vouchers('MONDAYS'), order })).json)).toEqual([['MONDAYS', 'APPLICABLE', null]]);
    expect(statuses((await validate({ redeemables: vouchers('LUNCH'), order })).json)).toEqual([['LUNCH', 'APPLICABLE', null]]);
    clock.advance(2 * 3_600_000); // Monday 15:00
    expect(statuses((await validate({ redeemables: vouchers('LUNCH'), order })).json)).toEqual([['LUNCH', 'INAPPLICABLE', 'voucher_not_active']]);
    clock.advance(22 * 3_600_000); // Tuesday 13:00
    expect(statuses((await validate({ redeemables: vouchers('MONDAYS'), order })).json)).toEqual([['MONDAYS', 'INAPPLICABLE', 'voucher_not_active']]);
    expect(statuses((await validate({ redeemables: vouchers('LUNCH'), order })).json)).toEqual([['LUNCH', 'APPLICABLE', null]]);
  });

  it('refuses with 400 a discount with a formula it cannot evaluate, and more redeemables than the project allows', async () => {
    const { voucher, validate, setRules } = await setup();
    await voucher('FORMULA', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100, amount_off_formula: 'ORDER_AMOUNT * 0.1' } });
    const reply = await validate({ redeemables: vouchers('FORMULA'), order: { amount: 1000 } });
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.json)).toContain('amount_off_formula');
    await setRules({ redeemablesLimit: 1 });
    expect((await validate({ redeemables: vouchers('A', 'B'), order: { amount: 1 } })).status).toBe(400);
  });
});

describe('POST /v1/validations with a LOCK session', () => {
  it('holds the last use for the session: another validation gets quantity_exceeded until the session is released', async () => {
    const { voucher, validate, api } = await setup();
    await voucher('ONE-LEFT', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 1 } });
    const order = { amount: 1000 };
    const held = await validate({ redeemables: vouchers('ONE-LEFT'), order, session: { type: 'LOCK', key: 'checkout-a', ttl: 1, ttl_unit: 'HOURS' } });
    expect(statuses(held.json)).toEqual([['ONE-LEFT', 'APPLICABLE', null]]);
    expect(held.json.session).toEqual({ type: 'LOCK', key: 'checkout-a', ttl: 1, ttl_unit: 'HOURS' });
    expect(statuses((await validate({ redeemables: vouchers('ONE-LEFT'), order })).json)).toEqual([['ONE-LEFT', 'INAPPLICABLE', 'quantity_exceeded']]);
    expect(statuses((await validate({ redeemables: vouchers('ONE-LEFT'), order, session: { type: 'LOCK', key: 'checkout-b' } })).json)).toEqual([
      ['ONE-LEFT', 'INAPPLICABLE', 'quantity_exceeded'],
    ]);
    // The holder itself validates again (and renews its hold).
    expect(statuses((await validate({ redeemables: vouchers('ONE-LEFT'), order, session: { type: 'LOCK', key: 'checkout-a' } })).json)).toEqual([
      ['ONE-LEFT', 'APPLICABLE', null],
    ]);
    expect((await api.call('release-validation-session', { params: { code: 'ONE-LEFT', sessionKey: 'checkout-a' } })).status).toBe(204);
    expect(statuses((await validate({ redeemables: vouchers('ONE-LEFT'), order })).json)).toEqual([['ONE-LEFT', 'APPLICABLE', null]]);
  });

  it('frees the hold when the session expires, and holds gift credits so another session gets only the rest', async () => {
    const { voucher, validate, clock } = await setup();
    await voucher('ONCE', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 1 } });
    await voucher('CARD', { type: 'GIFT_VOUCHER', gift: { amount: 1000 } });
    await validate({ redeemables: vouchers('ONCE'), order: { amount: 1000 }, session: { key: 's1', ttl: 10, ttl_unit: 'MINUTES' } });
    await validate({
      redeemables: [{ object: 'gift_card', id: 'CARD', gift: { credits: 700 } }],
      order: { amount: 5000 },
      session: { key: 's1', ttl: 10, ttl_unit: 'MINUTES' },
    });
    expect(statuses((await validate({ redeemables: vouchers('ONCE'), order: { amount: 1000 } })).json)).toEqual([
      ['ONCE', 'INAPPLICABLE', 'quantity_exceeded'],
    ]);
    const rest = await validate({ redeemables: [{ object: 'gift_card', id: 'CARD' }], order: { amount: 5000 }, session: { key: 's2' } });
    expect(applicable(rest.json.redeemables[0]).result.gift).toEqual({ balance: 1000, credits: 300 });
    const tooMuch = await validate({ redeemables: [{ object: 'gift_card', id: 'CARD', gift: { credits: 301 } }], order: { amount: 5000 } });
    expect(statuses(tooMuch.json)).toEqual([['CARD', 'INAPPLICABLE', 'gift_amount_exceeded']]);
    clock.advance(10 * 60_000 + 1);
    expect(statuses((await validate({ redeemables: vouchers('ONCE'), order: { amount: 1000 } })).json)).toEqual([['ONCE', 'APPLICABLE', null]]);
  });

  it('gives the last use to exactly one of 10 parallel sessions', async () => {
    const { voucher, validate, api } = await setup();
    await voucher('RACE', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 1 } });
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => validate({ redeemables: vouchers('RACE'), order: { amount: 1000 }, session: { key: `racer-${i}` } })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const winners = replies.filter((r) => r.json.valid);
    expect(winners).toHaveLength(1);
    expect(replies.filter((r) => statuses(r.json)[0]?.[2] === 'quantity_exceeded')).toHaveLength(9);
    const key = winners[0]?.json.session?.key ?? '';
    expect((await api.call('release-validation-session', { params: { code: 'RACE', sessionKey: key } })).status).toBe(204);
  });
});
