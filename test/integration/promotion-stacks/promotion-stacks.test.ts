import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;
type Reply<T = Json> = { status: number; json: T & { key?: string; details?: string; resource_type?: string } };
type Stack = {
  id: string;
  name: string;
  campaign_id: string;
  object: string;
  tiers: { ids: string[]; hierarchy_mode: string };
  category_id: string | null;
  categories: Json[];
};
type Evaluated = {
  valid: boolean;
  redeemables: { id: string; object: string; status: string; result?: { error?: { key: string }; discount?: Json } }[];
  order: { amount: number; total_discount_amount: number; total_amount: number };
};

const now = Date.UTC(2026, 10, 29, 12, 0, 0);
const order = { amount: 10_000 };

async function setup() {
  const clock = new ManualClock(now);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const call = async <T = Json>(operationId: string, request: Json = {}) => (await api.call(operationId, request)) as unknown as Reply<T>;
  /** A promotion with three tiers: 10 % off, 500 off, 1,000 off (in that hierarchy). */
  const promotion = async (name: string) => {
    const reply = await call<{ id: string; promotion: { tiers: { id: string; name: string }[] } }>('create-campaign', {
      json: {
        name,
        campaign_type: 'PROMOTION',
        promotion: {
          tiers: [
            { name: 'percent', action: { discount: { type: 'PERCENT', percent_off: 10 } } },
            { name: 'amount', action: { discount: { type: 'AMOUNT', amount_off: 500 } } },
            { name: 'big', action: { discount: { type: 'AMOUNT', amount_off: 1000 } } },
          ],
        },
      },
    });
    expect(reply.status).toBe(200);
    const [percent, amount, big] = reply.json.promotion.tiers.map((t) => t.id) as [string, string, string];
    return { id: reply.json.id, percent, amount, big };
  };
  const stack = async (campaignId: string, ids: string[], name = 'Stack') => {
    const reply = await call<Stack>('create-promotion-stack', { params: { campaignId }, json: { name, tiers: { ids, hierarchy_mode: 'MANUAL' } } });
    expect(reply.status).toBe(200);
    return reply.json;
  };
  const validate = (json: Json) => call<Evaluated>('validate-stacked-discounts', { json });
  const redeem = (json: Json) =>
    call<{ redemptions: { id: string; promotion_tier?: { id: string } }[]; order: { total_discount_amount: number } }>('redeem-stacked-discounts', { json });
  return { clock, call, promotion, stack, validate, redeem };
}

