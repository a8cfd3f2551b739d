import { MAX_VOUCHERS_PER_TRANSACTION } from '../../../lib/vouchers/voucher.repo.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeHandler as makeDeadLetterWorker } from '../../../functions/workers/jobs-dead-letter-worker.js';
import { lambdaContext } from '../../../infra/local/api-gateway-event.js';
import { queueNamed } from '../../../lib/api/resources.js';
import { jobsDeadLetterWorker } from '../../../lib/api/workers.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { getCampaign } from '../../../lib/campaigns/campaign.repo.js';
import { systemClock } from '../../../lib/clock.js';
import { getExport } from '../../../lib/exports/export.repo.js';
import { createS3Presigner } from '../../../lib/exports/s3-presigner.js';
import { deadLetterReason } from '../../../lib/jobs/dead-letter.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { createLogger } from '../../../lib/logger.js';
import type { Runtime } from '../../../lib/runtime.js';
import { failGeneration } from '../../../lib/vouchers/bulk-generation.js';
import { apiClient } from '../../support/api-client.js';
import { campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';
import { makeJobWorkers as makeJobsWorker } from '../../support/job-workers.js';

/**
 * The jobs dead-letter queue's consumer, driven with dead-lettered messages (as Lambda's event
 * source hands them over) on DynamoDB Local: the open subject of a job whose last delivery died
 * is closed with the reason, a final one is left alone, a malformed message is dropped.
 */

type Line = Record<string, unknown>;
const { maxReceiveCount } = queueNamed(jobsDeadLetterWorker.queue);
const REASON = deadLetterReason(maxReceiveCount);

let runtime: Runtime;
let written: string[];
const lines = (): Line[] => written.map((l) => JSON.parse(l) as Line);

beforeAll(() => {
  written = [];
  runtime = testRuntime({ clock: systemClock, logger: createLogger('debug', (line) => written.push(line)) });
});

/** A message as the dead-letter queue hands it over: moved after maxReceiveCount receives, received once more here. */
const deadLetter = (body: unknown): SQSRecord => sqsRecord(typeof body === 'string' ? body : JSON.stringify(body), maxReceiveCount + 1);

const consume = (records: SQSRecord[], run: Runtime = runtime) =>
  makeDeadLetterWorker({ runtime: run })({ Records: records }, lambdaContext('jobs-dead-letter-worker'));

/** A project whose jobs go nowhere: each test runs (or kills) them by hand. */
async function project() {
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const e = engines();
  const api = apiClient(
    {
      runtime,
      jobs,
      links: createS3Presigner({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint }),
      downloadBaseUrl: () => 'http://download.test',
    },
    keyPairHeaders(pair),
  );
  return { pair, jobs, api };
}

/** A promise that never settles: the process holding it is gone. */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** The table client of a worker that is killed (never answers again) after `writes` transactions. */
function killedAfter(ddb: DynamoDBDocumentClient, writes: number): { ddb: DynamoDBDocumentClient; transactions: () => number } {
  let count = 0;
  const proxy = new Proxy(ddb, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
      return (command: { constructor: { name: string } }) => {
        if (command.constructor.name === 'TransactWriteCommand') {
          count += 1;
          if (count > writes) return never();
        }
        return (target.send as (c: unknown) => Promise<unknown>)(command);
      };
    },
  });
  return { ddb: proxy, transactions: () => count };
}

/** A table client that refuses every request, as an unreachable table does. */
function unreachable(ddb: DynamoDBDocumentClient): DynamoDBDocumentClient {
  return new Proxy(ddb, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
      return () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { name: 'TimeoutError' }));
    },
  });
}

