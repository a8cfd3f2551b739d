import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { createDocumentClient } from '../../../lib/db/client.js';
import { orderLoyaltyWorker } from '../../../lib/api/workers.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import { createOrder, updateOrder } from '../../../lib/orders/order.service.js';
import { dueOrderPages } from '../../../lib/orders/order-loyalty.repo.js';
import { ORDER_LOYALTY_GRACE_MS, sweepOrderLoyalty } from '../../../lib/orders/order-loyalty.job.js';
import { getOrder } from '../../../lib/orders/order.repo.js';
import { ORDER_LOYALTY_SHARDS } from '../../../lib/orders/order.js';
import { redeemStackedDiscounts } from '../../../lib/redemptions/redeem.service.js';
import type { Runtime } from '../../../lib/runtime.js';
import { makeHandler } from '../../../functions/workers/order-loyalty-worker.js';
import { lambdaContext } from '../../../infra/local/api-gateway-event.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { type FaultProxy, type FaultRule, startFaultProxy } from '../../support/fault-proxy.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 1, 10, 12, 0, 0);
const proxies: FaultProxy[] = [];

afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

/** The runtime with its DynamoDB calls sent through a fault proxy obeying `rule`. */
async function via(runtime: Runtime, rule: FaultRule): Promise<Runtime> {
  const proxy = await startFaultProxy(engines().dynamoEndpoint, rule);
  proxies.push(proxy);
  return { ...runtime, ddb: createDocumentClient({ region: engines().region, endpoint: proxy.url, maxAttempts: 1 }) };
}

/** Every DynamoDB call after the first committed transaction fails: the process died right after its commit. */
const diesAfterCommit = (): FaultRule => {
  let committed = false;
  return (operation) => {
    if (committed) return 'reset';
    if (operation === 'TransactWriteItems') committed = true;
    return 'pass';
  };
};

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const projectId = pair.project_id;
  const campaigns = campaignApi(runtime, pair);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  await newCampaign(campaigns, {
    name: 'Club',
    campaign_type: 'LOYALTY_PROGRAM',
    type: 'AUTO_UPDATE',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  });
  const joined = await api.call('add-member', { params: { campaignId: 'Club' }, json: { customer: { source_id: 'ann' } } });
  expect(joined.status).toBe(200);
  const card = joined.json as { id: string; code: string; holder_id: string };
  const rules = await loyaltyApi(runtime, pair).createEarningRules('Club', [
    { event: 'order.paid', loyalty: { type: 'FIXED', points: 25 }, source: { banner: 'Paid' } },
  ]);
  expect(rules.status).toBe(200);
  const balance = async () =>
    ((await api.call('get-member', { params: { memberId: card.code } })).json as { loyalty_card: { balance: number } }).loyalty_card.balance;
  const accruals = async () => (await listCardTransactions(runtime, projectId, card.id)).filter((t) => t.type === 'POINTS_ACCRUAL').length;
  const sweep = (r: Runtime = runtime) => sweepOrderLoyalty(r, { projectId });
  const marked = async () => {
    let n = 0;
    for (let shard = 0; shard < ORDER_LOYALTY_SHARDS; shard += 1) {
      for await (const page of dueOrderPages(runtime, shard, '9999')) n += page.filter((o) => o.projectId === projectId).length;
    }
    return n;
  };
  return { clock, runtime, projectId, campaigns, card, balance, accruals, sweep, marked };
}

