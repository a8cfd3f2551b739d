import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { makeHandler as makeJobsWorker } from '../../../functions/workers/jobs-worker.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { systemClock } from '../../../lib/clock.js';
import { openJob } from '../../../lib/db/entities.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { openJobKey } from '../../../lib/jobs/open-job.repo.js';
import { getOrder, getOrderIdBySourceId } from '../../../lib/orders/order.repo.js';
import { campaignApi, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';

const runtime = testRuntime({ clock: systemClock });

async function setup() {
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  const work = (job: JobMessage, ddb: DynamoDBDocumentClient = runtime.ddb) =>
    makeJobsWorker({ runtime: { ...runtime, ddb } })({ Records: [sqsRecord(JSON.stringify(job), 1)] }, {} as never);
  /** Sends the import, runs its job and returns the action as GET /v1/async-actions/{id} shows it. */
  const run = async (json: unknown) => {
    const reply = await api.call('import-orders', { json });
    expect(reply.status).toBe(200);
    const job = jobs.sent.splice(0)[0];
    if (!job) throw new Error('no job');
    expect((await work(job)).batchItemFailures).toEqual([]);
    return (await api.call('get-async-action', { params: { asyncActionId: reply.json.async_action_id as string } })).json;
  };
  return { pair, projectId: pair.project_id, jobs, api, work, run };
}

/** A table client whose checkpoints after the first `checkpoints` never answer: the process was killed there. */
function killedAfter(ddb: DynamoDBDocumentClient, checkpoints: number) {
  let count = 0;
  const proxy = new Proxy(ddb, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
      return (command: { constructor: { name: string }; input?: unknown }) => {
        const checkpoint = command.constructor.name === 'TransactWriteCommand' && JSON.stringify(command.input).includes('#imp.chunksDone = :k');
        if (checkpoint && ++count > checkpoints) return new Promise(() => undefined);
        return (target.send as (c: unknown) => Promise<unknown>)(command);
      };
    },
  });
  return { ddb: proxy, transactions: () => count };
}

