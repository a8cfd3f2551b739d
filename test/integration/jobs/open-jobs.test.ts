import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../../infra/local/api-gateway-event.js';
import { getAsyncAction, startAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { systemClock } from '../../../lib/clock.js';
import { openJob } from '../../../lib/db/entities.js';
import type { ExportFiles } from '../../../lib/exports/export-files.js';
import { createPointsExpirationExport } from '../../../lib/exports/export.service.js';
import { getExport } from '../../../lib/exports/export.repo.js';
import { failExport } from '../../../lib/exports/export.repo.js';
import { runPointsExpirationExport } from '../../../lib/exports/points-expiration-export.js';
import { createS3ExportFiles } from '../../../lib/exports/s3-export-files.js';
import { closeDeadLetteredJob } from '../../../lib/jobs/dead-letter.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { openJobKey } from '../../../lib/jobs/open-job.repo.js';
import { resumeOpenJobs } from '../../../lib/jobs/resume-open-jobs.js';
import type { Runtime } from '../../../lib/runtime.js';
import { failGeneration } from '../../../lib/vouchers/bulk-generation.js';
import { listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { campaignApi, campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { createOwnTable, type OwnTable } from '../../support/hostile/route-harness.js';
import { engines, newProject } from '../../support/runtime.js';
import { seedBuckets } from '../../support/seed-buckets.js';
import { sqsRecord } from '../../support/sqs-record.js';
import { makeJobWorkers as makeWorker, stoppingAfterTransactions } from '../../support/job-workers.js';

/**
 * Open-job markers (lib/jobs/open-job.ts), the start-up reconcile that re-enqueues open jobs
 * (lib/jobs/resume-open-jobs.ts) and the stop signal that lets a job in hand reach its next
 * checkpoint. On a table of this file's own, so the reconcile sees only this file's markers.
 * The whole runtime killed and restarted: test/integration/local/crash-restart.test.ts.
 */

let table: OwnTable;
let runtime: Runtime;
let files: ExportFiles;
let s3: S3Client;

beforeAll(async () => {
  const e = engines();
  table = await createOwnTable('open-jobs');
  runtime = table.runtime({ clock: systemClock });
  // Small parts, so a stopped export has sent some of a multipart upload before it is abandoned.
  files = createS3ExportFiles({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint }, { partBytes: 8 * 1024 });
  s3 = new S3Client({ region: e.region, endpoint: e.s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
});

afterAll(async () => {
  await table.drop();
  s3.destroy();
});

const markerOf = (projectId: string, subjectId: string) => openJob.get(runtime, openJobKey(projectId, subjectId));

/** Runs the real jobs worker (as Lambda or the local poller would) on `jobs`, `receives` being the delivery number. */
async function work(jobs: JobMessage[], options: { stop?: AbortSignal; ddb?: DynamoDBDocumentClient; files?: ExportFiles; receives?: number } = {}) {
  const worker = makeWorker({
    runtime: { ...runtime, ddb: options.ddb ?? runtime.ddb },
    files: options.files ?? files,
    ...(options.stop ? { stop: options.stop } : {}),
  });
  const records: SQSRecord[] = jobs.map((job) => sqsRecord(JSON.stringify(job), options.receives ?? 1));
  // The jobs worker's own 5-minute budget (lib/api/workers.ts): under load a run here takes longer than an API function's 29 s, and a run
  // past its budget stops at a checkpoint by design, which these tests would read as the stop they cause themselves.
  return worker({ Records: records }, lambdaContext('jobs-worker', 300_000));
}

/** The table client, raising `controller` once `after` transactions have been written (the job's checkpoints). */

async function generation(count: number) {
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = campaignApi(runtime, pair, jobs);
  const campaign = await newCampaign(api);
  const reply = await api.addVoucher(campaign.id as string, {}, `vouchers_count=${count}`);
  expect(reply.status).toBe(202);
  return { projectId: pair.project_id, campaignId: campaign.id as string, actionId: reply.json.async_action_id as string, jobs, api };
}

async function pointsExport(buckets: number) {
  const pair = await newProject(runtime);
  const campaign = await campaignApi(runtime, pair).createCampaign(campaignBodies.LOYALTY_PROGRAM('Points'));
  expect(campaign.status).toBe(200);
  const campaignId = campaign.json.id as string;
  const seeded = await seedBuckets(runtime, pair.project_id, campaignId, buckets);
  const jobs = new RecordingJobQueue();
  const record = await createPointsExpirationExport(
    { ...runtime, jobs },
    pair.project_id,
    campaignId,
    { parameters: { fields: ['id', 'points'] } },
    pair.app_id,
  );
  return { projectId: pair.project_id, exportId: record.id, jobs, seeded };
}

async function objectKeys(projectId: string): Promise<string[]> {
  const res = await s3.send(new ListObjectsV2Command({ Bucket: engines().bucketName, Prefix: `exports/${projectId}/` }));
  return (res.Contents ?? []).map((c) => c.Key ?? '');
}

describe('open-job markers', () => {
  it('puts a marker with a bulk generation and deletes it in the transaction that makes the action DONE', async () => {
    const { projectId, actionId, jobs } = await generation(60);
    expect(await markerOf(projectId, actionId)).toEqual({ type: 'generate-vouchers', projectId, subjectId: actionId, createdAt: expect.any(String) });
    await jobs.deliver(runtime);
    expect((await getAsyncAction(runtime, projectId, actionId))?.status).toBe('DONE');
    expect(await markerOf(projectId, actionId)).toBeNull();
  });

  it('deletes the marker of a generation that fails', async () => {
    const { projectId, actionId } = await generation(60);
    await failGeneration(runtime, projectId, actionId, 'Campaign gone');
    expect((await getAsyncAction(runtime, projectId, actionId))?.status).toBe('FAILED');
    expect(await markerOf(projectId, actionId)).toBeNull();
  });

  it('deletes the marker of a job closed from the dead-letter queue', async () => {
    const { projectId, actionId, jobs } = await generation(60);
    const [job] = jobs.sent.splice(0);
    expect(await closeDeadLetteredJob(runtime, sqsRecord(JSON.stringify(job), 3), 3)).toBe('closed');
    expect((await getAsyncAction(runtime, projectId, actionId))?.status).toBe('FAILED');
    expect(await markerOf(projectId, actionId)).toBeNull();
  });

  it('puts a marker with an export and deletes it when the export is DONE or ERROR', async () => {
    const done = await pointsExport(10);
    expect(await markerOf(done.projectId, done.exportId)).toMatchObject({ type: 'export-points-expiration', subjectId: done.exportId });
    expect((await runPointsExpirationExport({ ...runtime, files }, done.projectId, done.exportId))?.status).toBe('DONE');
    expect(await markerOf(done.projectId, done.exportId)).toBeNull();

    const failed = await pointsExport(1);
    await failExport(runtime, failed.projectId, failed.exportId, 'Bucket gone');
    expect((await getExport(runtime, failed.projectId, failed.exportId))?.status).toBe('ERROR');
    expect(await markerOf(failed.projectId, failed.exportId)).toBeNull();
  });
});

describe('resumeOpenJobs', () => {
  it('re-enqueues every open job found through the markers, clears markers of final jobs, and the jobs then finish', async () => {
    const enqueued = await generation(30);
    const started = await generation(40);
    await startAsyncAction(runtime, started.projectId, started.actionId, new Date().toISOString());
    const scheduled = await pointsExport(5);
    const finished = await generation(20);
    await finished.jobs.deliver(runtime);
    // A marker left behind by a job that ended without it (e.g. written by hand): cleared, not run.
    await runtime.ddb.send(
      new PutCommand(
        openJob.putIfAbsent(runtime, { type: 'generate-vouchers', projectId: finished.projectId, subjectId: finished.actionId, createdAt: 'x' }).Put,
      ),
    );
    const orphan = { type: 'generate-vouchers' as const, projectId: finished.projectId, subjectId: 'aa_gone', createdAt: 'x' };
    await runtime.ddb.send(new PutCommand(openJob.putIfAbsent(runtime, orphan).Put));

    const queue = new RecordingJobQueue();
    const report = await resumeOpenJobs(runtime, queue);

    const resumedIds = report.resumed.map((j) => j.subjectId).sort();
    expect(resumedIds).toEqual([enqueued.actionId, started.actionId, scheduled.exportId].sort());
    expect(queue.sent).toHaveLength(3);
    expect(queue.sent).toEqual(
      expect.arrayContaining([
        { type: 'generate-vouchers', projectId: enqueued.projectId, asyncActionId: enqueued.actionId },
        { type: 'generate-vouchers', projectId: started.projectId, asyncActionId: started.actionId },
        { type: 'export-points-expiration', projectId: scheduled.projectId, exportId: scheduled.exportId },
      ]),
    );
    expect(report.cleared.map((j) => j.subjectId).sort()).toEqual([finished.actionId, 'aa_gone'].sort());
    expect(await markerOf(finished.projectId, finished.actionId)).toBeNull();
    expect(await markerOf(finished.projectId, 'aa_gone')).toBeNull();
    expect(report.failed).toEqual([]);

    await work(queue.sent.splice(0));
    expect((await getAsyncAction(runtime, enqueued.projectId, enqueued.actionId))?.status).toBe('DONE');
    expect((await getAsyncAction(runtime, started.projectId, started.actionId))?.status).toBe('DONE');
    expect((await getExport(runtime, scheduled.projectId, scheduled.exportId))?.status).toBe('DONE');
    expect(await resumeOpenJobs(runtime, queue)).toEqual({ resumed: [], skipped: [], cleared: [], failed: [] });
  });

  it('leaves out jobs changed since `updatedBefore` (a sweep beside busy workers) and reports a refused send', async () => {
    const open = await generation(10);
    const action = await getAsyncAction(runtime, open.projectId, open.actionId);
    const changedAt = action?.updatedAt ?? '';
    const skipping = await resumeOpenJobs(runtime, new RecordingJobQueue(), { updatedBefore: changedAt });
    expect(skipping.skipped.map((j) => j.subjectId)).toEqual([open.actionId]);
    expect(skipping.resumed).toEqual([]);

    const refusing = { send: () => Promise.reject(new Error('queue down')) };
    const refused = await resumeOpenJobs(runtime, refusing, { updatedBefore: '9999' });
    expect(refused.failed.map((j) => j.subjectId)).toEqual([open.actionId]);
    expect(await markerOf(open.projectId, open.actionId)).not.toBeNull();

    await open.jobs.deliver(runtime);
    expect(await markerOf(open.projectId, open.actionId)).toBeNull();
  });
});

// A generation of 500 codes and an export of 2,500 rows, each run twice: minutes when another file (the kill -9 test) has the
// machine's two cores, so these wait longer than the suite's 60 s before calling it a hang.
describe('the stop signal (Ctrl-C of the local runtime)', { timeout: 240_000 }, () => {
  it('stops a generation after the batch in hand, even on its last delivery: IN_PROGRESS at a checkpoint, then resumed to the exact count', async () => {
    const { projectId, campaignId, actionId, jobs, api } = await generation(500);
    const stop = new AbortController();
    const [job] = jobs.sent.splice(0);
    // The third delivery of three: a failure here would mark the action FAILED; a stop must not.
    const reply = await work([job as JobMessage], { stop: stop.signal, ddb: stoppingAfterTransactions(runtime.ddb, stop, 3), receives: 3 });
    expect(reply.batchItemFailures).toHaveLength(1);
    const stopped = await getAsyncAction(runtime, projectId, actionId);
    expect(stopped).toMatchObject({ status: 'IN_PROGRESS', doneCount: 3 * 48 });
    expect((await api.getCampaign(campaignId)).json.vouchers_count).toBe(3 * 48);
    expect(await markerOf(projectId, actionId)).not.toBeNull();

    expect((await work([job as JobMessage])).batchItemFailures).toEqual([]);
    expect(await getAsyncAction(runtime, projectId, actionId)).toMatchObject({ status: 'DONE', doneCount: 500 });
    const codes = await listCampaignVoucherCodes(runtime, projectId, campaignId);
    expect(codes).toHaveLength(500);
    expect(new Set(codes).size).toBe(500);
    expect((await api.getCampaign(campaignId)).json.vouchers_count).toBe(500);
  });

  it('abandons an export at the next page: IN_PROGRESS, the partial upload dropped, then written whole by the next run', async () => {
    const { projectId, exportId, jobs, seeded } = await pointsExport(2500);
    const stop = new AbortController();
    let writes = 0;
    const stopping: ExportFiles = {
      delete: (key) => files.delete(key),
      presignGet: (key, seconds, now) => files.presignGet(key, seconds, now),
      upload: async (key, options) => {
        const upload = await files.upload(key, options);
        return {
          // The header, then the first page of rows (over one part: the multipart upload has begun); then Ctrl-C.
          write: async (chunk) => {
            await upload.write(chunk);
            if (++writes === 2) stop.abort();
          },
          complete: () => upload.complete(),
          abort: () => upload.abort(),
        };
      },
    };
    const [job] = jobs.sent.splice(0);
    const reply = await work([job as JobMessage], { stop: stop.signal, files: stopping, receives: 3 });
    expect(reply.batchItemFailures).toHaveLength(1);
    expect(writes).toBe(2);
    expect((await getExport(runtime, projectId, exportId))?.status).toBe('IN_PROGRESS');
    expect(await objectKeys(projectId)).toEqual([]);
    expect(await markerOf(projectId, exportId)).not.toBeNull();

    expect((await work([job as JobMessage])).batchItemFailures).toEqual([]);
    const done = await getExport(runtime, projectId, exportId);
    expect(done).toMatchObject({ status: 'DONE', rowCount: seeded.length });
    expect(await objectKeys(projectId)).toEqual([`exports/${projectId}/${exportId}.csv`]);
    expect(await markerOf(projectId, exportId)).toBeNull();
  });
});
