import { beforeAll, describe, expect, it } from 'vitest';
import type { IssuedKeyPair } from '../../../lib/app-keys/app-key.service.js';
import { createLogger } from '../../../lib/logger.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { campaignBodies } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/**
 * Issue 33: requests as clients written against Voucherify send them. Keys the reference does not
 * document are ignored (and logged at debug level), `null` is absent, and a key that names
 * something (`id`, `project_id`, `created_at`) never changes what it names.
 */
type Line = Record<string, unknown>;
let runtime: Runtime;
let lines: () => Line[];
let pair: IssuedKeyPair;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  const written: string[] = [];
  runtime = testRuntime({ logger: createLogger('debug', (line) => written.push(line)) });
  lines = () => written.map((l) => JSON.parse(l) as Line);
  pair = await newProject(runtime, 'liberal requests');
  api = apiClient({ runtime }, keyPairHeaders(pair));
});

describe('undocumented keys and nulls', () => {
  it('creates a campaign sent with undocumented keys at every depth, and logs their names at debug level with the request id', async () => {
    const body = {
      ...campaignBodies.DISCOUNT_COUPONS('liberal-one'),
      id: 'camp_chosen_by_client',
      project_id: 'proj_other',
      created_at: '2001-01-01T00:00:00.000Z',
      object: 'campaign',
      summary: { redemptions: 5 },
      metadata: null,
      category: null,
    };
    (body.voucher as Record<string, unknown>).sdk_internal = { x: 1 };
    const reply = await api.call('create-campaign', { json: body });
    expect(reply.status).toBe(200);
    expect(reply.json.id).not.toBe('camp_chosen_by_client');
    expect(reply.json.created_at).not.toBe('2001-01-01T00:00:00.000Z');
    expect(reply.json.name).toBe('liberal-one');
    const got = await api.call('get-campaign', { params: { campaignId: String(reply.json.id) } });
    expect(got.status).toBe(200);
    const logged = lines().find((l) => l.message === 'request keys ignored' && l.route === 'create-campaign');
    expect(logged).toMatchObject({ level: 'debug', part: 'json', request_id: reply.headers['X-Request-Id'] ?? reply.headers['x-request-id'] });
    expect(String(logged?.keys)).toContain('voucher.sdk_internal (unknown)');
    expect(String(logged?.keys)).toContain('project_id (unknown)');
    expect(String(logged?.keys)).toContain('metadata (null)');
    expect(String(logged?.keys)).not.toContain('camp_chosen_by_client');
  });

  it('still refuses a wrong value sent beside an undocumented key, naming only the value', async () => {
    const reply = await api.call('create-campaign', { json: { ...campaignBodies.DISCOUNT_COUPONS('liberal-bad'), vouchers_count: 'many', extra: 1 } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'invalid_payload' });
    expect(String(reply.json.details)).toContain('.vouchers_count');
    expect(String(reply.json.details)).not.toContain('extra');
  });

  it('takes an order with `currency` and a validation with `customer: null`', async () => {
    const order = await api.call('create-order', { json: { amount: 1000, currency: 'EUR', source_id: 'liberal-ord', status: 'CREATED' } });
    expect(order.status).toBe(200);
    expect(order.json.amount).toBe(1000);
    await api.call('create-campaign', { json: campaignBodies.DISCOUNT_COUPONS('liberal-val') });
    const voucher = await api.call('add-vouchers-to-campaign', { params: { campaignId: 'liberal-val' }, json: {} });
    expect(voucher.status).toBe(200);
    const validation = await api.call('validate-stacked-discounts', {
      json: {
        redeemables: [{ object: 'voucher', id: voucher.json.code }],
        order: { amount: 1000, currency: 'EUR' },
        customer: null,
        channel: null,
        session: null,
      },
    });
    expect(validation.status).toBe(200);
    expect(validation.json.valid).toBe(true);
  });

  it('publishes to a whole campaign and customer object where a reference is enough, with null channel and metadata', async () => {
    const campaign = await api.call('create-campaign', { json: { ...campaignBodies.DISCOUNT_COUPONS('liberal-pub'), vouchers_count: 1 } });
    expect(campaign.status).toBe(200);
    const reply = await api.call('create-publication', {
      json: {
        campaign: { ...campaign.json, name: 'liberal-pub', count: 1, summary: { redemptions: 0 } },
        customer: { source_id: 'liberal-holder', object: 'customer', summary: { orders: {} }, metadata: null, created_at: '2001-01-01T00:00:00Z' },
        channel: null,
        metadata: null,
      },
    });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    expect(reply.json).toMatchObject({ result: 'SUCCESS', customer: { source_id: 'liberal-holder' } });
  });

  it("creates a loyalty program whose card template carries the card's read-only figures (balance, next expiration)", async () => {
    const body = campaignBodies.LOYALTY_PROGRAM('liberal-club');
    const voucher = { ...body.voucher, loyalty_card: { ...body.voucher.loyalty_card, balance: 999, expired_points: 0, next_expiration_date: '2030-01-01' } };
    const reply = await api.call('create-campaign', { json: { ...body, voucher } });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    expect(reply.json).toMatchObject({ campaign_type: 'LOYALTY_PROGRAM', voucher: { loyalty_card: { points: 100 } } });
  });

  it('ignores undocumented query parameters of a list', async () => {
    const reply = await api.call('list-campaigns', { query: 'limit=1&sdk_flag=true&filters_unknown[x]=1' });
    expect(reply.status).toBe(200);
    expect((reply.json.campaigns as unknown[]).length).toBeLessThanOrEqual(1);
  });
});
