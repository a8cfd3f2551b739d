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

describe('the official Voucherify SDK: rewards and their assignments', () => {
  it('lists, updates and deletes rewards, lists a reward’s assignments, and serves the loyalty-path assignment calls', async () => {
    const campaignId = await loyaltyProgram('SDK rewards club');
    const reward = await client.rewards.create({ name: 'Mug', type: 'MATERIAL', parameters: { product: { id: 'prod_mug' } }, stock: 3 } as never);
    const spare = await client.rewards.create({ name: 'Spare', type: 'COIN', parameters: { coin: { exchange_ratio: 1, points_ratio: 10 } } } as never);

    const list = await client.rewards.list({ limit: 10, page: 1 } as never);
    expect(list).toMatchObject({ object: 'list', total: 2 });
    expect(list.data.map((r) => r.id)).toEqual([reward.id, spare.id]);

    const updated = await client.rewards.update({ id: reward.id, name: 'Big mug', stock: 5 } as never);
    expect(updated).toMatchObject({ id: reward.id, name: 'Big mug', stock: 5, type: 'MATERIAL' });

    const assignment = await client.rewards.createAssignment(reward.id, { campaign: campaignId, parameters: { loyalty: { points: 40 } } } as never);
    const assignments = await client.rewards.listAssignments(reward.id, { limit: 10 } as never);
    expect(assignments).toMatchObject({ object: 'list', total: 1, data: [{ id: assignment.id, parameters: { loyalty: { points: 40 } } }] });

    // The loyalty-path calls on the same assignment.
    expect(await client.loyalties.listRewardAssignments(campaignId)).toMatchObject({ total: 1, data: [{ id: assignment.id }] });
    expect(await client.loyalties.getRewardAssignment(campaignId, assignment.id)).toMatchObject({ id: assignment.id, reward_id: reward.id });
    const repriced = await client.loyalties.updateRewardAssignment(campaignId, { id: assignment.id, parameters: { loyalty: { points: 45 } } } as never);
    expect(repriced).toMatchObject({ parameters: { loyalty: { points: 45 } } });

    // An assigned reward cannot be deleted; once its assignment is gone it can.
    await expect(client.rewards.delete(reward.id)).rejects.toMatchObject({ code: 400, key: 'resource_in_use' });
    await client.loyalties.deleteRewardAssignment(campaignId, assignment.id);
    await expect(client.rewards.getAssignment(reward.id, assignment.id)).rejects.toMatchObject({ code: 404 });
    await client.rewards.delete(reward.id);
    await expect(client.rewards.get(reward.id)).rejects.toMatchObject({ code: 404 });

    const again = await client.loyalties.createRewardAssignments(campaignId, [{ reward: spare.id, parameters: { loyalty: { points: 1 } } }] as never);
    expect(again).toMatchObject({ reward_id: spare.id, related_object_id: campaignId });
    await client.rewards.deleteAssignment(spare.id, (again as unknown as { id: string }).id);
    expect(await client.rewards.list()).toMatchObject({ total: 1, data: [{ id: spare.id }] });
  });
});
