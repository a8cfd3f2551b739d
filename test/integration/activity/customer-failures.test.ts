import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;
type Event = { id: string; type: string; created_at: string; data: { data: Json } };

/**
 * The runtime with its DynamoDB client watched: `puts` counts the PutItems of activity records
 * (entity `customer_activity`) sent from `watch()` on, and `failPuts` makes them throw.
 */
function watched(runtime: Runtime) {
  const state = { puts: 0, failPuts: false };
  const ddb = new Proxy(runtime.ddb, {
    get(target, name, receiver) {
      if (name !== 'send') return Reflect.get(target, name, receiver) as unknown;
      return (command: { constructor: { name: string }; input: { Item?: Json } }, ...rest: unknown[]) => {
        if (command.constructor.name === 'PutCommand' && command.input.Item?.entity === 'customer_activity') {
          state.puts += 1;
          if (state.failPuts) return Promise.reject(new Error('table unavailable'));
        }
        return (target.send as (...a: unknown[]) => Promise<unknown>)(command, ...rest);
      };
    },
  });
  return { runtime: { ...runtime, ddb } as Runtime, state };
}

/** A project with the codes D-1 (usable) and D-2 (disabled) of the campaign Discounts, and the customer `bob`. */
async function setup() {
  const clock = new ManualClock(Date.UTC(2026, 8, 1, 9, 0, 0));
  const base = testRuntime({ clock });
  const pair = await newProject(base);
  const { runtime, state } = watched(base);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(base, pair);
  const discounts = (await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Discounts'))) as { id: string };
  for (const code of ['D-1', 'D-2']) expect((await campaigns.addVoucher('Discounts', { code })).status).toBe(200);
  const call = async (id: string, opts: Parameters<typeof api.call>[1]) => {
    clock.advance(1000);
    return api.call(id, opts);
  };
  expect((await call('disable-voucher', { params: { code: 'D-2' } })).status).toBe(200);
  const bob = (await call('create-customer', { json: { source_id: 'bob', name: 'Bob' } })).json as { id: string };
  const list = async (query = '', customerId = 'bob') => {
    const reply = await api.call('list-customer-activity', { params: { customerId }, query });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    return (reply.json as { data: Event[] }).data;
  };
  state.puts = 0;
  return { call, list, state, bob, discounts };
}

const order = { amount: 1000 };

describe('failed validations and redemptions in the customer activity', () => {
  it('lists a failed validation and a failed redemption of a stored customer, newest first, with the reference type names, code and message', async () => {
    const { call, list, state, bob, discounts } = await setup();
    const validated = await call('validate-stacked-discounts', {
      json: { redeemables: [{ object: 'voucher', id: 'D-2' }], order, customer: { source_id: 'bob' } },
    });
    expect(validated.status).toBe(200);
    expect(validated.json).toMatchObject({ valid: false });
    const redeemed = await call('redeem-voucher', { params: { code: 'D-2' }, json: { order, customer: { id: bob.id } } });
    expect(redeemed.status).toBe(400);
    expect(redeemed.json).toMatchObject({ key: 'voucher_disabled' });
    // One PutItem each, on the failure path.
    expect(state.puts).toBe(2);

    const events = await list();
    expect(events.map((e) => e.type)).toEqual(['customer.redemption.failed', 'customer.validation.failed', 'customer.created']);
    const [redemption, validation] = events as [Event, Event];
    expect(redemption.data.data).toMatchObject({
      customer: { id: bob.id, source_id: 'bob', object: 'customer' },
      voucher: { code: 'D-2', campaign_id: discounts.id },
      redemption: {
        customer_id: bob.id,
        result: 'FAILURE',
        status: 'FAILED',
        failure_code: 'voucher_disabled',
        failure_message: expect.stringMatching(/disabled/),
        object: 'redemption',
      },
    });
    expect((redemption.data.data.redemption as { id: string }).id).toMatch(/^r_/);
    expect(validation.data.data).toMatchObject({
      customer: { id: bob.id },
      validation: {
        status: 'INVALID',
        customer_id: bob.id,
        redeemables: [],
        inapplicable_redeemables: [{ id: 'D-2', type: 'voucher', result: { error: { key: 'voucher_disabled', message: expect.stringMatching(/disabled/) } } }],
      },
    });
    expect(Date.parse(redemption.created_at)).toBeGreaterThan(Date.parse(validation.created_at));
    // The filters see them: by type, by campaign, and as ACTIONs.
    expect((await list('type=customer.validation.failed')).map((e) => e.id)).toEqual([validation.id]);
    expect((await list('type=customer.redemption.failed')).map((e) => e.id)).toEqual([redemption.id]);
    expect((await list(`campaign_id=${discounts.id}`)).map((e) => e.type)).toEqual(['customer.redemption.failed', 'customer.validation.failed']);
    expect((await list('campaign_type=DISCOUNT_COUPONS&category=ACTION')).map((e) => e.type)).toEqual([
      'customer.redemption.failed',
      'customer.validation.failed',
    ]);
  });

  it('records a refusal of every redemption and validation route: promotion-less single codes and the stacked body alike', async () => {
    const { call, list, state } = await setup();
    expect((await call('validate-voucher', { params: { code: 'D-2' }, json: { order, customer: { source_id: 'bob' } } })).json).toMatchObject({
      valid: false,
    });
    const stacked = await call('redeem-stacked-discounts', {
      json: { redeemables: [{ object: 'voucher', id: 'D-2' }], order, customer: { source_id: 'bob' } },
    });
    expect(stacked.status).toBe(400);
    expect(state.puts).toBe(2);
    expect((await list()).map((e) => e.type)).toEqual(['customer.redemption.failed', 'customer.validation.failed', 'customer.created']);
  });

  it('writes nothing more on success: a valid validation and a redemption list as before', async () => {
    const { call, list, state } = await setup();
    const validated = await call('validate-stacked-discounts', {
      json: { redeemables: [{ object: 'voucher', id: 'D-1' }], order, customer: { source_id: 'bob' } },
    });
    expect(validated.json).toMatchObject({ valid: true });
    const redeemed = await call('redeem-stacked-discounts', {
      json: { redeemables: [{ object: 'voucher', id: 'D-1' }], order, customer: { source_id: 'bob' } },
    });
    expect(redeemed.status).toBe(200);
    expect(state.puts).toBe(0);
    expect((await list()).map((e) => e.type)).toEqual(['customer.redemption.succeeded', 'customer.created']);
  });

  it('records nothing without a stored customer, nor for a request refused for bad input', async () => {
    const { call, list, state } = await setup();
    // No customer; then a customer never stored (the failed redemption does not create it).
    expect((await call('validate-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: 'D-2' }], order } })).json).toMatchObject({
      valid: false,
    });
    expect((await call('redeem-voucher', { params: { code: 'D-2' }, json: { order } })).status).toBe(400);
    expect((await call('redeem-voucher', { params: { code: 'D-2' }, json: { order, customer: { source_id: 'ghost' } } })).status).toBe(400);
    expect((await call('get-customer', { params: { customerId: 'ghost' } })).status).toBe(404);
    // A body the schema refuses, naming a stored customer.
    const bad = await call('redeem-stacked-discounts', { json: { redeemables: 'D-2', customer: { source_id: 'bob' } } });
    expect(bad.status).toBe(400);
    const badValidation = await call('validate-stacked-discounts', { json: { redeemables: [{ object: 'voucher' }], customer: { source_id: 'bob' } } });
    expect(badValidation.status).toBe(400);
    expect(state.puts).toBe(0);
    expect((await list()).map((e) => e.type)).toEqual(['customer.created']);
  });

  it('answers a failure the same when its record cannot be written', async () => {
    const { call, list, state } = await setup();
    state.failPuts = true;
    const validated = await call('validate-stacked-discounts', {
      json: { redeemables: [{ object: 'voucher', id: 'D-2' }], order, customer: { source_id: 'bob' } },
    });
    expect(validated.status).toBe(200);
    expect(validated.json).toMatchObject({ valid: false });
    const redeemed = await call('redeem-voucher', { params: { code: 'D-2' }, json: { order, customer: { source_id: 'bob' } } });
    expect(redeemed.status).toBe(400);
    expect(redeemed.json).toMatchObject({ key: 'voucher_disabled' });
    expect(state.puts).toBe(2);
    expect((await list()).map((e) => e.type)).toEqual(['customer.created']);
  });
});