describe('the order loyalty sweep (a request that stopped after its commit)', () => {
  it('earns the points of a paid order whose request died after its commit, once, and clears the mark', async () => {
    const { clock, runtime, projectId, card, balance, accruals, sweep, marked } = await setup();
    const dying = await via(runtime, diesAfterCommit());
    await expect(createOrder(dying, projectId, { source_id: 'lost-1', status: 'PAID', amount: 5_000, customer: { id: card.holder_id } })).rejects.toThrow();
    expect(await balance()).toBe(0);
    expect(await marked()).toBe(1);

    // A mark younger than the grace is left to the request that may still be serving it.
    expect(await sweep()).toMatchObject({ found: 0, earned: 0 });
    clock.advance(ORDER_LOYALTY_GRACE_MS + 1_000);
    expect(await sweep()).toMatchObject({ found: 1, earned: 1, cleared: 1 });
    expect(await balance()).toBe(25);
    expect(await accruals()).toBe(1);
    expect(await marked()).toBe(0);
    expect(await sweep()).toMatchObject({ found: 0, earned: 0 });
    expect(await balance()).toBe(25);
  });

  it('changes nothing for an order whose request earned, and only clears its mark', async () => {
    const { clock, runtime, projectId, card, balance, accruals, sweep, marked } = await setup();
    const order = await createOrder(runtime, projectId, { status: 'PAID', amount: 1_000, customer: { id: card.holder_id } });
    expect(order.loyaltyDueAt).toBe(new Date(at).toISOString());
    expect(await balance()).toBe(25);
    clock.advance(ORDER_LOYALTY_GRACE_MS + 1_000);
    // It reports what it wrote: nothing earned (the request did), one mark cleared.
    expect(await sweep()).toMatchObject({ found: 1, earned: 0, cleared: 1 });
    expect(await balance()).toBe(25);
    expect(await accruals()).toBe(1);
    expect(await marked()).toBe(0);
    expect((await getOrder(runtime, projectId, order.id))?.loyaltyDueAt).toBeUndefined();
  });

  it('gives one accrual when two sweeps run at once', async () => {
    const { clock, runtime, projectId, card, balance, accruals, sweep } = await setup();
    const dying = await via(runtime, diesAfterCommit());
    await expect(createOrder(dying, projectId, { status: 'PAID', amount: 1_000, customer: { id: card.holder_id } })).rejects.toThrow();
    clock.advance(ORDER_LOYALTY_GRACE_MS + 1_000);
    const reports = await Promise.all([sweep(), sweep()]);
    expect(reports.reduce((n, r) => n + r.cleared, 0)).toBe(1);
    expect(await balance()).toBe(25);
    expect(await accruals()).toBe(1);
  });

  it('takes back what a cancelled order earned when its request died after the cancellation', async () => {
    const { clock, runtime, projectId, card, balance, sweep } = await setup();
    const order = await createOrder(runtime, projectId, { status: 'PAID', amount: 1_000, customer: { id: card.holder_id } });
    expect(await balance()).toBe(25);
    const dying = await via(runtime, diesAfterCommit());
    await expect(updateOrder(dying, projectId, order.id, { status: 'CANCELED' })).rejects.toThrow();
    expect((await getOrder(runtime, projectId, order.id))?.status).toBe('CANCELED');
    expect(await balance()).toBe(25);
    clock.advance(ORDER_LOYALTY_GRACE_MS + 1_000);
    expect(await sweep()).toMatchObject({ takenBack: 1, cleared: 1 });
    expect(await balance()).toBe(0);
  });

  it('reports taken_back: 0 for a cancellation its request took back (it used to say 1 and remove nothing)', async () => {
    const { clock, runtime, projectId, card, balance, sweep, marked } = await setup();
    const order = await createOrder(runtime, projectId, { status: 'PAID', amount: 1_000, customer: { id: card.holder_id } });
    expect((await updateOrder(runtime, projectId, order.id, { status: 'CANCELED' })).status).toBe('CANCELED');
    expect(await balance()).toBe(0);
    const removals = async () => (await listCardTransactions(runtime, projectId, card.id)).filter((t) => t.type === 'POINTS_REMOVAL').length;
    expect(await removals()).toBe(1);
    clock.advance(ORDER_LOYALTY_GRACE_MS + 1_000);
    expect(await sweep()).toMatchObject({ found: 1, earned: 0, takenBack: 0, cleared: 1 });
    expect(await removals()).toBe(1);
    expect(await marked()).toBe(0);
  });

  it('earns for a redemption that made its order PAID and died after the commit', async () => {
    const { clock, runtime, projectId, campaigns, card, balance, sweep } = await setup();
    await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Coupons'));
    expect((await campaigns.addVoucher('Coupons', { code: 'SWEEP-10' })).status).toBe(200);
    const dying = await via(runtime, diesAfterCommit());
    await expect(
      redeemStackedDiscounts(
        dying,
        projectId,
        { redeemables: [{ object: 'voucher', id: 'SWEEP-10' }], order: { amount: 2_000, status: 'PAID' }, customer: { id: card.holder_id } },
        null,
        () => null,
        () => null,
      ),
    ).rejects.toThrow();
    expect(await balance()).toBe(0);
    clock.advance(ORDER_LOYALTY_GRACE_MS + 1_000);
    expect(await sweep()).toMatchObject({ earned: 1, cleared: 1 });
    expect(await balance()).toBe(25);
  });

  it('runs from its scheduled worker handler', async () => {
    const { clock, runtime, projectId, card, balance } = await setup();
    const dying = await via(runtime, diesAfterCommit());
    await expect(createOrder(dying, projectId, { status: 'PAID', amount: 1_000, customer: { id: card.holder_id } })).rejects.toThrow();
    clock.advance(ORDER_LOYALTY_GRACE_MS + 1_000);
    const report = await makeHandler({ runtime })({} as never, lambdaContext(orderLoyaltyWorker.name, orderLoyaltyWorker.timeoutSeconds * 1000));
    expect(report.earned).toBeGreaterThanOrEqual(1);
    expect(await balance()).toBe(25);
  });
});
