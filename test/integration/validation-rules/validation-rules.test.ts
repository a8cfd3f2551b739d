import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { evaluateValidationRules } from '../../../lib/validation-rules/rule-evaluation.js';
import { MAX_ASSIGNMENTS_PER_OBJECT } from '../../../lib/validation-rules/validation-rule.js';
import { rulesOfObjects } from '../../../lib/validation-rules/validation-rule.service.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 9, 5, 10, 0, 0);
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  return {
    clock,
    runtime,
    pair,
    campaigns,
    create: (json: unknown) => api.call('create-validation-rules', { json }),
    get: (id: string) => api.call('get-validation-rule', { params: { validationRuleId: id } }),
    update: (id: string, json: unknown) => api.call('update-validation-rule', { params: { validationRuleId: id }, json }),
    remove: (id: string) => api.call('delete-validation-rules', { params: { validationRuleId: id } }),
    list: (query = '') => api.call('list-validation-rules', { query }),
    assign: (id: string, json: unknown, query = '') => api.call('create-validation-rule-assignment', { params: { validationRuleId: id }, json, query }),
    unassign: (id: string, assignmentId: string) => api.call('delete-validation-rule-assignment', { params: { validationRuleId: id, assignmentId } }),
    ruleAssignments: (id: string, query = '') => api.call('list-validation-rule-assignments', { params: { validationRuleId: id }, query }),
    assignments: (query = '') => api.call('list-validation-rules-assignments', { query }),
  };
}

const minimumOrder = {
  name: 'Minimum order',
  error: { message: 'Spend at least 50' },
  rules: {
    1: { name: 'order.amount', conditions: { $more_than_or_equal: [5000] }, error: { message: 'Order too small' } },
    2: { name: 'customer.segment', conditions: { $in: ['vip-1', 'vip-2'] } },
    3: { name: 'redemption.count.per_customer', conditions: { $less_than_or_equal: [1] } },
    logic: '(1 and 2) or 3',
  },
  applicable_to: { included: [{ object: 'product', id: 'prod_1', effect: 'APPLY_TO_EVERY', quantity_limit: 2 }], excluded: [], included_all: false },
};

