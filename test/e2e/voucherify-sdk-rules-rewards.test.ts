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

/** Plain HTTP with the project's key pair, for what the SDK has no call for. */
async function api(method: string, path: string, json?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${local.apiUrl}${path}`, {
    method,
    headers: { 'x-app-id': pair.app_id, 'x-app-token': pair.app_token, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Earning rules and rewards through the official SDK against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-rules-rewards');
  local = runtime.local;
  pair = await createProject(testRuntime(), 'sdk rules and rewards project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

async function loyaltyProgram(name: string): Promise<string> {
  const campaign = await client.campaigns.create({
    name,
    campaign_type: 'LOYALTY_PROGRAM',
    type: 'AUTO_UPDATE',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  } as unknown as Parameters<typeof client.campaigns.create>[0]);
  return campaign.id;
}

describe('the official Voucherify SDK: earning rules', () => {
  it('lists, updates, disables and enables an earning rule, and a disabled rule earns nothing', async () => {
    const campaignId = await loyaltyProgram('SDK rules club');
    await client.campaigns.addVoucher(campaignId, { code: 'SDK-RULES-1' } as never);
    expect((await api('POST', '/v1/custom-event-schemas', { name: 'visited', schema: { properties: {} } })).status).toBe(200);
    const [rule] = await client.loyalties.createEarningRule(campaignId, [{ event: 'visited', loyalty: { type: 'FIXED', points: 5 } }]);
    const ruleId = (rule as { id: string }).id;

    const list = await client.loyalties.listEarningRules(campaignId, { limit: 10, page: 1 });
    expect(list).toMatchObject({ object: 'list', total: 1, data: [{ id: ruleId, active: true }] });

    const updated = await client.loyalties.updateEarningRule(campaignId, { id: ruleId, loyalty: { type: 'FIXED', points: 8 } } as never);
    expect(updated).toMatchObject({ id: ruleId, loyalty: { type: 'FIXED', points: 8 } });
    expect((updated as { updated_at: string | null }).updated_at).not.toBeNull();

    const visit = () => client.events.create('visited', { event: 'visited', customer: { source_id: 'sdk-rules-ann' }, loyalty: { code: 'SDK-RULES-1' } });
    const balance = async () => ((await client.vouchers.get('SDK-RULES-1')).loyalty_card as unknown as { balance: number }).balance;
    await visit();
    expect(await balance()).toBe(8);

    expect(await client.loyalties.disableEarningRule(campaignId, ruleId)).toMatchObject({ id: ruleId, active: false });
    await visit();
    expect(await balance()).toBe(8);

    expect(await client.loyalties.enableEarningRule(campaignId, ruleId)).toMatchObject({ id: ruleId, active: true });
    await visit();
    expect(await balance()).toBe(16);

    await expect(client.loyalties.disableEarningRule(campaignId, 'ern_missing')).rejects.toMatchObject({ code: 404, key: 'not_found' });
  });
});