describe('promotion stacks (create, list, get, update, delete)', () => {
  it('creates a stack of a promotion’s tiers, gets it, lists it in its campaign and in the project, changes it and deletes it', async () => {
    const { clock, call, promotion, stack } = await setup();
    const promo = await promotion('Stacked');
    const created = await stack('Stacked', [promo.amount, promo.percent], 'First');
    expect(created).toMatchObject({
      name: 'First',
      campaign_id: promo.id,
      object: 'promotion_stack',
      tiers: { ids: [promo.amount, promo.percent], hierarchy_mode: 'MANUAL' },
      category_id: null,
      categories: [],
    });
    expect(created.id).toMatch(/^stack_/);
    expect(created).not.toHaveProperty('updated_at');
    clock.advance(1000);
    const second = await stack(promo.id, [promo.big], 'Another');

    const got = await call<Stack>('get-promotion-stack', { params: { campaignId: promo.id, stackId: created.id } });
    expect(got.status).toBe(200);
    expect(got.json).toEqual(created);

    const inCampaign = await call<{ object: string; data_ref: string; data: Stack[]; total: number }>('list-promotion-stacks-in-campaign', {
      params: { campaignId: promo.id },
    });
    expect(inCampaign.json).toMatchObject({ object: 'list', data_ref: 'data', total: 2 });
    expect(inCampaign.json.data.map((s) => s.id)).toEqual([created.id, second.id]);
    const other = await promotion('Other');
    await stack(other.id, [other.percent], 'Elsewhere');
    expect((await call<{ total: number }>('list-promotion-stacks-in-campaign', { params: { campaignId: promo.id } })).json.total).toBe(2);

    const all = await call<{ data: Stack[]; total: number }>('list-all-promotion-stacks', { query: { order: 'name', limit: '2', page: '1' } });
    expect(all.status).toBe(200);
    expect(all.json.total).toBe(3);
    expect(all.json.data.map((s) => s.name)).toEqual(['Another', 'Elsewhere']);
    const before = await call<{ data: Stack[]; total: number }>('list-all-promotion-stacks', {
      query: { 'created_at[before]': new Date(now + 500).toISOString() },
    });
    expect(before.json.data.map((s) => s.id)).toEqual([created.id]);

    const category = await call<{ id: string }>('create-category', { json: { name: 'Stacks', hierarchy: 1 } });
    clock.advance(1000);
    const changed = await call<Stack & { updated_at: string }>('update-promotion-stack', {
      params: { campaignId: promo.id, stackId: created.id },
      json: { name: 'Renamed', tiers: { ids: [promo.percent, promo.amount, promo.big] }, category_id: category.json.id },
    });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ name: 'Renamed', tiers: { ids: [promo.percent, promo.amount, promo.big] }, category_id: category.json.id });
    expect(changed.json.categories).toMatchObject([{ id: category.json.id, name: 'Stacks', object: 'category' }]);
    expect(changed.json.updated_at).toBe(new Date(now + 2000).toISOString());

    const deleted = await call('delete-promotion-stack', { params: { campaignId: promo.id, stackId: created.id } });
    expect(deleted.status).toBe(204);
    const gone = await call('get-promotion-stack', { params: { campaignId: promo.id, stackId: created.id } });
    expect([gone.status, gone.json.key, gone.json.resource_type]).toEqual([404, 'not_found', 'promotion_stack']);
    expect((await call('delete-promotion-stack', { params: { campaignId: promo.id, stackId: created.id } })).status).toBe(404);
    expect((await call<{ total: number }>('list-all-promotion-stacks')).json.total).toBe(2);
  });

  it('refuses a tier of another campaign (404), a tier named twice (400), a campaign that is not a promotion (400) and a stack of another campaign (404)', async () => {
    const { call, promotion, stack } = await setup();
    const promo = await promotion('Mine');
    const other = await promotion('Theirs');
    const foreign = await call('create-promotion-stack', { params: { campaignId: promo.id }, json: { name: 'x', tiers: { ids: [other.percent] } } });
    expect([foreign.status, foreign.json.key, foreign.json.resource_type]).toEqual([404, 'not_found', 'promotion_tier']);
    const twice = await call('create-promotion-stack', {
      params: { campaignId: promo.id },
      json: { name: 'x', tiers: { ids: [promo.percent, promo.percent] } },
    });
    expect([twice.status, twice.json.key]).toEqual([400, 'invalid_payload']);
    const empty = await call('create-promotion-stack', { params: { campaignId: promo.id }, json: { name: 'x', tiers: { ids: [] } } });
    expect(empty.status).toBe(400);
    const coupons = await call<{ id: string }>('create-campaign', {
      json: {
        name: 'Coupons',
        campaign_type: 'DISCOUNT_COUPONS',
        vouchers_count: 0,
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 1 } },
      },
    });
    const wrongType = await call('create-promotion-stack', { params: { campaignId: coupons.json.id }, json: { name: 'x', tiers: { ids: [promo.percent] } } });
    expect([wrongType.status, wrongType.json.key]).toEqual([400, 'invalid_campaign']);
    const theirs = await stack(other.id, [other.percent]);
    const crossed = await call('get-promotion-stack', { params: { campaignId: promo.id, stackId: theirs.id } });
    expect([crossed.status, crossed.json.resource_type]).toEqual([404, 'promotion_stack']);
  });
});