describe('validation rules: create, get, update, list, delete', () => {
  it('creates a rule with its numbered conditions and logic, reads it back, updates and deletes it', async () => {
    const { clock, create, get, update, remove } = await setup();
    const made = await create(minimumOrder);
    expect(made.status).toBe(200);
    expect(made.json).toEqual({
      id: expect.stringMatching(/^val_/),
      name: 'Minimum order',
      rules: {
        1: { name: 'order.amount', property: null, conditions: { $more_than_or_equal: [5000] }, rules: {}, error: { message: 'Order too small' } },
        2: { name: 'customer.segment', property: null, conditions: { $in: ['vip-1', 'vip-2'] }, rules: {} },
        3: { name: 'redemption.count.per_customer', property: null, conditions: { $less_than_or_equal: [1] }, rules: {} },
        logic: '(1 and 2) or 3',
      },
      bundle_rules: {},
      error: { message: 'Spend at least 50' },
      applicable_to: { included: [{ object: 'product', id: 'prod_1', effect: 'APPLY_TO_EVERY', quantity_limit: 2 }], excluded: [], included_all: false },
      created_at: iso(at),
      type: 'expression',
      context_type: 'global',
      assignments_count: 0,
      object: 'validation_rules',
    });
    const id = made.json.id as string;
    expect((await get(id)).json).toEqual(made.json);

    clock.advance(MINUTE);
    const updated = await update(id, { name: 'Renamed', rules: { 1: { name: 'order.items.count', conditions: { $more_than: [2] } } } });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({
      name: 'Renamed',
      rules: { 1: { name: 'order.items.count', conditions: { $more_than: [2] } }, logic: '1' },
      error: { message: 'Spend at least 50' },
      updated_at: iso(at + MINUTE),
    });
    expect((await get(id)).json).toEqual(updated.json);

    expect((await remove(id)).status).toBe(204);
    const gone = await get(id);
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ key: 'not_found', resource_type: 'validation_rules', resource_id: id });
    expect((await remove(id)).status).toBe(404);
    expect((await update(id, { name: 'x' })).status).toBe(404);
  });

  it('keeps metadata and order-item conditions with their properties and sub-conditions', async () => {
    const { create } = await setup();
    const made = await create({
      name: 'Items',
      rules: {
        1: { name: 'order.metadata', property: 'location', conditions: { $is: ['Santorini'] } },
        2: {
          name: 'order.items.any',
          conditions: { $is: [{ id: 'prod_a', object: 'product', source_id: 'shoe' }] },
          rules: { 1: { name: 'order.items.aggregated_amount', conditions: { $more_than: [1000] } }, logic: '1' },
        },
        3: { name: 'customer.metadata', property: 'since', conditions: { $before: ['2025-01-01T00:00:00Z'] } },
        logic: '1 and 2 and 3',
      },
    });
    expect(made.status).toBe(200);
    expect(made.json.rules).toEqual({
      1: { name: 'order.metadata', property: 'location', conditions: { $is: ['Santorini'] }, rules: {} },
      2: {
        name: 'order.items.any',
        property: null,
        conditions: { $is: [{ id: 'prod_a', object: 'product', source_id: 'shoe' }] },
        rules: { 1: { name: 'order.items.aggregated_amount', property: null, conditions: { $more_than: [1000] }, rules: {} }, logic: '1' },
      },
      3: { name: 'customer.metadata', property: 'since', conditions: { $before: ['2025-01-01T00:00:00Z'] }, rules: {} },
      logic: '1 and 2 and 3',
    });
  });

  it.each([
    [
      'an unsupported condition',
      { 1: { name: 'order.total_amount', conditions: { $is: [1] } } },
      'rules.1 (order.total_amount): condition order.total_amount is not supported',
    ],
    ['malformed logic', { 1: { name: 'order.amount', conditions: { $is: [1] } }, logic: '1 and or 2' }, 'rules: logic: expected a condition number'],
    ['logic naming a missing condition', { 1: { name: 'order.amount', conditions: { $is: [1] } }, logic: '1 or 2' }, 'condition 2, which is not defined'],
    [
      'an unsupported operator',
      { 1: { name: 'customer.segment', conditions: { $starts_with: ['a'] } } },
      'operator $starts_with is not supported for customer.segment',
    ],
  ])('refuses %s with 400 invalid_validation_rules naming it, and writes nothing', async (_label, rules, details) => {
    const { create, list } = await setup();
    const reply = await create({ name: 'Bad', rules });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 400, key: 'invalid_validation_rules', message: 'Invalid validation rules' });
    expect(reply.json.details).toContain(details);
    expect((await list()).json).toMatchObject({ data: [], total: 0 });
  });

  it('refuses an update with an unsupported condition and keeps the rule as it was', async () => {
    const { create, update, get } = await setup();
    const made = await create(minimumOrder);
    const reply = await update(made.json.id as string, { rules: { 1: { name: 'redemption.count.daily', conditions: { $is: [1] } } } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'invalid_validation_rules' });
    expect((await get(made.json.id as string)).json).toEqual(made.json);
  });

  it('refuses a malformed body with 400 invalid_payload: no name, an unknown field, bundle rules, an applicable_to entry of no known object', async () => {
    const { create } = await setup();
    for (const body of [
      { rules: {} },
      { name: 'x', bundle_rules: { 1: { name: 'order.items.any' } } },
      { name: 'x', applicable_to: { included: [{ object: 'category', id: 'cat_1' }] } },
      { name: 'x', rules: { one: { name: 'order.amount', conditions: { $is: [1] } } } },
      { name: 'x', rules: { 1: { name: 'order.amount', conditions: { $is: [1e300] } } } },
    ]) {
      const reply = await create(body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json.key).toBe('invalid_payload');
    }
  });

  it('lists rules by creation, page by page, newest first by default, with start_date / end_date bounds', async () => {
    const { clock, create, list } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await create({ name: `r${i}` })).json.id as string);
      clock.advance(MINUTE);
    }
    const names = (reply: { json: Record<string, unknown> }) => (reply.json.data as { name: string }[]).map((r) => r.name);
    const first = await list('limit=2');
    expect(first.json).toMatchObject({ object: 'list', data_ref: 'data', total: 5 });
    expect(names(first)).toEqual(['r4', 'r3']);
    expect(names(await list('limit=2&page=2'))).toEqual(['r2', 'r1']);
    expect(names(await list('limit=2&page=3'))).toEqual(['r0']);
    expect(names(await list('limit=2&page=4'))).toEqual([]);
    expect(names(await list('order=created_at&limit=3'))).toEqual(['r0', 'r1', 'r2']);
    expect(names(await list(`order=created_at&start_date=${iso(at + MINUTE)}&end_date=${iso(at + 3 * MINUTE)}`))).toEqual(['r1', 'r2', 'r3']);
    for (const query of [
      'order=name',
      'order=-updated_at',
      'limit=0',
      'limit=101',
      'page=100',
      'start_date=yesterday',
      'start_date=2026-07-03T00:00:00Z&end_date=2026-07-02T00:00:00Z',
    ]) {
      const reply = await list(query);
      expect(reply.status, query).toBe(400);
      expect(reply.json.key).toBe('invalid_query_params');
    }
  });
});

