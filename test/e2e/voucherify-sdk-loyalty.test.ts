import { setTimeout as sleep } from 'node:timers/promises';
import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../infra/local/start-local.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { createProject, type IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import { testRuntime } from '../support/runtime.js';

let local: LocalRuntime;
let runtime: OwnLocalRuntime;
let pair: IssuedKeyPair;
let client: ReturnType<typeof VoucherifyServerSide>;

const DAY = 86_400_000;
const dateIn = (days: number): string => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/** Plain HTTP with the project's key pair, for what the SDK has no call for. */
async function api(method: string, path: string, json?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${local.apiUrl}${path}`, {
    method,
    headers: { 'x-app-id': pair.app_id, 'x-app-token': pair.app_token, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

type SdkExport = Awaited<ReturnType<typeof client.distributions.exports.get>>;

async function exportWhenFinal(id: string): Promise<SdkExport> {
  for (let i = 0; i < 300; i += 1) {
    const got = await client.distributions.exports.get(id);
    if (got.status === 'DONE' || got.status === 'ERROR') return got;
    await sleep(100);
  }
  throw new Error(`export ${id} did not finish`);
}

/**
 * The loyalty side of the official SDK against the whole local runtime (HTTP servers, handlers,
 * the real worker and poller), on the suite's engines with a jobs queue of this file's own.
 */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-loyalty');
  local = runtime.local;
  pair = await createProject(testRuntime(), 'sdk loyalty project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: rewards, events, loyalty points and the points-expiration export', () => {
  it('creates a reward and assigns it to a loyalty program, tracks a custom event that earns points, adds and spends points, and exports the buckets to a CSV it downloads', async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK club',
      campaign_type: 'LOYALTY_PROGRAM',
      type: 'AUTO_UPDATE',
      vouchers_count: 1,
      voucher: {
        type: 'LOYALTY_CARD',
        loyalty_card: { points: 0, expiration_rules: { period_type: 'MONTH', period_value: 3, rounding_type: 'END_OF_MONTH' } },
        code_config: { pattern: 'CLUB-#####', charset: 'ABCDEFGHJK' },
      },
    } as unknown as Parameters<typeof client.campaigns.create>[0]);
    expect(campaign).toMatchObject({ name: 'SDK club', campaign_type: 'LOYALTY_PROGRAM', vouchers_count: 1, object: 'campaign' });
    const card = (await client.campaigns.addVoucher(campaign.id, { code: 'SDK-CARD-1' } as never)) as unknown as { id: string; code: string };
    expect(card).toMatchObject({ code: 'SDK-CARD-1', campaign_id: campaign.id, type: 'LOYALTY_CARD' });
    const other = (await client.campaigns.addVoucher(campaign.id, { code: 'SDK-CARD-2' } as never)) as unknown as { id: string };

    // Rewards
    const reward = await client.rewards.create({
      name: 'Comic book',
      type: 'MATERIAL',
      parameters: { product: { id: 'prod_comic' } },
      stock: 5,
      metadata: { shelf: 'B' },
    } as unknown as Parameters<typeof client.rewards.create>[0]);
    expect(reward).toMatchObject({ name: 'Comic book', type: 'MATERIAL', stock: 5, metadata: { shelf: 'B' }, object: 'reward' });
    expect(reward.id).toMatch(/^rew_/);
    const assignment = await client.rewards.createAssignment(reward.id, { campaign: campaign.id, parameters: { loyalty: { points: 150 } } });
    expect(assignment).toMatchObject({
      reward_id: reward.id,
      related_object_id: campaign.id,
      related_object_type: 'campaign',
      parameters: { loyalty: { points: 150 } },
      object: 'reward_assignment',
    });
    expect(assignment.id).toMatch(/^rewa_/);
    await expect(client.rewards.createAssignment(reward.id, { campaign: campaign.id, parameters: { loyalty: { points: 150 } } })).rejects.toMatchObject({
      code: 409,
      key: 'duplicate_found',
    });
    expect(await client.rewards.get(reward.id)).toMatchObject({ id: reward.id, name: 'Comic book' });
    // The SDK's typings allow a COIN assignment without parameters; the spec requires the points.
    const coin = await client.rewards.create({
      name: 'Pay with points',
      type: 'COIN',
      parameters: { coin: { exchange_ratio: 1, points_ratio: 10 } },
    } as unknown as Parameters<typeof client.rewards.create>[0]);
    expect(coin).toMatchObject({ type: 'COIN', parameters: { coin: { exchange_ratio: 1, points_ratio: 10 } } });
    await expect(client.rewards.createAssignment(coin.id, { campaign: campaign.id })).rejects.toMatchObject({ code: 400, key: 'invalid_payload' });
    expect(await client.rewards.createAssignment(coin.id, { campaign: campaign.name, parameters: { loyalty: { points: 1 } } })).toMatchObject({
      related_object_id: campaign.id,
    });

    // A custom event the project defines (no SDK call for schemas), and an earning rule on it.
    const schema = await api('POST', '/v1/custom-event-schemas', {
      name: 'order_paid',
      schema: { properties: { amount: { type: 'number', optional: false } } },
    });
    expect(schema.status).toBe(200);
    expect(schema.json).toMatchObject({ name: 'order_paid', object: 'custom-event-schema' });
    const rules = await client.loyalties.createEarningRule(campaign.id, [
      { event: 'order_paid', loyalty: { type: 'FIXED', points: 5 }, source: { banner: 'Paid' } },
    ]);
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ event: 'order_paid', loyalty: { type: 'FIXED', points: 5 } });

    const event = await client.events.create('order_paid', {
      event: 'order_paid',
      customer: { source_id: 'sdk-ann', name: 'Ann', email: 'ann@example.com' },
      metadata: { amount: 42 },
      loyalty: { code: 'SDK-CARD-1' },
    });
    expect(event).toMatchObject({
      object: 'event',
      type: 'order_paid',
      customer: { source_id: 'sdk-ann', name: 'Ann', email: 'ann@example.com', object: 'customer' },
      referral: null,
      loyalty: null,
      metadata: { amount: 42 },
    });
    await expect(client.events.create('never_defined', { event: 'never_defined', customer: { source_id: 'sdk-ann' } })).rejects.toMatchObject({ code: 404 });
    await expect(
      client.events.create('order_paid', { event: 'order_paid', customer: { source_id: 'sdk-ann' }, metadata: { amount: 'lots' } }),
    ).rejects.toMatchObject({ code: 400 });

    // Points: one bucket from the event (program rules), one expiring soon, one never; then a spend.
    const soon = dateIn(10);
    const added = await client.loyalties.addPoints(campaign.id, 'SDK-CARD-1', { points: 40, expiration_type: 'CUSTOM_DATE', expiration_date: soon } as never);
    expect(added).toMatchObject({
      points: 40,
      total: 45,
      balance: 45,
      type: 'loyalty_card',
      object: 'balance',
      related_object: { type: 'voucher', id: card.id },
    });
    expect(await client.loyalties.addPoints(campaign.id, 'SDK-CARD-1', { points: 25, expiration_type: 'NON_EXPIRING' } as never)).toMatchObject({
      balance: 70,
    });
    expect(await client.loyalties.addPoints(campaign.id, 'SDK-CARD-1', { points: -10 })).toMatchObject({ points: -10, total: 70, balance: 60 });
    expect(await client.loyalties.addPoints(campaign.id, other.id, { points: 7 })).toMatchObject({ balance: 7 });
    await expect(client.loyalties.addPoints(campaign.id, 'SDK-CARD-1', { points: -1000 })).rejects.toMatchObject({ code: 400, key: 'not_enough_points' });

    const voucher = await api('GET', '/v1/vouchers/SDK-CARD-1');
    expect(voucher.status).toBe(200);
    expect(voucher.json.loyalty_card).toMatchObject({ points: 70, balance: 60, subtracted_points: 10, next_expiration_date: soon, next_expiration_points: 30 });
    const expirations = await client.loyalties.getPointsExpiration(campaign.id, 'SDK-CARD-1');
    expect(expirations.data.map((b) => [b.expires_at ?? null, b.bucket.total_points])).toEqual([
      [soon, 30],
      [expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), 5],
      [null, 25],
    ]);
    const ruleDate = expirations.data[1]?.expires_at ?? '';

    // The export: plain HTTP to create it, the SDK to follow it, the download cluster for the file.
    const parameters = {
      fields: ['voucher_id', 'points', 'expires_at', 'status'],
      order: 'expires_at',
      filters: { junction: 'and', voucher_id: { conditions: { $in: [card.id] } } },
    };
    const created = await api('POST', `/v1/loyalties/${campaign.id}/points-expiration/export`, { parameters });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      object: 'export',
      status: 'SCHEDULED',
      channel: 'API',
      exported_object: 'points_expiration',
      parameters,
      result: null,
      user_id: null,
    });
    const exportId = created.json.id as string;
    const done = await exportWhenFinal(exportId);
    expect(done).toMatchObject({ id: exportId, object: 'export', status: 'DONE', channel: 'API', exported_object: 'points_expiration', parameters });
    const url = new URL((done.result as { url: string }).url);
    expect(`${url.origin}${url.pathname}`).toBe(`${local.downloadUrl}/v1/exports/${exportId}`);
    expect(url.searchParams.get('token')).toBeTruthy();

    // A file this small comes in the download cluster's own reply, to a client that follows no redirect.
    const file = await fetch(url, { redirect: 'manual' });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    const lines = (await file.text()).split('\r\n');
    expect(lines).toEqual([
      'voucher_id,points,expires_at,status',
      `${card.id},30,${soon},ACTIVE`,
      `${card.id},5,${ruleDate},ACTIVE`,
      `${card.id},25,,ACTIVE`,
      '',
    ]);
  });

  it('serves the download through the local download port: 200 text/csv to the link and to the key pair, and the 401 error object for a bad or missing token', async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK download club',
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    } as unknown as Parameters<typeof client.campaigns.create>[0]);
    await client.campaigns.addVoucher(campaign.id, { code: 'DL-CARD-1' } as never);
    await client.loyalties.addPoints(campaign.id, 'DL-CARD-1', { points: 12, expiration_type: 'NON_EXPIRING' } as never);
    const created = await api('POST', `/v1/loyalties/${encodeURIComponent('SDK download club')}/points-expiration/export`, {
      parameters: { fields: ['points', 'status'] },
    });
    expect(created.status).toBe(200);
    const exportId = created.json.id as string;
    const done = await exportWhenFinal(exportId);
    expect(done.status).toBe('DONE');
    const url = new URL((done.result as { url: string }).url);

    const file = await fetch(url, { redirect: 'manual' });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await file.text()).toBe('points,status\r\n12,ACTIVE\r\n');
    // The same file to the project's key pair, without the token (Voucherify's reference secures the download so).
    const byPair = await fetch(`${local.downloadUrl}/v1/exports/${exportId}`, {
      headers: { 'x-app-id': pair.app_id, 'x-app-token': pair.app_token },
      redirect: 'manual',
    });
    expect(byPair.status).toBe(200);
    expect(await byPair.text()).toBe('points,status\r\n12,ACTIVE\r\n');

    const token = url.searchParams.get('token') ?? '';
    const bad = [
      `${local.downloadUrl}/v1/exports/${exportId}`,
      `${local.downloadUrl}/v1/exports/${exportId}?token=nonsense`,
      `${local.downloadUrl}/v1/exports/${exportId}?token=${encodeURIComponent(`${token}x`)}`,
      `${local.downloadUrl}/v1/exports/exp_other?token=${encodeURIComponent(token)}`,
    ];
    for (const target of bad) {
      const reply = await fetch(target, { redirect: 'manual' });
      expect(reply.status, target).toBe(401);
      expect(reply.headers.get('location')).toBeNull();
      expect(await reply.json()).toMatchObject({ code: 401, key: 'unauthorized', message: 'Unauthorized', request_id: expect.any(String) });
    }
    // The API cluster's GET of the same path wants the key pair, not a token.
    const noKeys = await fetch(`${local.apiUrl}/v1/exports/${exportId}?token=${encodeURIComponent(token)}`);
    expect(noKeys.status).toBe(401);
  });
});
