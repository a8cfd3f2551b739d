import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { makeHandler as makeDeadLetterWorker } from '../../../functions/workers/jobs-dead-letter-worker.js';
import { makeHandler as makeJobsWorker } from '../../../functions/workers/jobs-worker.js';
import { lambdaContext } from '../../../infra/local/api-gateway-event.js';
import { queueNamed } from '../../../lib/api/resources.js';
import { jobsDeadLetterWorker } from '../../../lib/api/workers.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { systemClock } from '../../../lib/clock.js';
import { openJob } from '../../../lib/db/entities.js';
import { deadLetterReason } from '../../../lib/jobs/dead-letter.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { jobMessageOf } from '../../../lib/jobs/open-job.js';
import { openJobKey } from '../../../lib/jobs/open-job.repo.js';
import { listCampaignVoucherCodes, NO_CAMPAIGN } from '../../../lib/vouchers/voucher.repo.js';
import { MAX_IMPORT_VOUCHERS } from '../../../lib/vouchers/voucher-import.schema.js';
import { apiClient } from '../../support/api-client.js';
import { campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';

const { maxReceiveCount } = queueNamed(jobsDeadLetterWorker.queue);
const runtime = testRuntime({ clock: systemClock });

type ImportJob = Extract<JobMessage, { type: 'voucher-import' }>;

/** A project whose jobs are recorded: each test runs (or kills) them by hand with the real worker. */
async function setup() {
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  const campaign = async (name: string, body: Record<string, unknown> = {}) => {
    const reply = await api.call('create-campaign', { json: { ...campaignBodies.DISCOUNT_COUPONS(name), type: 'STATIC', ...body } });
    expect(reply.status).toBe(200);
    return reply.json.id as string;
  };
  const takeJob = (): ImportJob => {
    const job = jobs.sent.splice(0)[0];
    if (job?.type !== 'voucher-import') throw new Error(`expected an import job, got ${JSON.stringify(job)}`);
    return job;
  };
  const work = (job: JobMessage, options: { ddb?: DynamoDBDocumentClient; receives?: number } = {}) =>
    makeJobsWorker({ runtime: { ...runtime, ddb: options.ddb ?? runtime.ddb } })(
      { Records: [sqsRecord(JSON.stringify(job), options.receives ?? 1)] },
      {} as never,
    );
  const action = async (id: string) => (await api.call('get-async-action', { params: { asyncActionId: id } })).json;
  return { pair, projectId: pair.project_id, jobs, api, campaign, takeJob, work, action };
}

/** A table client whose TransactWriteItems after the first `writes` never answer: the process was killed there. */
function killedAfter(ddb: DynamoDBDocumentClient, writes: number): { ddb: DynamoDBDocumentClient; transactions: () => number } {
  let count = 0;
  const proxy = new Proxy(ddb, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
      return (command: { constructor: { name: string } }) => {
        if (command.constructor.name === 'TransactWriteCommand') {
          count += 1;
          if (count > writes) return new Promise(() => undefined);
        }
        return (target.send as (c: unknown) => Promise<unknown>)(command);
      };
    },
  });
  return { ddb: proxy, transactions: () => count };
}

const codes = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ code: `${prefix}-${String(i).padStart(4, '0')}` }));