describe('validation rule assignments', () => {
  it('assigns a rule to a campaign and a voucher, shows them in their replies and in every list, and unassigns', async () => {
    const { clock, create, get, assign, unassign, ruleAssignments, assignments, campaigns, remove } = await setup();
    const rule = (await create(minimumOrder)).json.id as string;
    const campaign = await newCampaign(campaigns);
    const voucher = (await campaigns.addVoucher(campaign.id as string)).json;
    clock.advance(MINUTE);
    const onCampaign = await assign(rule, { related_object_type: 'campaign', related_object_id: campaign.id });
    expect(onCampaign.status).toBe(200);
    expect(onCampaign.json).toEqual({
      id: expect.stringMatching(/^asgm_/),
      rule_id: rule,
      related_object_id: campaign.id,
      related_object_type: 'campaign',
      created_at: iso(at + MINUTE),
      object: 'validation_rules_assignment',
    });
    clock.advance(MINUTE);
    const onVoucher = await assign(rule, { related_object_id: voucher.id }, 'force=true');
    expect(onVoucher.status).toBe(200);
    expect(onVoucher.json.related_object_type).toBe('voucher');

    expect((await get(rule)).json.assignments_count).toBe(2);
    expect((await campaigns.getCampaign(campaign.id as string)).json.validation_rules_assignments).toEqual({
      object: 'list',
      data_ref: 'data',
      data: [onCampaign.json],
      total: 1,
    });
    expect((await campaigns.getVoucher(voucher.code as string)).json.validation_rules_assignments).toEqual({
      object: 'list',
      data_ref: 'data',
      data: [onVoucher.json],
      total: 1,
    });
    expect((await ruleAssignments(rule)).json).toEqual({ object: 'list', data_ref: 'data', data: [onVoucher.json, onCampaign.json], total: 2 });
    expect((await ruleAssignments(rule, 'order=created_at&limit=1&page=2')).json).toEqual({
      object: 'list',
      data_ref: 'data',
      data: [onVoucher.json],
      total: 2,
    });
    expect((await ruleAssignments('val_unknown')).json).toMatchObject({
      code: 404,
      key: 'not_found',
      resource_type: 'validation_rules',
      resource_id: 'val_unknown',
    });
    expect((await assignments(`related_object_id=${campaign.id}`)).json).toMatchObject({ data: [onCampaign.json], total: 1 });
    expect((await assignments(`rule=${rule}&related_object_id=${voucher.id}`)).json).toMatchObject({ data: [onVoucher.json], total: 1 });
    expect((await assignments(`rule=${rule}`)).json).toMatchObject({ total: 2 });
    expect((await assignments('')).json).toMatchObject({ data: [onVoucher.json, onCampaign.json], total: 2 });
    expect((await assignments('order=created_at&limit=1')).json).toMatchObject({ data: [onCampaign.json], total: 2 });

    const inUse = await remove(rule);
    expect(inUse.status).toBe(400);
    expect(inUse.json).toMatchObject({ key: 'resource_in_use', resource_type: 'validation_rules', resource_id: rule });

    expect((await unassign(rule, onCampaign.json.id as string)).status).toBe(204);
    expect((await unassign(rule, onCampaign.json.id as string)).json).toMatchObject({ code: 404, resource_type: 'validation_rules_assignment' });
    expect((await campaigns.getCampaign(campaign.id as string)).json.validation_rules_assignments).toMatchObject({ data: [], total: 0 });
    expect((await get(rule)).json.assignments_count).toBe(1);
    expect((await assignments('')).json).toMatchObject({ data: [onVoucher.json], total: 1 });
    expect((await unassign(rule, onVoucher.json.id as string)).status).toBe(204);
    expect((await remove(rule)).status).toBe(204);
  });

  it('refuses the same rule twice on one object with 409 naming the first assignment', async () => {
    const { create, assign, campaigns } = await setup();
    const rule = (await create({ name: 'r' })).json.id as string;
    const campaign = await newCampaign(campaigns);
    const first = await assign(rule, { related_object_type: 'campaign', related_object_id: campaign.id });
    const again = await assign(rule, { related_object_type: 'campaign', related_object_id: campaign.id });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ key: 'duplicate_found', resource_type: 'validation_rules_assignment', resource_id: first.json.id });
  });

  it('gives exactly one winner when the same rule is assigned to one object by parallel requests', async () => {
    const { create, assign, get, campaigns } = await setup();
    const rule = (await create({ name: 'r' })).json.id as string;
    const campaign = await newCampaign(campaigns);
    const replies = await Promise.all(Array.from({ length: 8 }, () => assign(rule, { related_object_type: 'campaign', related_object_id: campaign.id })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(7);
    expect((await get(rule)).json.assignments_count).toBe(1);
    expect((await campaigns.getCampaign(campaign.id as string)).json.validation_rules_assignments).toMatchObject({ total: 1 });
  });

  it('answers 404 for an unknown rule, an unknown campaign, voucher, promotion tier or reward assignment', async () => {
    const { create, assign, unassign } = await setup();
    const rule = (await create({ name: 'r' })).json.id as string;
    const noRule = await assign('val_nope', { related_object_type: 'earning_rule', related_object_id: 'ern_1' });
    expect(noRule.status).toBe(404);
    expect(noRule.json).toMatchObject({ resource_type: 'validation_rules', resource_id: 'val_nope' });
    for (const type of ['campaign', 'voucher', 'promotion_tier', 'reward_assignment']) {
      const reply = await assign(rule, { related_object_type: type, related_object_id: 'nope_1' });
      expect(reply.status, type).toBe(404);
      expect(reply.json).toMatchObject({ key: 'not_found', resource_type: type, resource_id: 'nope_1' });
    }
    expect((await unassign('val_nope', 'asgm_1')).json).toMatchObject({ code: 404, resource_type: 'validation_rules' });
    expect((await unassign(rule, 'asgm_1')).json).toMatchObject({ code: 404, resource_type: 'validation_rules_assignment' });
  });

  it('stores assignments to earning rules and distributions as named', async () => {
    const { create, assign, assignments } = await setup();
    const rule = (await create({ name: 'r' })).json.id as string;
    expect((await assign(rule, { related_object_type: 'earning_rule', related_object_id: 'ern_1' })).status).toBe(200);
    expect((await assign(rule, { related_object_type: 'distribution', related_object_id: 'distr_1' })).status).toBe(200);
    expect((await assignments('related_object_id=ern_1')).json).toMatchObject({ total: 1, data: [{ related_object_type: 'earning_rule' }] });
  });

  it(`refuses one rule more than ${MAX_ASSIGNMENTS_PER_OBJECT} on one object with 400 too_many_validation_rules`, async () => {
    const { create, assign } = await setup();
    const rules = await Promise.all(Array.from({ length: MAX_ASSIGNMENTS_PER_OBJECT + 1 }, (_, i) => create({ name: `r${i}` })));
    for (const r of rules.slice(0, MAX_ASSIGNMENTS_PER_OBJECT)) {
      expect((await assign(r.json.id as string, { related_object_type: 'distribution', related_object_id: 'distr_1' })).status).toBe(200);
    }
    const over = await assign(rules[MAX_ASSIGNMENTS_PER_OBJECT]?.json.id as string, { related_object_type: 'distribution', related_object_id: 'distr_1' });
    expect(over.status).toBe(400);
    expect(over.json.key).toBe('too_many_validation_rules');
  });

  it('refuses a malformed assignment with 400 invalid_payload / invalid_query_params', async () => {
    const { create, assign } = await setup();
    const rule = (await create({ name: 'r' })).json.id as string;
    expect((await assign(rule, { related_object_type: 'order', related_object_id: 'x' })).json.key).toBe('invalid_payload');
    expect((await assign(rule, { related_object_type: 'campaign' })).json.key).toBe('invalid_payload');
    expect((await assign(rule, { related_object_id: 'x' }, 'force=maybe')).json.key).toBe('invalid_query_params');
  });
});

