import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's activity calls (customers.listActivity, customers.listActivities, loyalties.listMemberActivity and getMemberActivities), against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-activity');
  const pair = await createProject(testRuntime(), 'sdk activity project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

type Page = { data: { id: string; type: string }[]; has_more: boolean; more_starting_after?: string };

describe('the official Voucherify SDK: customer and loyalty member activity', () => {
  it("pages through a customer's activity and a card's with the SDK's calls", async () => {
    const program = (await client.campaigns.create({
      name: 'Sdk activity club',
      campaign_type: 'LOYALTY_PROGRAM',
      vouchers_count: 1,
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    } as never)) as { id: string };
    const customer = (await client.customers.create({ source_id: 'sdk-active', name: 'Active' })) as { id: string };
    await client.customers.update({ id: customer.id, name: 'Active Again' } as never);
    const published = await client.distributions.publications.create({ customer: { source_id: 'sdk-active' }, campaign: { name: 'Sdk activity club' } });
    const code = (published as { voucher: { code: string } }).voucher.code;
    await client.loyalties.addOrRemoveCardBalance(code, { points: 25 } as never);

    const first = (await client.customers.listActivity('sdk-active', { limit: 2 } as never)) as unknown as Page;
    expect(first.data.map((e) => e.type)).toEqual(['customer.voucher.loyalty_card.points_added', 'customer.publication.succeeded']);
    expect(first.has_more).toBe(true);
    const rest = (await client.customers.listActivity('sdk-active', { limit: 5, starting_after_id: first.more_starting_after } as never)) as unknown as Page;
    expect(rest.data.map((e) => e.type)).toEqual(['customer.updated', 'customer.created']);
    const older = (await client.customers.listActivities(customer.id, { campaign_type: 'LOYALTY_PROGRAM' })) as unknown as Page & { total: number };
    expect(older.total).toBe(2);

    const card = (await client.loyalties.listMemberActivity(program.id, code, { order: 'created_at' } as never)) as unknown as Page;
    expect(card.data.map((e) => e.type)).toEqual(['customer.publication.succeeded', 'customer.voucher.loyalty_card.points_added']);
    const byCode = (await client.loyalties.listMemberActivity(null, code)) as unknown as Page;
    expect(byCode.data).toHaveLength(2);
  });

  it("answers the deprecated loyalties.getMemberActivities on its `…/activities` paths with the card's activity", async () => {
    const program = (await client.campaigns.create({
      name: 'Sdk activities club',
      campaign_type: 'LOYALTY_PROGRAM',
      vouchers_count: 1,
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    } as never)) as { id: string };
    await client.customers.create({ source_id: 'sdk-activities', name: 'Old Path' });
    const published = await client.distributions.publications.create({ customer: { source_id: 'sdk-activities' }, campaign: { name: 'Sdk activities club' } });
    const code = (published as { voucher: { code: string } }).voucher.code;
    await client.loyalties.addOrRemoveCardBalance(code, { points: 5 } as never);

    const newestFirst = ['customer.voucher.loyalty_card.points_added', 'customer.publication.succeeded'];
    const byProgram = (await client.loyalties.getMemberActivities(program.id, code)) as unknown as Page;
    expect(byProgram.data.map((e) => e.type)).toEqual(newestFirst);
    const byCode = (await client.loyalties.getMemberActivities(null as never, code)) as unknown as Page;
    expect(byCode.data.map((e) => e.id)).toEqual(byProgram.data.map((e) => e.id));
  });
});