describe('POST /v1/campaigns/{campaignId}/import (import-vouchers-to-campaign)', () => {
  it('imports the list as an async action: DONE with each failed code and its reason, the rest written with their fields, the count exact', async () => {
    const { api, campaign, takeJob, work, action } = await setup();
    const campaignId = await campaign('Imported');
    expect((await api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId, code: 'TAKEN' }, json: {} })).status).toBe(200);
    const reply = await api.call('import-vouchers-to-campaign', {
      params: { campaignId: 'Imported' },
      json: [
        { code: 'CODE7', category: 'First', redemption: { quantity: 1 }, metadata: { season: 'Fall' }, additional_info: 'secret-code1', active: true },
        { code: 'CODE8', active: false },
        { code: 'TAKEN' },
        { code: 'CODE7' },
        { code: 'has space' },
        { code: 'GIFTY', type: 'GIFT_VOUCHER', gift: { amount: 500 } },
      ],
    });
    expect(reply.status).toBe(202);
    const id = reply.json.async_action_id as string;
    expect(await action(id)).toMatchObject({ type: 'CAMPAIGN.VOUCHERS_IMPORT', status: 'ENQUEUED', progress: 0 });
    expect((await work(takeJob())).batchItemFailures).toEqual([]);
    const done = await action(id);
    expect(done).toMatchObject({ status: 'DONE', operation_status: 'SUCCESS', progress: 100, result: { done_count: 2, failed_count: 4 } });
    expect((done.result as { failed: unknown[] }).failed).toEqual([
      { code: 'CODE7', reason: 'Duplicated code in this import' },
      { code: 'has space', reason: expect.stringMatching(/^Invalid code/) },
      { code: 'GIFTY', reason: "Type GIFT_VOUCHER differs from the campaign's DISCOUNT_VOUCHER" },
      { code: 'TAKEN', reason: 'Duplicated voucher exists with this code' },
    ]);
    expect((await api.call('get-voucher', { params: { code: 'CODE7' } })).json).toMatchObject({
      campaign_id: campaignId,
      category: 'First',
      redemption: { quantity: 1 },
      metadata: { season: 'Fall' },
      additional_info: 'secret-code1',
      active: true,
    });
    expect((await api.call('get-voucher', { params: { code: 'CODE8' } })).json).toMatchObject({ active: false });
    expect((await api.call('get-campaign', { params: { campaignId } })).json.vouchers_count).toBe(3);
  });

  it(`refuses an empty list, more than ${MAX_IMPORT_VOUCHERS} vouchers, an unknown campaign and another project's campaign, enqueuing nothing`, async () => {
    const { api, campaign, jobs } = await setup();
    const campaignId = await campaign('Bounded');
    expect((await api.call('import-vouchers-to-campaign', { params: { campaignId }, json: [] })).status).toBe(400);
    const over = await api.call('import-vouchers-to-campaign', { params: { campaignId }, json: codes('OVER', MAX_IMPORT_VOUCHERS + 1) });
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ key: 'invalid_payload' });
    expect((await api.call('import-vouchers-to-campaign', { params: { campaignId: 'camp_missing' }, json: [{ code: 'X' }] })).status).toBe(404);
    const other = await setup();
    expect((await other.api.call('import-vouchers-to-campaign', { params: { campaignId }, json: [{ code: 'X' }] })).status).toBe(404);
    expect(jobs.sent).toEqual([]);
    expect(other.jobs.sent).toEqual([]);
  });

  it('survives a kill mid-job: the action stays IN_PROGRESS at a checkpoint, its marker resumes it, and the rerun ends with no duplicate and exact counts', async () => {
    const { projectId, api, campaign, takeJob, work, action } = await setup();
    const campaignId = await campaign('Killed');
    const list = codes('K', 130);
    expect((await api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId, code: 'K-0120' }, json: {} })).status).toBe(200);
    const id = (await api.call('import-vouchers-to-campaign', { params: { campaignId }, json: list })).json.async_action_id as string;
    const job = takeJob();
    // Chunks of 48: the process dies after writing the first one.
    const killed = killedAfter(runtime.ddb, 1);
    void work(job, { ddb: killed.ddb });
    for (let i = 0; i < 100 && killed.transactions() <= 1; i += 1) await sleep(50);
    expect(await getAsyncAction(runtime, projectId, id)).toMatchObject({ status: 'IN_PROGRESS', doneCount: 48, import: { chunks: 3, chunksDone: 1 } });
    expect(await action(id)).toMatchObject({ status: 'IN_PROGRESS', progress: 33 });
    const marker = await openJob.get(runtime, openJobKey(projectId, id));
    expect(marker && jobMessageOf(marker)).toEqual(job);

    // The resumed job (the start-up reconcile sends the marker's message), twice at once for good measure.
    const reruns = await Promise.all([work(job), work(job)]);
    for (const r of reruns) expect(r.batchItemFailures).toEqual([]);
    expect(await action(id)).toMatchObject({ status: 'DONE', result: { done_count: 129, failed_count: 1, failed: [{ code: 'K-0120' }] } });
    const stored = await listCampaignVoucherCodes(runtime, projectId, campaignId);
    expect(stored).toHaveLength(130);
    expect(new Set(stored).size).toBe(130);
    expect((await api.call('get-campaign', { params: { campaignId } })).json.vouchers_count).toBe(130);
    expect(await openJob.get(runtime, openJobKey(projectId, id))).toBeNull();
  }, 30_000);

  it('marks the import FAILED with the reason when its last delivery died mid-job; a stray copy cannot move it on', async () => {
    const { projectId, api, campaign, takeJob, work, action } = await setup();
    const campaignId = await campaign('Dead');
    const id = (await api.call('import-vouchers-to-campaign', { params: { campaignId }, json: codes('D', 100) })).json.async_action_id as string;
    const job = takeJob();
    const killed = killedAfter(runtime.ddb, 1);
    void work(job, { ddb: killed.ddb, receives: maxReceiveCount });
    for (let i = 0; i < 100 && killed.transactions() <= 1; i += 1) await sleep(50);

    const dead = sqsRecord(JSON.stringify(job), maxReceiveCount + 1);
    expect(await makeDeadLetterWorker({ runtime })({ Records: [dead] }, lambdaContext('jobs-dead-letter-worker'))).toEqual({ batchItemFailures: [] });
    expect(await action(id)).toMatchObject({
      status: 'FAILED',
      operation_status: 'FAILED',
      result: { message: deadLetterReason(maxReceiveCount), done_count: 48, failed_count: 0 },
    });
    await work(job);
    expect(await getAsyncAction(runtime, projectId, id)).toMatchObject({ status: 'FAILED', doneCount: 48 });
    expect((await api.call('get-campaign', { params: { campaignId } })).json.vouchers_count).toBe(48);
  }, 30_000);
});

