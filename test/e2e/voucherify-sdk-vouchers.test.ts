import { DiscountVouchersTypesEnum, VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The voucher calls of the official SDK against the whole local runtime, with a jobs queue of this file's own. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-vouchers');
  const pair = await createProject(testRuntime(), 'sdk vouchers project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: vouchers', () => {
  it('disables, updates and enables a voucher; a disabled one is not published', async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK toggles',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: DiscountVouchersTypesEnum.AMOUNT, amount_off: 500 } },
    });
    await client.campaigns.addVoucher(campaign.id, { code: 'SDK-TOGGLE' } as never);
    const off = await client.vouchers.disable('SDK-TOGGLE');
    expect(off).toMatchObject({ code: 'SDK-TOGGLE', active: false });
    await expect(client.distributions.publications.create({ campaign: { name: 'SDK toggles' }, customer: { source_id: 'sdk-ann' } })).rejects.toMatchObject({
      key: 'no_voucher_suitable_for_publication',
    });
    const updated = await client.vouchers.update({ code: 'SDK-TOGGLE', metadata: { via: 'sdk' }, additional_info: 'updated' } as never);
    expect(updated).toMatchObject({ code: 'SDK-TOGGLE', active: false, metadata: { via: 'sdk' }, additional_info: 'updated' });
    const on = await client.vouchers.enable('SDK-TOGGLE');
    expect(on).toMatchObject({ code: 'SDK-TOGGLE', active: true });
    const published = await client.distributions.publications.create({ campaign: { name: 'SDK toggles' }, customer: { source_id: 'sdk-ann' } });
    expect(published).toMatchObject({ voucher: { code: 'SDK-TOGGLE' } });
  });

  it("adds and removes a gift card's credits and lists the transactions", async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK gift cards',
      campaign_type: 'GIFT_VOUCHERS',
      type: 'STATIC',
      voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000 } },
    } as never);
    await client.campaigns.addVoucher(campaign.id, { code: 'SDK-GIFT' } as never);
    const added = await client.vouchers.balance.create('SDK-GIFT', { amount: 500 });
    expect(added).toMatchObject({ amount: 500, total: 1500, balance: 1500, type: 'gift_voucher', object: 'balance' });
    const removed = await client.vouchers.balance.create('SDK-GIFT', { amount: -1500 });
    expect(removed).toMatchObject({ balance: 0 });
    await expect(client.vouchers.balance.create('SDK-GIFT', { amount: -1 })).rejects.toMatchObject({ key: 'invalid_balance' });
    const listed = await client.vouchers.listTransactions('SDK-GIFT', { limit: 1 });
    expect(listed).toMatchObject({ object: 'list', has_more: true, data: [{ type: 'CREDITS_REMOVAL' }] });
    const next = await client.vouchers.listTransactions('SDK-GIFT', { limit: 1, starting_after_id: listed.more_starting_after } as never);
    expect(next).toMatchObject({ has_more: false, data: [{ type: 'CREDITS_ADDITION' }] });
  });
});