describe('jobs dead-letter worker', () => {
  it("marks a generation FAILED with the reason when its last delivery was killed mid-job, and the new campaign's creation FAILED", async () => {
    const { pair, jobs, api } = await project();
    const created = await api.call('create-campaign', { json: { ...campaignBodies.DISCOUNT_COUPONS('Abandoned'), vouchers_count: 400 } });
    expect(created.status).toBe(200);
    const campaignId = (created.body as { id: string }).id;
    const job = jobs.sent[0] as Extract<JobMessage, { type: 'generate-vouchers' }>;
    // The last delivery: the worker writes two batches, then its process is killed (nothing answers, nothing fails the job).
    const killed = killedAfter(runtime.ddb, 2);
    void makeJobsWorker({ runtime: { ...runtime, ddb: killed.ddb } })({ Records: [sqsRecord(JSON.stringify(job), maxReceiveCount)] }, {} as never);
    for (let i = 0; i < 100 && killed.transactions() <= 2; i += 1) await sleep(50);
    const open = await getAsyncAction(runtime, pair.project_id, job.asyncActionId);
    expect(open).toMatchObject({ status: 'IN_PROGRESS', doneCount: 2 * MAX_VOUCHERS_PER_TRANSACTION });

    const result = await consume([deadLetter(job)]);

    expect(result).toEqual({ batchItemFailures: [] });
    const reply = await api.call('get-async-action', { params: { asyncActionId: job.asyncActionId } });
    expect(reply.body).toMatchObject({ status: 'FAILED', operation_status: 'FAILED', progress: 24, result: { message: REASON } });
    expect(REASON).toBe("The job's last delivery ended without finishing (timed out or killed) after 3 receives");
    expect((await getCampaign(runtime, pair.project_id, campaignId))?.creationStatus).toBe('FAILED');
    // The message cannot move it back, nor can a stray copy of the job.
    await makeJobsWorker({ runtime })({ Records: [sqsRecord(JSON.stringify(job), 1)] }, {} as never);
    expect(await getAsyncAction(runtime, pair.project_id, job.asyncActionId)).toMatchObject({
      status: 'FAILED',
      doneCount: 2 * MAX_VOUCHERS_PER_TRANSACTION,
      failure: REASON,
    });
    const closed = lines().find((l) => l.message === 'dead-lettered job closed' && l.async_action_id === job.asyncActionId);
    expect(closed).toMatchObject({ level: 'error', type: 'generate-vouchers', project_id: pair.project_id, receives: maxReceiveCount + 1 });
  }, 30_000);

  it('marks a scheduled export ERROR with the reason', async () => {
    const { pair, jobs, api } = await project();
    const campaign = await api.call('create-campaign', { json: campaignBodies.LOYALTY_PROGRAM('Dead export') });
    const campaignId = (campaign.body as { id: string }).id;
    const created = await api.call('create-points-expiration-export', { params: { campaignId }, json: {} });
    expect(created.body).toMatchObject({ status: 'SCHEDULED' });
    const job = jobs.sent[0] as Extract<JobMessage, { type: 'export-points-expiration' }>;

    expect(await consume([deadLetter(job)])).toEqual({ batchItemFailures: [] });

    const reply = await api.call('get-export', { params: { exportId: job.exportId } });
    expect(reply.body).toMatchObject({ id: job.exportId, status: 'ERROR', result: { message: REASON } });
    expect((await getExport(runtime, pair.project_id, job.exportId))?.failure).toBe(REASON);
  });

  it('leaves a DONE generation exactly as it was, and a FAILED one with its first reason', async () => {
    const { pair, jobs, api } = await project();
    const campaign = await api.call('create-campaign', { json: campaignBodies.DISCOUNT_COUPONS('Finished') });
    const campaignId = (campaign.body as { id: string }).id;
    await api.call('add-vouchers-to-campaign', { params: { campaignId }, query: 'vouchers_count=20' });
    await api.call('add-vouchers-to-campaign', { params: { campaignId }, query: 'vouchers_count=20' });
    const [doneJob, failedJob] = jobs.sent as Extract<JobMessage, { type: 'generate-vouchers' }>[];
    if (!doneJob || !failedJob) throw new Error('two jobs expected');
    await makeJobsWorker({ runtime })({ Records: [sqsRecord(JSON.stringify(doneJob))] }, {} as never);
    // What the jobs worker writes when the last delivery fails with an error; the message still goes on to the DLQ.
    await failGeneration(runtime, pair.project_id, failedJob.asyncActionId, 'Gave up after 3 attempts: the first reason');
    const done = await getAsyncAction(runtime, pair.project_id, doneJob.asyncActionId);
    const failed = await getAsyncAction(runtime, pair.project_id, failedJob.asyncActionId);
    expect(done).toMatchObject({ status: 'DONE', doneCount: 20 });
    expect(failed).toMatchObject({ status: 'FAILED', failure: 'Gave up after 3 attempts: the first reason' });

    expect(await consume([deadLetter(doneJob), deadLetter(failedJob)])).toEqual({ batchItemFailures: [] });

    expect(await getAsyncAction(runtime, pair.project_id, doneJob.asyncActionId)).toEqual(done);
    expect(await getAsyncAction(runtime, pair.project_id, failedJob.asyncActionId)).toEqual(failed);
  });

  it("drops a malformed message (logged with its issues, never its body) and touches nothing, even when it names an open action; another project's id opens nothing", async () => {
    const { pair, jobs, api } = await project();
    const campaign = await api.call('create-campaign', { json: campaignBodies.DISCOUNT_COUPONS('Untouched') });
    const campaignId = (campaign.body as { id: string }).id;
    await api.call('add-vouchers-to-campaign', { params: { campaignId }, query: 'vouchers_count=20' });
    const job = jobs.sent[0] as Extract<JobMessage, { type: 'generate-vouchers' }>;
    const before = await getAsyncAction(runtime, pair.project_id, job.asyncActionId);
    expect(before?.status).toBe('ENQUEUED');
    const other = await newProject(runtime);
    const bad = [
      deadLetter('{not json'),
      deadLetter({ ...job, secret: 'SECRET-IN-BODY' }),
      deadLetter({ type: 'generate-vouchers', projectId: pair.project_id, asyncActionId: 'aa_../../x' }),
      deadLetter({ type: 'drop-tables', projectId: pair.project_id }),
      deadLetter([]),
    ];
    const elsewhere = deadLetter({ ...job, projectId: other.project_id });
    const missing = deadLetter({ ...job, asyncActionId: 'aa_doesnotexist' });
    const from = written.length;

    const result = await consume([...bad, elsewhere, missing]);

    expect(result).toEqual({ batchItemFailures: [] });
    expect(await getAsyncAction(runtime, pair.project_id, job.asyncActionId)).toEqual(before);
    const logged = written.slice(from).map((l) => JSON.parse(l) as Line);
    const malformed = logged.filter((l) => l.message === 'malformed dead-lettered job message dropped');
    expect(malformed.map((l) => l.message_id).sort()).toEqual(bad.map((r) => r.messageId).sort());
    for (const line of malformed) expect(line).toMatchObject({ level: 'warn', issues: expect.any(String), lambda_request_id: expect.any(String) });
    expect(written.slice(from).join('\n')).not.toContain('SECRET-IN-BODY');
    const notOpen = logged.filter((l) => l.message === 'dead-lettered job has nothing open (final already, or missing)');
    expect(notOpen.map((l) => l.message_id).sort()).toEqual([elsewhere.messageId, missing.messageId].sort());
  });

  it('returns a message whose write failed for another delivery, and closes its job on that delivery', async () => {
    const { pair, jobs, api } = await project();
    const campaign = await api.call('create-campaign', { json: campaignBodies.DISCOUNT_COUPONS('Retried') });
    await api.call('add-vouchers-to-campaign', { params: { campaignId: (campaign.body as { id: string }).id }, query: 'vouchers_count=20' });
    const job = jobs.sent[0] as Extract<JobMessage, { type: 'generate-vouchers' }>;
    const record = deadLetter(job);
    const ok = deadLetter('{}');

    const failed = await consume([record, ok], { ...runtime, ddb: unreachable(runtime.ddb) });

    expect(failed).toEqual({ batchItemFailures: [{ itemIdentifier: record.messageId }] });
    expect((await getAsyncAction(runtime, pair.project_id, job.asyncActionId))?.status).toBe('ENQUEUED');
    expect(await consume([record])).toEqual({ batchItemFailures: [] });
    expect(await getAsyncAction(runtime, pair.project_id, job.asyncActionId)).toMatchObject({ status: 'FAILED', failure: REASON });
  });
});
