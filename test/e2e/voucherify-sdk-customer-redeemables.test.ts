import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's calls on a customer's redeemables, against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-customer-redeemables');
  const pair = await createProject(testRuntime(), 'sdk customer redeemables project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: customer redeemables', () => {
  it('lists the vouchers published to a customer with customers.listRedeemables, page by page', async () => {
    await client.campaigns.create({
      name: 'Sdk coupons',
      campaign_type: 'DISCOUNT_COUPONS',
      vouchers_count: 3,
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
    } as never);
    for (let i = 0; i < 3; i++) await client.distributions.publications.create({ customer: { source_id: 'sdk-holder' }, campaign: { name: 'Sdk coupons' } });
    const first = await client.customers.listRedeemables('sdk-holder', { limit: 2, order: '-created_at' });
    expect(first).toMatchObject({ object: 'list', total: 3, has_more: true });
    const rest = await client.customers.listRedeemables('sdk-holder', { limit: 2, order: '-created_at', starting_after_id: first.more_starting_after });
    const codes = [...first.data, ...rest.data].map((r) => r.redeemable?.voucher?.code);
    expect(new Set(codes).size).toBe(3);
    expect(rest.data[0]).toMatchObject({ holder_role: 'OWNER', redeemable: { type: 'voucher', status: 'ACTIVE' } });
  });
});
