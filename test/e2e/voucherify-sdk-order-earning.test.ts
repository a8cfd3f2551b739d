import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** Earning from paid orders through the official SDK, against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-order-earning');
  const pair = await createProject(testRuntime(), 'sdk order earning project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: earning from orders', () => {
  it('creates an order.paid rule, pays an order (twice, in parallel) and cancels it: one accrual, one take-back', async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK order club',
      campaign_type: 'LOYALTY_PROGRAM',
      type: 'AUTO_UPDATE',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 }, code_config: { pattern: 'ORD-######' } },
    } as unknown as Parameters<typeof client.campaigns.create>[0]);
    const rules = await client.loyalties.createEarningRule(campaign.id, [
      {
        event: 'order.paid',
        loyalty: { type: 'PROPORTIONAL', calculation_type: 'ORDER_AMOUNT', order: { amount: { every: 1000, points: 2 } } },
        source: { banner: 'Paid orders' },
      } as never,
    ]);
    expect(rules).toMatchObject([{ event: 'order.paid', loyalty: { calculation_type: 'ORDER_AMOUNT' }, object: 'earning_rule' }]);
    const card = await client.loyalties.createMember(campaign.id, { customer: { source_id: 'sdk-order-ann' } });

    const order = await client.orders.create({ source_id: 'sdk-order-1', amount: 5_500, customer: { source_id: 'sdk-order-ann' } } as never);
    const paid = await Promise.all([client.orders.update({ id: order.id, status: 'PAID' }), client.orders.update({ id: order.id, status: 'PAID' })]);
    expect(paid.map((o) => o.status)).toEqual(['PAID', 'PAID']);
    expect((await client.loyalties.getMember(campaign.id, card.code)).loyalty_card).toMatchObject({ points: 10, balance: 10 });

    await client.orders.update({ id: order.id, status: 'CANCELED' });
    expect((await client.loyalties.getMember(campaign.id, card.code)).loyalty_card).toMatchObject({ balance: 0 });

    const txs = (await client.loyalties.listCardTransactions(card.code, campaign.id)) as unknown as {
      data: { type: string; details: { balance: { points: number; operation_type: string }; order?: { id: string; source_id: string } } }[];
    };
    const byType = (type: string) => txs.data.filter((t) => t.type === type);
    expect(byType('POINTS_ACCRUAL')).toHaveLength(1);
    expect(byType('POINTS_REMOVAL')).toHaveLength(1);
    expect(byType('POINTS_ACCRUAL')[0]?.details).toMatchObject({
      balance: { points: 10, operation_type: 'AUTOMATIC' },
      order: { id: order.id, source_id: 'sdk-order-1' },
    });
    expect(byType('POINTS_REMOVAL')[0]?.details).toMatchObject({ balance: { points: -10, operation_type: 'AUTOMATIC' }, order: { id: order.id } });
  }, 60_000);
});
