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

/** Loyalty members and their card transactions through the official SDK, against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-members');
  local = runtime.local;
  pair = await createProject(testRuntime(), 'sdk members project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: loyalty members and card transactions', () => {
  it('joins customers to a program, gets and lists the members, and lists the card transactions of points added, spent and earned', async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK members club',
      campaign_type: 'LOYALTY_PROGRAM',
      type: 'AUTO_UPDATE',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 }, code_config: { pattern: 'MEM-######' } },
    } as unknown as Parameters<typeof client.campaigns.create>[0]);

    const ann = await client.loyalties.createMember(campaign.id, { customer: { source_id: 'sdk-member-ann', name: 'Ann' }, metadata: { via: 'sdk' } });
    expect(ann).toMatchObject({ campaign_id: campaign.id, type: 'LOYALTY_CARD', loyalty_card: { points: 0, balance: 0 }, object: 'voucher' });
    expect(ann.code).toMatch(/^MEM-/);
    const customer = (await client.customers.get('sdk-member-ann')) as { id: string };
    expect((ann as unknown as { holder_id: string }).holder_id).toBe(customer.id);
    // Join-once: the same card again.
    expect((await client.loyalties.createMember(campaign.id, { customer: 'sdk-member-ann' } as never)).code).toBe(ann.code);
    const bob = await client.loyalties.createMember(campaign.id, { customer: { source_id: 'sdk-member-bob' } });
    expect(bob.code).not.toBe(ann.code);

    expect(await client.loyalties.getMember(campaign.id, ann.code)).toMatchObject({ id: ann.id, code: ann.code });
    expect(await client.loyalties.getMember(null as unknown as string, ann.id)).toMatchObject({ id: ann.id, code: ann.code });
    await expect(client.loyalties.getMember(campaign.id, 'NO-SUCH-CARD')).rejects.toMatchObject({ code: 404 });
    const members = await client.loyalties.listMembers(campaign.id, { limit: 1 });
    expect(members).toMatchObject({ object: 'list', data_ref: 'vouchers', total: 2, vouchers: [{ code: bob.code }] });
    expect((await client.loyalties.listMembers(campaign.id, { limit: 1, page: 2 })).vouchers.map((v) => v.code)).toEqual([ann.code]);

    // Points: added by hand, earned on a custom event, spent by hand.
    await client.loyalties.addPoints(campaign.id, ann.code, { points: 100, reason: 'welcome', source_id: 'crm-1' } as never);
    expect((await api('POST', '/v1/custom-event-schemas', { name: 'sdk_member_paid', schema: { properties: {} } })).status).toBe(200);
    await client.loyalties.createEarningRule(campaign.id, [{ event: 'sdk_member_paid', loyalty: { type: 'FIXED', points: 7 }, source: { banner: 'Paid' } }]);
    await client.events.create('sdk_member_paid', { event: 'sdk_member_paid', customer: { source_id: 'sdk-member-ann' }, loyalty: { code: ann.code } });
    await client.loyalties.addPoints(campaign.id, ann.code, { points: -30 });

    const transactions = await client.loyalties.listCardTransactions(ann.code, campaign.id, { limit: 10 } as never);
    expect(transactions).toMatchObject({ object: 'list', data_ref: 'data', has_more: false });
    expect(transactions.data.map((t) => [t.type, t.details?.balance?.points, t.details?.balance?.balance])).toEqual([
      ['POINTS_REMOVAL', -30, 77],
      ['POINTS_ACCRUAL', 7, 107],
      ['POINTS_ADDITION', 100, 100],
    ]);
    expect(transactions.data[2]).toMatchObject({ reason: 'welcome', source_id: 'crm-1', source: 'API' });
    expect(transactions.data[1]).toMatchObject({ details: { event: { type: 'customer.custom_event' }, custom_event: { type: 'sdk_member_paid' } } });
    const firstPage = await client.loyalties.listCardTransactions(ann.id, null as unknown as string, { limit: 1 } as never);
    expect(firstPage).toMatchObject({ has_more: true, data: [{ type: 'POINTS_REMOVAL' }] });

    const program = await api('GET', `/v1/loyalties/${campaign.id}/transactions?limit=10`);
    expect(program.status).toBe(200);
    expect((program.json.data as { voucher_id: string }[]).map((t) => t.voucher_id)).toEqual([ann.id, ann.id, ann.id]);
  });
});
