import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's single-code calls (the deprecated ones older integrations use) against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-legacy-calls');
  const pair = await createProject(testRuntime(), 'sdk legacy calls project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: single-code calls', () => {
  it('validates one code through validations.validateVoucher, with the figures, and a failing code as valid: false', async () => {
    await client.vouchers.create({ code: 'SDK-OLD-PCT', type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 20 } } as never);
    const reply = await client.validations.validateVoucher('SDK-OLD-PCT', {
      order: { items: [{ product_id: 'prod_sdk', quantity: 3, price: 1000 }] },
      customer: { source_id: 'sdk-old-shopper' },
    } as never);
    expect(reply).toMatchObject({ valid: true, code: 'SDK-OLD-PCT', discount: { type: 'PERCENT', percent_off: 20 } });
    // 3000 − 20% = 2400.
    expect(reply.order).toMatchObject({ amount: 3000, total_discount_amount: 600, total_amount: 2400 });
    expect(reply.tracking_id).toMatch(/^track_/);

    await client.vouchers.create({ code: 'SDK-OLD-OFF', type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, active: false } as never);
    const off = await client.validations.validateVoucher('SDK-OLD-OFF', { order: { amount: 1000 } } as never);
    expect(off).toMatchObject({ valid: false, code: 'SDK-OLD-OFF', reason: 'voucher is disabled', error: { code: 400, key: 'voucher_disabled' } });

    await expect(client.validations.validateVoucher('SDK-OLD-NONE', { order: { amount: 1000 } } as never)).rejects.toMatchObject({
      code: 404,
      key: 'not_found',
    });
  });

  it('redeems one code through redemptions.redeem, with the figures, the use counted, and a refusal as an error', async () => {
    await client.vouchers.create({
      code: 'SDK-OLD-REDEEM',
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'AMOUNT', amount_off: 700 },
      redemption: { quantity: 1 },
    } as never);
    const redemption = await client.redemptions.redeem('SDK-OLD-REDEEM', {
      order: { items: [{ product_id: 'prod_sdk', quantity: 2, price: 1500 }] },
      customer: { source_id: 'sdk-old-redeemer' },
    } as never);
    expect(redemption).toMatchObject({ object: 'redemption', result: 'SUCCESS', voucher: { code: 'SDK-OLD-REDEEM' } });
    // 3000 − 700 = 2300.
    expect(redemption.order).toMatchObject({ amount: 3000, total_discount_amount: 700, total_amount: 2300 });
    const voucher = await client.vouchers.get('SDK-OLD-REDEEM');
    expect(voucher.redemption).toMatchObject({ quantity: 1, redeemed_quantity: 1 });
    await expect(client.redemptions.redeem('SDK-OLD-REDEEM', { order: { amount: 1000 } } as never)).rejects.toMatchObject({
      code: 400,
      key: 'quantity_exceeded',
    });
  });
});
