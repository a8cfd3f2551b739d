import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { makeHandler as makeJobsWorker } from '../../../functions/workers/jobs-worker.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { systemClock } from '../../../lib/clock.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { apiClient } from '../../support/api-client.js';
import { RecordingJobQueue } from '../../support/api.js';
import { keyPairHeaders, managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';

/*
 * Product and customer bulk upserts are written a chunk at a time (lib/bulk/bulk-chunks.ts): new
 * rows in shared transactions, the rest through the single-request services. What could break there.
 */

const runtime = testRuntime({ clock: systemClock });

async function setup() {
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  const work = (job: JobMessage, ddb: DynamoDBDocumentClient = runtime.ddb) =>
    makeJobsWorker({ runtime: { ...runtime, ddb } })({ Records: [sqsRecord(JSON.stringify(job), 1)] }, {} as never);
  const send = async (operationId: string, json: unknown) => {
    const reply = await api.call(operationId, { json });
    expect(reply.status).toBe(202);
    const job = jobs.sent.splice(0)[0];
    if (!job) throw new Error('no job');
    return { id: reply.json.async_action_id as string, job };
  };
  const action = async (asyncActionId: string) => (await api.call('get-async-action', { params: { asyncActionId } })).json;
  return { projectId: pair.project_id, api, work, send, action };
}

/** A table client on which `before` runs just before each BatchGetItem's answer comes back (a concurrent writer between the read and the chunk's write). */
function racedAfterReads(ddb: DynamoDBDocumentClient, before: () => Promise<void>) {
  return new Proxy(ddb, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
      return async (command: { constructor: { name: string } }) => {
        const reply = await (target.send as (c: unknown) => Promise<unknown>)(command);
        if (command.constructor.name === 'BatchGetCommand') await before();
        return reply;
      };
    },
  });
}

/**
 * A table client whose first transaction carrying a chunk checkpoint never answers: the process
 * died there, before the write (`lands` false) or after it reached the table (`lands` true).
 */
function killedAtFirstCheckpoint(ddb: DynamoDBDocumentClient, lands: boolean) {
  let reached = false;
  const proxy = new Proxy(ddb, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
      return async (command: { constructor: { name: string }; input?: unknown }) => {
        const send = () => (target.send as (c: unknown) => Promise<unknown>)(command);
        if (command.constructor.name === 'TransactWriteCommand' && JSON.stringify(command.input).includes('#imp.chunksDone = :k')) {
          if (lands) await send();
          reached = true;
          return new Promise(() => undefined);
        }
        return send();
      };
    },
  });
  return { ddb: proxy, reached: () => reached };
}

