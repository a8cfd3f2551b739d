import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;
let pair: { app_id: string; app_token: string };

/** The official SDK's single-code calls (the deprecated ones older integrations use) against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-legacy-calls');
  pair = await createProject(testRuntime(), 'sdk legacy calls project');
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

  it('redeems one promotion tier through promotions.tiers.redeem, and validates a tier over plain HTTP (no SDK method)', async () => {
    const campaign = (await client.campaigns.create({
      name: 'SDK old promo',
      campaign_type: 'PROMOTION',
      promotion: { tiers: [{ name: 'Quarter off', action: { discount: { type: 'PERCENT', percent_off: 25 } } }] },
    } as never)) as unknown as { promotion: { tiers: { id: string }[] } };
    const tierId = campaign.promotion.tiers[0]?.id ?? '';
    const validation = await fetch(`${runtime.local.apiUrl}/v1/promotions/tiers/${tierId}/validation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-id': pair.app_id, 'x-app-token': pair.app_token },
      body: JSON.stringify({ order: { amount: 4000 } }),
    });
    expect(validation.status).toBe(200);
    expect(await validation.json()).toMatchObject({ valid: true, id: tierId, discount_amount: 1000, order: { total_amount: 3000 } });
    const redemption = await client.promotions.tiers.redeem(tierId, { order: { amount: 4000 }, customer: { source_id: 'sdk-old-promo' } } as never);
    expect(redemption).toMatchObject({ object: 'redemption', result: 'SUCCESS', related_object_type: 'promotion_tier', related_object_id: tierId });
    expect(redemption.order).toMatchObject({ amount: 4000, total_discount_amount: 1000, total_amount: 3000 });
  });
});