describe('POST /v1/vouchers/import (import-vouchers)', () => {
  it('imports standalone vouchers of each type; one without the benefit its type needs, or with a taken code, is reported', async () => {
    const { projectId, api, takeJob, work, action } = await setup();
    expect((await api.call('create-voucher', { params: { code: 'OLD' }, json: { type: 'GIFT_VOUCHER', gift: { amount: 1 } } })).status).toBe(200);
    const reply = await api.call('import-vouchers', {
      json: [
        {
          code: 'PROMO-30',
          type: 'DISCOUNT_VOUCHER',
          discount: { amount_off: 3000, type: 'AMOUNT' },
          category: 'acquisition',
          start_date: '2026-12-01T23:00:00Z',
        },
        { code: 'GIFT-100', type: 'GIFT_VOUCHER', gift: { amount: 10000 }, redemption: { quantity: 5 } },
        { code: 'NO-BENEFIT', type: 'GIFT_VOUCHER' },
        { code: 'OLD', discount: { percent_off: 5, type: 'PERCENT' } },
      ],
    });
    expect(reply.status).toBe(202);
    const id = reply.json.async_action_id as string;
    await work(takeJob());
    expect(await action(id)).toMatchObject({
      type: 'VOUCHERS.IMPORT',
      status: 'DONE',
      result: {
        done_count: 2,
        failed_count: 2,
        failed: [
          { code: 'NO-BENEFIT', reason: 'A GIFT_VOUCHER of no campaign needs gift' },
          { code: 'OLD', reason: 'Duplicated voucher exists with this code' },
        ],
      },
    });
    expect((await api.call('get-voucher', { params: { code: 'PROMO-30' } })).json).toMatchObject({
      campaign_id: null,
      category: 'acquisition',
      discount: { type: 'AMOUNT', amount_off: 3000 },
      start_date: '2026-12-01T23:00:00.000Z',
    });
    expect((await api.call('get-voucher', { params: { code: 'GIFT-100' } })).json).toMatchObject({
      gift: { amount: 10000, balance: 10000 },
      redemption: { quantity: 5 },
    });
    // Standalone vouchers are listed together, apart from every campaign's.
    expect((await listCampaignVoucherCodes(runtime, projectId, NO_CAMPAIGN)).sort()).toEqual(['GIFT-100', 'OLD', 'PROMO-30']);
  });
});