describe('product bulk upserts a chunk at a time', () => {
  it('makes one product of a source id repeated within a chunk (the last row wins), keeps AUTO_UPDATE memberships exact and reports a bad row', async () => {
    const { api, projectId, send, work, action } = await setup();
    const management = apiClient({ runtime }, managementHeaders(await newManagementKey(runtime)));
    const schema = await management.call('create-metadata-schema', {
      params: { projectId },
      json: { related_object: 'product', properties: { size: { type: 'number', optional: true, array: false } } },
    });
    expect(schema.status).toBe(200);
    const old = (await api.call('create-product', { json: { source_id: 'old', name: 'Old', metadata: { color: 'red' } } })).json as { id: string };
    const made = await api.call('create-product-collection', {
      json: { type: 'AUTO_UPDATE', name: 'Red', filter: { junction: 'and', 'metadata.color': { conditions: { $in: ['red'] } } } },
    });
    expect(made.status).toBe(200);
    const collectionId = (made.json as { id: string }).id;
    const rows = [
      { source_id: 'dup', name: 'First', metadata: { color: 'blue' } },
      ...Array.from({ length: 30 }, (_, i) => ({ source_id: `p${i}`, name: `P ${i}`, metadata: { color: i % 3 === 0 ? 'red' : 'blue' } })),
      { source_id: 'old', metadata: { color: 'green' } },
      { source_id: 'bad', name: 'Bad', metadata: { size: 'big' } },
      { source_id: 'dup', name: 'Second', metadata: { color: 'red' } },
    ];
    const { id, job } = await send('update-products-in-bulk', rows);
    expect((await work(job)).batchItemFailures).toEqual([]);
    expect(await action(id)).toMatchObject({
      status: 'DONE',
      result: { done_count: 33, failed_count: 1, failed: [{ code: 'bad', reason: expect.stringContaining('size') }] },
    });
    expect((await api.call('list-products', { query: 'limit=1' })).json.total).toBe(32);
    const dup = (await api.call('get-product', { params: { productId: 'dup' } })).json as { id: string; name: string };
    expect(dup.name).toBe('Second');
    const members = (
      (await api.call('list-products-in-collection', { params: { productCollectionId: collectionId }, query: 'limit=100' })).json.data as { id: string }[]
    )
      .map((m) => m.id)
      .sort();
    const red = await Promise.all(
      Array.from({ length: 30 }, (_, i) => i)
        .filter((i) => i % 3 === 0)
        .map(async (i) => ((await api.call('get-product', { params: { productId: `p${i}` } })).json as { id: string }).id),
    );
    expect(members).toEqual([dup.id, ...red].sort());
    expect(members).not.toContain(old.id);
  });

  it('updates the product of a source id created between the chunk read its reservations and wrote: one product, counted once', async () => {
    const { api, send, work, action } = await setup();
    const { id, job } = await send('update-products-in-bulk', [
      { source_id: 'raced', name: 'From the job' },
      { source_id: 'calm', name: 'Calm' },
    ]);
    let once = false;
    const ddb = racedAfterReads(runtime.ddb, async () => {
      if (once) return;
      once = true;
      expect((await api.call('create-product', { json: { source_id: 'raced', name: 'From a request' } })).status).toBe(200);
    });
    expect((await work(job, ddb)).batchItemFailures).toEqual([]);
    expect(once).toBe(true);
    expect(await action(id)).toMatchObject({ status: 'DONE', result: { done_count: 2, failed_count: 0 } });
    expect((await api.call('get-product', { params: { productId: 'raced' } })).json).toMatchObject({ name: 'From the job' });
    expect((await api.call('list-products', { query: 'limit=1' })).json.total).toBe(2);
  });

  it('resumes after dying between a chunk written and its checkpoint: redelivered twice at once, each product made and counted once', async () => {
    const { api, projectId, send, work, action } = await setup();
    // k0 exists: the first chunk is not all new, so its checkpoint is a write of its own after the rows.
    expect((await api.call('create-product', { json: { source_id: 'k0', name: 'Before' } })).status).toBe(200);
    const rows = Array.from({ length: 60 }, (_, i) => ({ source_id: `k${i}`, name: `K ${i}` }));
    const { id, job } = await send('update-products-in-bulk', rows);
    const killed = killedAtFirstCheckpoint(runtime.ddb, false);
    void work(job, killed.ddb);
    for (let i = 0; i < 200 && !killed.reached(); i += 1) await sleep(50);
    expect(await getAsyncAction(runtime, projectId, id)).toMatchObject({ status: 'IN_PROGRESS', import: { chunksDone: 0 } });
    expect((await api.call('list-products', { query: 'limit=1' })).json.total).toBe(49);
    const reruns = await Promise.all([work(job), work(job)]);
    for (const r of reruns) expect(r.batchItemFailures).toEqual([]);
    expect(await action(id)).toMatchObject({ status: 'DONE', result: { done_count: 60, failed_count: 0 } });
    expect((await api.call('list-products', { query: 'limit=1' })).json.total).toBe(60);
    const listed = (await api.call('list-products', { query: 'limit=100' })).json.products as { source_id: string }[];
    expect(new Set(listed.map((p) => p.source_id)).size).toBe(60);
  }, 30_000);

  it('resumes after dying once a chunk of new products and its checkpoint (one transaction) landed unanswered', async () => {
    const { api, projectId, send, work, action } = await setup();
    const rows = Array.from({ length: 60 }, (_, i) => ({ source_id: `n${i}`, name: `N ${i}` }));
    const { id, job } = await send('update-products-in-bulk', rows);
    const killed = killedAtFirstCheckpoint(runtime.ddb, true);
    void work(job, killed.ddb);
    for (let i = 0; i < 200 && !killed.reached(); i += 1) await sleep(50);
    expect(await getAsyncAction(runtime, projectId, id)).toMatchObject({ status: 'IN_PROGRESS', doneCount: 49, import: { chunksDone: 1 } });
    expect((await api.call('list-products', { query: 'limit=1' })).json.total).toBe(49);
    const reruns = await Promise.all([work(job), work(job)]);
    for (const r of reruns) expect(r.batchItemFailures).toEqual([]);
    expect(await action(id)).toMatchObject({ status: 'DONE', result: { done_count: 60, failed_count: 0 } });
    expect((await api.call('list-products', { query: 'limit=1' })).json.total).toBe(60);
  }, 30_000);
});

