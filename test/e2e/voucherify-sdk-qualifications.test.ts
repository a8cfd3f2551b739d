import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's qualifications against the whole local runtime, with a jobs queue of this file's own. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-qualifications');
  const pair = await createProject(testRuntime(), 'sdk qualifications project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: qualifications', () => {
  it('lists what a customer can use on a cart through qualifications.checkEligibility: their published voucher and an active tier', async () => {
    const coupons = await client.campaigns.create({
      name: 'SDK wallet',
      campaign_type: 'DISCOUNT_COUPONS',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 700 } },
    } as never);
    await client.campaigns.addVoucher(coupons.id, { code: 'SDK-MINE' } as never);
    const published = await client.distributions.publications.create({ campaign: { name: 'SDK wallet' }, customer: { source_id: 'sdk-shopper' } } as never);
    expect(published.voucher.code).toBe('SDK-MINE');
    const promo = await client.campaigns.create({
      name: 'SDK promo',
      campaign_type: 'PROMOTION',
      promotion: {
        tiers: [
          { name: 'Two off', action: { discount: { type: 'AMOUNT', amount_off: 200 } } },
          { name: 'Sleeping', active: false, action: { discount: { type: 'AMOUNT', amount_off: 900 } } },
        ],
      },
    } as never);
    const tierId = (promo as unknown as { promotion: { tiers: { id: string }[] } }).promotion.tiers[0]?.id;

    const reply = await client.qualifications.checkEligibility({
      customer: { source_id: 'sdk-shopper' },
      order: { amount: 5000 },
      scenario: 'ALL',
      options: { limit: 10, sorting_rule: 'BEST_DEAL' },
    });
    expect(reply.redeemables?.data?.map((r) => [r.object, r.id])).toEqual([
      ['voucher', 'SDK-MINE'],
      ['promotion_tier', tierId],
    ]);
    expect(reply.redeemables).toMatchObject({ total: 2, has_more: false });
    expect(reply.redeemables?.data?.[0]).toMatchObject({ result: { discount: { type: 'AMOUNT', amount_off: 700 } }, order: { total_amount: 4300 } });

    const wallet = await client.qualifications.checkEligibility({
      customer: { source_id: 'sdk-shopper' },
      scenario: 'CUSTOMER_WALLET',
      order: { amount: 5000 },
    });
    expect(wallet.redeemables?.data?.map((r) => r.id)).toEqual(['SDK-MINE']);
  });

  it('lists the tiers a cart with no codes qualifies for through promotions.validate (legacy), in hierarchy order', async () => {
    await client.campaigns.create({
      name: 'SDK tiers',
      campaign_type: 'PROMOTION',
      promotion: {
        tiers: [
          { name: 'Second', hierarchy: 2, action: { discount: { type: 'AMOUNT', amount_off: 300 } } },
          { name: 'First', hierarchy: 1, action: { discount: { type: 'AMOUNT', amount_off: 100 } } },
        ],
      },
    } as never);
    const reply = await client.promotions.validate({ customer: { source_id: 'sdk-promo-shopper' }, order: { amount: 2000 } });
    expect(reply.valid).toBe(true);
    expect(reply.promotions?.filter((p) => p.name === 'First' || p.name === 'Second').map((p) => [p.name, p.hierarchy])).toEqual([
      ['First', 1],
      ['Second', 2],
    ]);
  });
});