describe('rules of assigned objects, evaluated', () => {
  it('reads the rules of a campaign and a voucher in two BatchGets and evaluates them to the violation and its message', async () => {
    const { runtime, pair, create, assign, campaigns } = await setup();
    const campaign = await newCampaign(campaigns);
    const voucher = (await campaigns.addVoucher(campaign.id as string)).json;
    const big = (
      await create({
        name: 'Big orders',
        error: { message: 'Only for orders of 50 or more' },
        rules: { 1: { name: 'order.amount', conditions: { $more_than_or_equal: [5000] } } },
      })
    ).json;
    const once = (await create({ name: 'Once', rules: { 1: { name: 'redemption.count.per_customer', conditions: { $less_than_or_equal: [1] } } } })).json;
    await assign(big.id as string, { related_object_type: 'campaign', related_object_id: campaign.id });
    await assign(once.id as string, { related_object_type: 'voucher', related_object_id: voucher.id });

    const rules = await rulesOfObjects(runtime, pair.project_id, [campaign.id as string, voucher.id as string, 'camp_none']);
    expect(rules.get(campaign.id as string)?.map((r) => r.id)).toEqual([big.id]);
    expect(rules.get(voucher.id as string)?.map((r) => r.id)).toEqual([once.id]);
    expect(rules.get('camp_none')).toEqual([]);

    const all = [...(rules.get(campaign.id as string) ?? []), ...(rules.get(voucher.id as string) ?? [])];
    const ctx = (amount: number, used: number) => ({
      order: { amount, items: [], metadata: {} },
      customer: { id: 'cust_1', sourceId: null, metadata: {} },
      counters: { customerRedemptionsOfRedeemable: used, customerRedemptionsInCampaign: used, campaignRedemptions: used },
    });
    expect(evaluateValidationRules(all, ctx(6000, 0))).toEqual({ ok: true });
    expect(evaluateValidationRules(all, ctx(4000, 0))).toMatchObject({
      ok: false,
      key: 'order_rules_violated',
      message: 'Only for orders of 50 or more',
      ruleId: big.id,
    });
    expect(evaluateValidationRules(all, ctx(6000, 1))).toMatchObject({ ok: false, key: 'redemption_rules_violated', message: null, ruleId: once.id });
  });
});
