import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 10, 2, 9, 0, 0);
type Json = Record<string, unknown>;

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
  const create = (json: unknown) => api.call('create-segment', { json });
  const customer = (json: Json) => ok('create-customer', { json });
  const segmentsOf = async (customerId: string) => {
    const reply = await api.call('list-customer-segments', { params: { customerId } });
    expect(reply.status).toBe(200);
    return (reply.json as { data: { id: string }[] }).data.map((s) => s.id);
  };
  return { clock, runtime, api, ok, create, customer, segmentsOf };
}

const vipFilter = { junction: 'and', 'metadata.tier': { conditions: { $is: 'vip' } } };

describe('segments: create, get, list, delete', () => {
  it('creates a static segment of customers by id or source_id, reads and lists it, and deletes it', async () => {
    const { api, create, customer, segmentsOf } = await setup();
    const ann = await customer({ source_id: 'ann' });
    const bob = await customer({ source_id: 'bob' });
    const made = await create({ name: 'Friends', type: 'static', customers: [ann.id, 'bob'] });
    expect(made.status).toBe(200);
    expect(made.json).toEqual({
      id: expect.stringMatching(/^seg_/),
      name: 'Friends',
      created_at: new Date(at).toISOString(),
      updated_at: null,
      type: 'static',
      filter: null,
      object: 'segment',
    });
    const id = (made.json as { id: string }).id;
    expect((await api.call('get-segment', { params: { segmentId: id } })).json).toEqual(made.json);
    const list = await api.call('list-segment', {});
    expect(list.json).toEqual({ object: 'list', data_ref: 'data', data: [made.json], total: 1 });
    expect(await segmentsOf('ann')).toEqual([id]);
    expect(await segmentsOf(bob.id as string)).toEqual([id]);
    const listed = await api.call('list-customer-segments', { params: { customerId: 'ann' } });
    expect(listed.json).toEqual({ object: 'list', data_ref: 'data', data: [{ id, name: 'Friends', object: 'segment' }], total: 1 });
    expect((await api.call('delete-segment', { params: { segmentId: id } })).status).toBe(204);
    expect(await segmentsOf('ann')).toEqual([]);
    const gone = await api.call('get-segment', { params: { segmentId: id } });
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'segment', resource_id: id });
    expect((await api.call('delete-segment', { params: { segmentId: id } })).status).toBe(404);
  });

  it('404s for unknown customers (static list, customer segments) and 400s naming a filter it cannot evaluate', async () => {
    const { api, create } = await setup();
    const unknown = await create({ name: 'x', type: 'static', customers: ['nobody'] });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'customer', resource_id: 'nobody' });
    const nobody = await api.call('list-customer-segments', { params: { customerId: 'nobody' } });
    expect(nobody.status).toBe(404);
    expect(nobody.json).toMatchObject({ key: 'not_found', resource_type: 'customer' });
    const summary = await create({ name: 'x', type: 'auto-update', filter: { 'summary.orders.total_amount': { conditions: { $more_than: 5 } } } });
    expect(summary.status).toBe(400);
    expect(JSON.stringify(summary.json)).toContain('summary.orders.total_amount');
    const op = await create({ name: 'x', type: 'auto-update', filter: { name: { conditions: { $sounds_like: 'a' } } } });
    expect(op.status).toBe(400);
    expect(JSON.stringify(op.json)).toContain('$sounds_like');
    expect((await create({ name: 'x', type: 'auto-update' })).status).toBe(400);
    expect((await create({ name: 'x', type: 'static', filter: vipFilter })).status).toBe(400);
  });

  it('lists by creation, newest first with order=-created_at, paged by limit and page', async () => {
    const { api, clock, create } = await setup();
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      ids.push(((await create({ name, type: 'static', customers: [] })).json as { id: string }).id);
      clock.advance(1000);
    }
    const page = await api.call('list-segment', { query: 'limit=2&order=-created_at' });
    expect((page.json as { data: { id: string }[]; total: number }).data.map((s) => s.id)).toEqual([ids[2], ids[1]]);
    expect((page.json as { total: number }).total).toBe(3);
    const second = await api.call('list-segment', { query: 'limit=2&page=2' });
    expect((second.json as { data: { id: string }[] }).data.map((s) => s.id)).toEqual([ids[2]]);
    expect((await api.call('list-segment', { query: 'filters[name][conditions][$is]=a' })).status).toBe(400);
  });
});