describe('concurrent changes of one stack', () => {
  it('keeps every change of parallel PUTs that each change another field (none lost to another’s stale read)', async () => {
    const { call, promotion, stack } = await setup();
    const promo = await promotion('Raced');
    const s = await stack(promo.id, [promo.amount]);
    const category = await call<{ id: string }>('create-category', { json: { name: 'Raced', hierarchy: 1 } });
    const params = { campaignId: promo.id, stackId: s.id };
    const replies = await Promise.all([
      call('update-promotion-stack', { params, json: { name: 'Renamed' } }),
      call('update-promotion-stack', { params, json: { tiers: { ids: [promo.big, promo.percent] } } }),
      call('update-promotion-stack', { params, json: { category_id: category.json.id } }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    const final = await call<Stack>('get-promotion-stack', { params });
    expect(final.json).toMatchObject({ name: 'Renamed', tiers: { ids: [promo.big, promo.percent] }, category_id: category.json.id });
  });
});

describe('a promotion stack in validations and redemptions', () => {
  it('validates and redeems a stack of two tiers together, in the stack’s order', async () => {
    const { call, promotion, stack, validate, redeem } = await setup();
    const promo = await promotion('Together');
    // 500 off first, then 10 % of what is left: 10,000 - 500 = 9,500, then 950 off.
    const s = await stack(promo.id, [promo.amount, promo.percent]);
    const validation = await validate({ redeemables: [{ object: 'promotion_stack', id: s.id }], order });
    expect(validation.status).toBe(200);
    expect(validation.json.valid).toBe(true);
    expect(validation.json.redeemables.map((r) => [r.object, r.id, r.status])).toEqual([
      ['promotion_tier', promo.amount, 'APPLICABLE'],
      ['promotion_tier', promo.percent, 'APPLICABLE'],
    ]);
    const sentAlone = await validate({
      redeemables: [
        { object: 'promotion_tier', id: promo.amount },
        { object: 'promotion_tier', id: promo.percent },
      ],
      order,
    });
    expect(validation.json.order.total_discount_amount).toBe(sentAlone.json.order.total_discount_amount);

    const redeemed = await redeem({ redeemables: [{ object: 'promotion_stack', id: s.id }], order, customer: { source_id: 'stacker' } });
    expect(redeemed.status).toBe(200);
    expect(redeemed.json.redemptions.map((r) => r.promotion_tier?.id)).toEqual([promo.amount, promo.percent]);
    expect(redeemed.json.order.total_discount_amount).toBe(validation.json.order.total_discount_amount);
    const listed = await call<{ redemptions: Json[] }>('list-redemptions', { query: { customer: 'stacker' } });
    expect(listed.status).toBe(200);
  });

  it('refuses a stack naming a disabled or deleted tier as a whole, even in PARTIAL mode, and writes nothing', async () => {
    const { call, promotion, stack, validate, redeem } = await setup();
    const promo = await promotion('Broken');
    await call('update-project-stacking-rules', { json: { redeemables_application_mode: 'PARTIAL' } });
    const s = await stack(promo.id, [promo.amount, promo.percent, promo.big]);
    expect((await call('disable-promotion-tier', { params: { promotionTierId: promo.percent } })).status).toBe(200);

    const disabled = await validate({ redeemables: [{ object: 'promotion_stack', id: s.id }], order });
    expect(disabled.status).toBe(200);
    expect(disabled.json.valid).toBe(false);
    expect(disabled.json.redeemables.map((r) => [r.id, r.status, r.result?.error?.key ?? null])).toEqual([
      [promo.amount, 'APPLICABLE', null],
      [promo.percent, 'INAPPLICABLE', 'promotion_inactive'],
      [promo.big, 'SKIPPED', null],
    ]);
    const refused = await redeem({ redeemables: [{ object: 'promotion_stack', id: s.id }], order, customer: { source_id: 'nobody' } });
    expect([refused.status, refused.json.key]).toEqual([400, 'promotion_inactive']);

    expect((await call('enable-promotion-tier', { params: { promotionTierId: promo.percent } })).status).toBe(200);
    expect((await call('delete-promotion-tier', { params: { promotionTierId: promo.big } })).status).toBe(204);
    const deleted = await validate({ redeemables: [{ object: 'promotion_stack', id: s.id }], order });
    expect(deleted.json.valid).toBe(false);
    expect(deleted.json.redeemables.find((r) => r.id === promo.big)?.result?.error?.key).toBe('resource_not_found');
    const refusedAgain = await redeem({ redeemables: [{ object: 'promotion_stack', id: s.id }], order, customer: { source_id: 'nobody' } });
    expect([refusedAgain.status, refusedAgain.json.key]).toEqual([404, 'resource_not_found']);
    // Nothing was written by the refused redemptions: not even the customer.
    expect((await call('get-customer', { params: { customerId: 'nobody' } })).status).toBe(404);
  });

  it('answers 404 for an unknown stack and 400 for a stack beside other redeemables', async () => {
    const { promotion, stack, validate, redeem } = await setup();
    const promo = await promotion('Alone');
    const s = await stack(promo.id, [promo.amount]);
    const unknown = await validate({ redeemables: [{ object: 'promotion_stack', id: 'stack_missing' }], order });
    expect([unknown.status, unknown.json.key, unknown.json.resource_type]).toEqual([404, 'not_found', 'promotion_stack']);
    const beside = await redeem({
      redeemables: [
        { object: 'promotion_stack', id: s.id },
        { object: 'promotion_tier', id: promo.percent },
      ],
      order,
    });
    expect([beside.status, beside.json.key]).toEqual([400, 'invalid_payload']);
  });
});
