import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's stacked validation against the whole local runtime, with a jobs queue of this file's own. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-validations');
  const pair = await createProject(testRuntime(), 'sdk validations project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: validations', () => {
  it('validates a cart with two codes and a gift card through validations.validateStackable, with the figures', async () => {
    await client.vouchers.create({ code: 'SDK-OFF5', type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } } as never);
    await client.vouchers.create({ code: 'SDK-PCT10', type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } } as never);
    await client.vouchers.create({ code: 'SDK-GIFT', type: 'GIFT_VOUCHER', gift: { amount: 1000 } } as never);
    const reply = await client.validations.validateStackable({
      redeemables: [
        { object: 'voucher', id: 'SDK-OFF5' },
        { object: 'voucher', id: 'SDK-PCT10' },
        { object: 'gift_card', id: 'SDK-GIFT', gift: { credits: 200 } },
      ],
      order: { items: [{ product_id: 'prod_sdk', quantity: 2, price: 2000 }] },
      customer: { source_id: 'sdk-validator' },
    } as never);
    expect(reply.valid).toBe(true);
    expect(reply.redeemables?.map((r) => r.status)).toEqual(['APPLICABLE', 'APPLICABLE', 'APPLICABLE']);
    // 4000 − 500 = 3500; 10% of 3500 = 350 → 3150; 200 credits → 2950.
    expect(reply.order).toMatchObject({ amount: 4000, total_discount_amount: 1050, total_amount: 2950 });
    expect(reply.redeemables?.[2]).toMatchObject({ result: { gift: { balance: 1000, credits: 200 } } });
    expect(reply.stacking_rules).toMatchObject({ applicable_redeemables_limit: 5 });

    const invalid = await client.validations.validateStackable({ redeemables: [{ object: 'voucher', id: 'SDK-NONE' }], order: { amount: 100 } } as never);
    expect(invalid.valid).toBe(false);
    expect(invalid.redeemables?.[0]).toMatchObject({ status: 'INAPPLICABLE', result: { error: { key: 'resource_not_found' } } });
  });
});