describe('segments: membership follows customer writes', () => {
  it('auto-update: existing matches join at creation; creates, updates (metadata) and deletes move membership', async () => {
    const { api, create, customer, segmentsOf } = await setup();
    await customer({ source_id: 'early-vip', metadata: { tier: 'vip' } });
    await customer({ source_id: 'early-plain', metadata: { tier: 'basic' } });
    const seg = ((await create({ name: 'VIP', type: 'auto-update', filter: vipFilter })).json as { id: string }).id;
    expect(await segmentsOf('early-vip')).toEqual([seg]);
    expect(await segmentsOf('early-plain')).toEqual([]);
    await customer({ source_id: 'late-vip', metadata: { tier: 'vip' } });
    expect(await segmentsOf('late-vip')).toEqual([seg]);
    await api.call('update-customer', { params: { customerId: 'early-plain' }, json: { metadata: { tier: 'vip' } } });
    expect(await segmentsOf('early-plain')).toEqual([seg]);
    await api.call('update-customer', { params: { customerId: 'early-vip' }, json: { metadata: { tier: 'basic' } } });
    expect(await segmentsOf('early-vip')).toEqual([]);
    await customer({ source_id: 'late-vip', name: 'Late' });
    expect(await segmentsOf('late-vip')).toEqual([seg]);
    expect((await api.call('delete-customer', { params: { customerId: 'late-vip' } })).status).toBe(204);
    await customer({ source_id: 'late-vip' });
    expect(await segmentsOf('late-vip')).toEqual([]);
  });

  it('filters over fields, dates and numbers with or-junctions; passive and static memberships do not follow writes', async () => {
    const { api, create, customer, segmentsOf } = await setup();
    await customer({ source_id: 'a', email: 'a@shop.test', metadata: { visits: 12 } });
    await customer({ source_id: 'b', email: 'b@other.test', address: { city: 'Oslo' } });
    const auto = (
      (
        await create({
          name: 'Shop or Oslo',
          type: 'auto-update',
          filter: { junction: 'or', email: { conditions: { $ends_with: '@shop.test' } }, 'address.city': { conditions: { $in: ['Oslo'] } } },
        })
      ).json as { id: string }
    ).id;
    const frequent = (
      (await create({ name: 'Frequent', type: 'passive', filter: { 'metadata.visits': { conditions: { $more_than: 10 } } } })).json as { id: string }
    ).id;
    const created = (
      (await create({ name: 'Recent', type: 'auto-update', filter: { created_at: { conditions: { $after: '2026-01-01T00:00:00Z' } } } })).json as { id: string }
    ).id;
    expect(await segmentsOf('a')).toEqual([auto, frequent, created]);
    expect(await segmentsOf('b')).toEqual([auto, created]);
    await api.call('update-customer', { params: { customerId: 'a' }, json: { email: 'a@else.test', metadata: { visits: 1 } } });
    // Passive: evaluated at creation only, kept though the customer no longer passes.
    expect(await segmentsOf('a')).toEqual([frequent, created]);
    await customer({ source_id: 'c', metadata: { visits: 50 } });
    expect(await segmentsOf('c')).toEqual([created]);
  });
});

describe('customer.segment rules in validations and redemptions', () => {
  it('passes for a member, fails with the rule’s message for a non-member, and passes once the customer is updated to match', async () => {
    const { api, ok, create, customer } = await setup();
    const seg = ((await create({ name: 'VIP', type: 'auto-update', filter: vipFilter })).json as { id: string }).id;
    await customer({ source_id: 'vip', metadata: { tier: 'vip' } });
    await customer({ source_id: 'plain', metadata: { tier: 'basic' } });
    const v = await ok('create-voucher', { params: { code: 'VIPONLY' }, json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } });
    const rule = await ok('create-validation-rules', {
      json: { name: 'vips', error: { message: 'VIP customers only' }, rules: { 1: { name: 'customer.segment', conditions: { $is: [seg] } } } },
    });
    await ok('create-validation-rule-assignment', {
      params: { validationRuleId: rule.id as string },
      json: { related_object_type: 'voucher', related_object_id: v.id },
    });
    const validate = async (sourceId: string) =>
      (
        await api.call('validate-stacked-discounts', {
          json: { redeemables: [{ object: 'voucher', id: 'VIPONLY' }], order: { amount: 1000 }, customer: { source_id: sourceId } },
        })
      ).json as { valid: boolean; redeemables: { status: string; result: { error?: { key: string; error?: { message: string } } } }[] };
    expect((await validate('vip')).valid).toBe(true);
    const refused = await validate('plain');
    expect(refused.valid).toBe(false);
    expect(refused.redeemables[0]?.result.error).toMatchObject({ key: 'customer_rules_violated', error: { message: 'VIP customers only' } });
    const redeemed = await api.call('redeem-stacked-discounts', {
      json: { redeemables: [{ object: 'voucher', id: 'VIPONLY' }], order: { amount: 1000 }, customer: { source_id: 'plain' } },
    });
    expect(redeemed.status).toBe(400);
    await api.call('update-customer', { params: { customerId: 'plain' }, json: { metadata: { tier: 'vip' } } });
    expect((await validate('plain')).valid).toBe(true);
    const now = await api.call('redeem-stacked-discounts', {
      json: { redeemables: [{ object: 'voucher', id: 'VIPONLY' }], order: { amount: 1000 }, customer: { source_id: 'plain' } },
    });
    expect(now.status).toBe(200);
  });
});