describe('customer bulk upserts a chunk at a time', () => {
  it('makes one customer of a source id repeated within a chunk, keeps auto-update segments exact and counts each customer once', async () => {
    const { api, send, work, action } = await setup();
    const seg = await api.call('create-segment', {
      json: { name: 'VIP', type: 'auto-update', filter: { junction: 'and', 'metadata.tier': { conditions: { $is: 'vip' } } } },
    });
    expect(seg.status).toBe(200);
    const segmentId = (seg.json as { id: string }).id;
    expect((await api.call('create-customer', { json: { source_id: 'was-vip', metadata: { tier: 'vip' } } })).status).toBe(200);
    const rows = [
      { source_id: 'twice', name: 'First', metadata: { tier: 'basic' } },
      ...Array.from({ length: 30 }, (_, i) => ({ source_id: `c${i}`, email: `c${i}@example.com`, metadata: { tier: i % 2 === 0 ? 'vip' : 'basic' } })),
      { source_id: 'was-vip', metadata: { tier: 'basic' } },
      { source_id: 'twice', name: 'Second', metadata: { tier: 'vip' } },
    ];
    const { id, job } = await send('update-customers-in-bulk', rows);
    expect((await work(job)).batchItemFailures).toEqual([]);
    expect(await action(id)).toMatchObject({ status: 'DONE', result: { done_count: 33, failed_count: 0 } });
    expect((await api.call('list-customers', { query: 'limit=1' })).json.total).toBe(32);
    const segmentsOf = async (customerId: string) =>
      ((await api.call('list-customer-segments', { params: { customerId } })).json as { data: { id: string }[] }).data.map((s) => s.id);
    expect((await api.call('get-customer', { params: { customerId: 'twice' } })).json).toMatchObject({ name: 'Second' });
    expect(await segmentsOf('twice')).toEqual([segmentId]);
    expect(await segmentsOf('was-vip')).toEqual([]);
    expect(await segmentsOf('c0')).toEqual([segmentId]);
    expect(await segmentsOf('c1')).toEqual([]);
  });

  it('updates the customer of a source id created between the chunk read its claims and wrote: one customer', async () => {
    const { api, send, work, action } = await setup();
    const { id, job } = await send('update-customers-in-bulk', [
      { source_id: 'raced', name: 'From the job' },
      { source_id: 'calm', name: 'Calm' },
    ]);
    let once = false;
    const ddb = racedAfterReads(runtime.ddb, async () => {
      if (once) return;
      once = true;
      expect((await api.call('create-customer', { json: { source_id: 'raced', name: 'From a request' } })).status).toBe(200);
    });
    expect((await work(job, ddb)).batchItemFailures).toEqual([]);
    expect(once).toBe(true);
    expect(await action(id)).toMatchObject({ status: 'DONE', result: { done_count: 2, failed_count: 0 } });
    expect((await api.call('get-customer', { params: { customerId: 'raced' } })).json).toMatchObject({ name: 'From the job' });
    expect((await api.call('list-customers', { query: 'limit=1' })).json.total).toBe(2);
  });
});
