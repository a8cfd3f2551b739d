import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { makeHandler as makeJobsWorker } from '../../../functions/workers/jobs-worker.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { systemClock } from '../../../lib/clock.js';
import { openJob } from '../../../lib/db/entities.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { openJobKey } from '../../../lib/jobs/open-job.repo.js';
import { apiClient } from '../../support/api-client.js';
import { RecordingJobQueue } from '../../support/api.js';
import { keyPairHeaders, managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';

const runtime = testRuntime({ clock: systemClock });

async function setup() {
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  const work = (job: JobMessage, ddb: DynamoDBDocumentClient = runtime.ddb) =>
    makeJobsWorker({ runtime: { ...runtime, ddb } })({ Records: [sqsRecord(JSON.stringify(job), 1)] }, {} as never);
  /** Sends the request, runs its job and returns the action as GET /v1/async-actions/{id} shows it. */
  const run = async (operationId: string, json: unknown) => {
    const reply = await api.call(operationId, { json });
    expect(reply.status).toBe(202);
    const job = jobs.sent.splice(0)[0];
    if (!job) throw new Error('no job');
    expect((await work(job)).batchItemFailures).toEqual([]);
    return (await api.call('get-async-action', { params: { asyncActionId: reply.json.async_action_id as string } })).json;
  };
  return { projectId: pair.project_id, jobs, api, work, run };
}

/** A table client whose checkpoints (the transaction moving `chunksDone`) after the first `checkpoints` never answer: the process was killed there. */
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

describe('POST /v1/vouchers/bulk/async and /v1/vouchers/metadata/async', () => {
  it('merges each code its own metadata keys, and the same keys into every listed code; an unknown code is a failure (no upsert)', async () => {
    const { api, run } = await setup();
    for (const code of ['B1', 'B2'])
      expect(
        (await api.call('create-voucher', { params: { code }, json: { type: 'GIFT_VOUCHER', gift: { amount: 1 }, metadata: { keep: 1, lang: 'de' } } })).status,
      ).toBe(200);
    const bulk = await run('update-vouchers-in-bulk', [
      { code: 'B1', metadata: { lang: 'en' } },
      { code: 'NOPE', metadata: { lang: 'pl' } },
      { code: 'B2', metadata: { extra: true } },
    ]);
    expect(bulk).toMatchObject({
      type: 'VOUCHERS.BULK_UPDATE',
      status: 'DONE',
      result: { message: 'Updated 2 vouchers; 1 failed.', done_count: 2, failed_count: 1, failed: [{ code: 'NOPE', reason: expect.stringContaining('NOPE') }] },
    });
    expect((await api.call('get-voucher', { params: { code: 'B1' } })).json.metadata).toEqual({ keep: 1, lang: 'en' });
    expect((await api.call('get-voucher', { params: { code: 'B2' } })).json.metadata).toEqual({ keep: 1, lang: 'de', extra: true });
    const same = await run('update-vouchers-metadata-in-bulk', { codes: ['B1', 'B2'], metadata: { season: 'fall' } });
    expect(same).toMatchObject({ type: 'VOUCHERS.METADATA_UPDATE', status: 'DONE', result: { done_count: 2, failed_count: 0 } });
    expect((await api.call('get-voucher', { params: { code: 'B2' } })).json.metadata).toEqual({ keep: 1, lang: 'de', extra: true, season: 'fall' });
  });

  it('refuses an empty list and more than 1,000 codes with 400, enqueuing nothing', async () => {
    const { api, jobs } = await setup();
    expect((await api.call('update-vouchers-in-bulk', { json: [] })).status).toBe(400);
    const many = Array.from({ length: 1001 }, (_, i) => `C${i}`);
    expect((await api.call('update-vouchers-metadata-in-bulk', { json: { codes: many, metadata: {} } })).status).toBe(400);
    expect(jobs.sent).toEqual([]);
  });
});

describe('POST /v1/products/bulk/async and /v1/products/metadata/async', () => {
  it('upserts products by source_id and merges metadata, making a product for an unknown source id', async () => {
    const { api, run } = await setup();
    expect((await api.call('create-product', { json: { source_id: 'p1', name: 'Old', price: 1, metadata: { a: 1 } } })).status).toBe(200);
    const bulk = await run('update-products-in-bulk', [
      { source_id: 'p1', name: 'Phone', price: 220000 },
      { source_id: 'p2', name: 'Case', attributes: ['color'] },
    ]);
    expect(bulk).toMatchObject({ type: 'PRODUCTS.BULK_UPDATE', status: 'DONE', result: { message: 'Updated 2 products; 0 failed.', done_count: 2 } });
    expect((await api.call('get-product', { params: { productId: 'p1' } })).json).toMatchObject({ name: 'Phone', price: 220000, metadata: { a: 1 } });
    const meta = await run('update-products-metadata-in-bulk', { source_ids: ['p1', 'p3'], metadata: { label: true } });
    expect(meta).toMatchObject({ status: 'DONE', result: { done_count: 2, failed_count: 0 } });
    expect((await api.call('get-product', { params: { productId: 'p1' } })).json.metadata).toEqual({ a: 1, label: true });
    expect((await api.call('get-product', { params: { productId: 'p3' } })).json.metadata).toEqual({ label: true });
  });
});

describe('POST /v1/customers/bulk/async and /v1/customers/metadata/async', () => {
  it('makes one customer of a source id that 20 bulk upserts run at once name', async () => {
    const { api, jobs, work } = await setup();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.call('update-customers-in-bulk', { json: [{ source_id: 'same', name: `N${i}` }] })),
    );
    for (const r of replies) expect(r.status).toBe(202);
    const sent = jobs.sent.splice(0);
    expect(sent).toHaveLength(20);
    const results = await Promise.all(sent.map((job) => work(job)));
    for (const r of results) expect(r.batchItemFailures).toEqual([]);
    const list = await api.call('list-customers', { query: 'limit=100' });
    expect(list.json.total).toBe(1);
    for (const r of replies)
      expect((await api.call('get-async-action', { params: { asyncActionId: r.json.async_action_id as string } })).json).toMatchObject({
        status: 'DONE',
        result: { done_count: 1, failed_count: 0 },
      });
  });

  it('merges metadata into existing customers and makes those that do not exist; a bad row of a bulk update is a failure', async () => {
    const { api, run } = await setup();
    expect((await api.call('create-customer', { json: { source_id: 'c1', metadata: { tier: 'gold', lang: 'de' } } })).status).toBe(200);
    const meta = await run('update-customers-metadata-in-bulk', { source_ids: ['c1', 'c2'], metadata: { lang: 'en' } });
    expect(meta).toMatchObject({ type: 'CUSTOMERS.METADATA_UPDATE', status: 'DONE', result: { done_count: 2 } });
    expect((await api.call('get-customer', { params: { customerId: 'c1' } })).json.metadata).toEqual({ tier: 'gold', lang: 'en' });
    expect((await api.call('get-customer', { params: { customerId: 'c2' } })).json.metadata).toEqual({ lang: 'en' });
    const bulk = await run('update-customers-in-bulk', [
      { source_id: 'c1', name: 'Ann', address: { city: 'Oslo' } },
      { source_id: 'c3', email: 'x@example.com' },
    ]);
    expect(bulk).toMatchObject({ status: 'DONE', result: { done_count: 2, failed_count: 0 } });
    expect((await api.call('get-customer', { params: { customerId: 'c1' } })).json).toMatchObject({
      name: 'Ann',
      address: { city: 'Oslo' },
      metadata: { tier: 'gold' },
    });
  });

  it("checks each row's metadata against the project's metadata schema, as a single write is: a row that breaks it is a failure", async () => {
    const { api, run, projectId } = await setup();
    const management = apiClient({ runtime }, managementHeaders(await newManagementKey(runtime)));
    const schema = await management.call('create-metadata-schema', {
      params: { projectId },
      json: { related_object: 'customer', properties: { size: { type: 'number', optional: true, array: false } } },
    });
    expect(schema.status).toBe(200);
    const bulk = await run('update-customers-in-bulk', [
      { source_id: 'm1', metadata: { size: 3 } },
      { source_id: 'm2', metadata: { size: 'big' } },
    ]);
    expect(bulk).toMatchObject({ status: 'DONE', result: { done_count: 1, failed_count: 1 } });
    expect(JSON.stringify(bulk)).toContain('size');
    expect((await api.call('get-customer', { params: { customerId: 'm1' } })).json.metadata).toEqual({ size: 3 });
    expect((await api.call('get-customer', { params: { customerId: 'm2' } })).status).toBe(404);
  });

  it('resumes a bulk action after the worker died between chunks: redelivered twice at once, every row applied and counted once', async () => {
    const { projectId, api, jobs, work } = await setup();
    const rows = Array.from({ length: 30 }, (_, i) => ({ source_id: `k${i}`, name: `K ${i}` }));
    const id = (await api.call('update-customers-in-bulk', { json: rows })).json.async_action_id as string;
    const job = jobs.sent.splice(0)[0] as JobMessage;
    // The first checkpoint lands; the process dies at the second.
    const killed = killedAfter(runtime.ddb, 1);
    void work(job, killed.ddb);
    for (let i = 0; i < 200 && killed.transactions() <= 1; i += 1) await sleep(50);
    expect(await getAsyncAction(runtime, projectId, id)).toMatchObject({ status: 'IN_PROGRESS', doneCount: 25, import: { chunks: 2, chunksDone: 1 } });
    expect(await openJob.get(runtime, openJobKey(projectId, id))).not.toBeNull();
    const reruns = await Promise.all([work(job), work(job)]);
    for (const r of reruns) expect(r.batchItemFailures).toEqual([]);
    expect((await api.call('get-async-action', { params: { asyncActionId: id } })).json).toMatchObject({
      status: 'DONE',
      progress: 100,
      result: { done_count: 30, failed_count: 0 },
    });
    expect((await api.call('list-customers', { query: 'limit=1' })).json.total).toBe(30);
    expect(await openJob.get(runtime, openJobKey(projectId, id))).toBeNull();
  }, 30_000);
});