describe('POST /v1/orders/import', () => {
  it('imports orders that list and read as created ones; a bad row and a repeated or taken source_id are row failures', async () => {
    const { api, run } = await setup();
    expect((await api.call('create-order', { json: { source_id: 'taken', amount: 1 } })).status).toBe(200);
    const action = await run([
      { source_id: 'o1', status: 'FULFILLED', amount: 1_000, customer: { source_id: 'bob' }, metadata: { placed: '2020-01-02' } },
      { items: [{ source_id: 'sku-1', quantity: 2, price: 300 }] },
      { source_id: 'bad', items: [{ quantity: 2, price: 300, amount: 7 }] },
      { source_id: 'o1', amount: 5 },
      { source_id: 'taken', amount: 9 },
    ]);
    expect(action).toMatchObject({
      type: 'ORDERS.IMPORT',
      status: 'DONE',
      result: { message: 'Imported 2 orders; 3 failed.', done_count: 2, failed_count: 3 },
    });
    const failed = (action.result as { failed: { code: string; reason: string }[] }).failed;
    expect(failed.map((f) => f.code)).toEqual(['bad', 'o1', 'taken']);
    expect(failed[0]?.reason).toContain('price × quantity');
    expect(failed[1]?.reason).toContain('already exists');

    const o1 = (await api.call('get-order', { params: { orderId: 'o1' } })).json;
    expect(o1).toMatchObject({ source_id: 'o1', status: 'FULFILLED', amount: 1_000, metadata: { placed: '2020-01-02' }, customer: { object: 'customer' } });
    expect((await api.call('get-customer', { params: { customerId: 'bob' } })).status).toBe(200);
    expect((await api.call('get-order', { params: { orderId: 'taken' } })).json.amount).toBe(1);
    expect((await api.call('get-order', { params: { orderId: 'bad' } })).status).toBe(404);
    const list = (await api.call('list-orders', { query: 'limit=10' })).json as { total: number; orders: { amount: number }[] };
    expect(list.total).toBe(3);
    expect(list.orders.map((o) => o.amount).sort((a, b) => a - b)).toEqual([1, 600, 1_000]);
  });

  it('earns no points for an imported PAID order, where a created one earns by the order.paid rule', async () => {
    const { pair, projectId, api, run } = await setup();
    await newCampaign(campaignApi(runtime, pair), {
      name: 'Club',
      campaign_type: 'LOYALTY_PROGRAM',
      type: 'AUTO_UPDATE',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    });
    const card = (await api.call('add-member', { params: { campaignId: 'Club' }, json: { customer: { source_id: 'ann' } } })).json as { code: string };
    expect(
      (
        await loyaltyApi(runtime, pair).createEarningRules('Club', [
          { event: 'order.paid', loyalty: { type: 'FIXED', points: 25 }, source: { banner: 'Paid' } },
        ])
      ).status,
    ).toBe(200);
    const balance = async () =>
      ((await api.call('get-member', { params: { memberId: card.code } })).json as { loyalty_card: { balance: number } }).loyalty_card.balance;

    expect(await run([{ source_id: 'hist-1', status: 'PAID', amount: 5_000, customer: { source_id: 'ann' } }])).toMatchObject({
      status: 'DONE',
      result: { done_count: 1, failed_count: 0 },
    });
    expect((await api.call('get-order', { params: { orderId: 'hist-1' } })).json.status).toBe('PAID');
    expect(await balance()).toBe(0);
    // Not marked either: the order loyalty sweep will not earn it later.
    const stored = await getOrder(runtime, projectId, (await getOrderIdBySourceId(runtime, projectId, 'hist-1')) ?? '');
    expect(stored?.loyaltyDueAt).toBeUndefined();

    expect((await api.call('create-order', { json: { source_id: 'live-1', status: 'PAID', amount: 5_000, customer: { source_id: 'ann' } } })).status).toBe(200);
    expect(await balance()).toBe(25);
  });

  it('refuses an empty list, more than 1,000 orders and an order naming an id with 400, enqueuing nothing', async () => {
    const { api, jobs } = await setup();
    expect((await api.call('import-orders', { json: [] })).status).toBe(400);
    expect((await api.call('import-orders', { json: Array.from({ length: 1001 }, () => ({ amount: 1 })) })).status).toBe(400);
    expect((await api.call('import-orders', { json: [{ id: 'ord_x', amount: 1 }] })).status).toBe(400);
    expect((await api.call('import-orders', { json: { source_id: 'o' } })).status).toBe(400);
    expect(jobs.sent).toEqual([]);
  });

  it('resumes after the worker died between chunks: redelivered twice at once, each order (with or without source_id) stored and counted once', async () => {
    const { projectId, api, jobs, work } = await setup();
    const rows = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? { source_id: `k${i}`, amount: i } : { amount: i }));
    const reply = await api.call('import-orders', { json: rows });
    const id = reply.json.async_action_id as string;
    const job = jobs.sent.splice(0)[0] as JobMessage;
    // The first checkpoint lands; the process dies at the second, after writing the second chunk's orders.
    const killed = killedAfter(runtime.ddb, 1);
    void work(job, killed.ddb);
    for (let i = 0; i < 200 && killed.transactions() <= 1; i += 1) await sleep(50);
    expect(await getAsyncAction(runtime, projectId, id)).toMatchObject({ status: 'IN_PROGRESS', doneCount: 25, import: { chunks: 2, chunksDone: 1 } });
    expect((await api.call('list-orders', { query: 'limit=1' })).json.total).toBe(30);
    const reruns = await Promise.all([work(job), work(job)]);
    for (const r of reruns) expect(r.batchItemFailures).toEqual([]);
    expect((await api.call('get-async-action', { params: { asyncActionId: id } })).json).toMatchObject({
      status: 'DONE',
      progress: 100,
      result: { done_count: 30, failed_count: 0 },
    });
    const list = (await api.call('list-orders', { query: 'limit=100' })).json as { total: number; orders: unknown[] };
    expect(list.total).toBe(30);
    expect(list.orders).toHaveLength(30);
    expect(await openJob.get(runtime, openJobKey(projectId, id))).toBeNull();
  }, 30_000);
});
