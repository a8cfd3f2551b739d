import { randomUUID } from 'node:crypto';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHandler as makeExportJobsWorker } from '../../../functions/workers/export-jobs-worker.js';
import { makeHandler as makeJobsWorker } from '../../../functions/workers/jobs-worker.js';
import { lambdaContext } from '../../../infra/local/api-gateway-event.js';
import { EXPORT_JOBS_QUEUE, JOBS_QUEUE, queueNamed } from '../../../lib/api/resources.js';
import { addVouchersToCampaignRoute, createCampaignRoute, createPointsExpirationExportRoute } from '../../../lib/api/routes.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { systemClock } from '../../../lib/clock.js';
import { getExport } from '../../../lib/exports/export.repo.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { createSqsJobQueue } from '../../../lib/jobs/sqs-job-queue.js';
import type { Runtime } from '../../../lib/runtime.js';
import { campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { defaultExtras, routeClient } from '../../support/hostile/route-harness.js';
import { createQueueWithDlq, deleteQueues } from '../../support/queues.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';

/**
 * Job kinds split over queues by what their code loads (issue 15 item 6): the enqueue side puts each
 * message on its kind's queue, and a worker handed a kind of another queue never runs it.
 */

let runtime: Runtime;
let sqs: SQSClient;
const queueUrls: string[] = [];

beforeAll(() => {
  const e = engines();
  runtime = testRuntime({ clock: systemClock });
  sqs = new SQSClient({ region: e.region, endpoint: e.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});

afterAll(async () => {
  await deleteQueues(sqs, queueUrls);
  sqs.destroy();
});

/** A project with a bulk generation and a points-expiration export scheduled, their messages kept in `jobs`. */
async function projectWithBothJobs() {
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = routeClient(runtime, { ...defaultExtras(), jobs });
  const headers = keyPairHeaders(pair);
  const coupons = (await api(createCampaignRoute, { json: campaignBodies.DISCOUNT_COUPONS('Lanes'), headers })).body as { id: string };
  const loyalty = (await api(createCampaignRoute, { json: campaignBodies.LOYALTY_PROGRAM('Lanes points'), headers })).body as { id: string };
  const bulk = await api(addVouchersToCampaignRoute, { params: { campaignId: coupons.id }, query: 'vouchers_count=3', headers });
  expect(bulk.status).toBe(202);
  const exported = await api(createPointsExpirationExportRoute, { params: { campaignId: loyalty.id }, json: {}, headers });
  expect(exported.status).toBe(200);
  const generation = jobs.sent.find((j) => j.type === 'generate-vouchers');
  const file = jobs.sent.find((j) => j.type === 'export-points-expiration');
  if (generation?.type !== 'generate-vouchers' || file?.type !== 'export-points-expiration') throw new Error('both jobs should be enqueued');
  return { projectId: pair.project_id, generation, file };
}

describe('job queues per job kind', () => {
  it('puts a generation on the jobs queue and an export on the export jobs queue', async () => {
    const suffix = randomUUID().slice(0, 8);
    const jobsQueue = await createQueueWithDlq(sqs, `lanes-jobs-${suffix}`, { visibilityTimeoutSeconds: 30 });
    const exportQueue = await createQueueWithDlq(sqs, `lanes-exports-${suffix}`, { visibilityTimeoutSeconds: 30 });
    queueUrls.push(jobsQueue.url, jobsQueue.dlqUrl, exportQueue.url, exportQueue.dlqUrl);
    const e = engines();
    const queue = createSqsJobQueue({
      region: e.region,
      sqsEndpoint: e.sqsEndpoint,
      queueUrls: { [JOBS_QUEUE]: jobsQueue.url, [EXPORT_JOBS_QUEUE]: exportQueue.url },
    });
    const generation: JobMessage = { type: 'generate-vouchers', projectId: 'p_lanes', asyncActionId: 'aa_lanes1' };
    const file: JobMessage = { type: 'export-points-expiration', projectId: 'p_lanes', exportId: 'exp_lanes1' };
    await queue.send(generation);
    await queue.send(file);
    const bodiesOf = async (url: string) =>
      ((await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }))).Messages ?? []).map(
        (m) => JSON.parse(m.Body ?? '') as unknown,
      );
    expect(await bodiesOf(jobsQueue.url)).toEqual([generation]);
    expect(await bodiesOf(exportQueue.url)).toEqual([file]);
  });

  it('refuses to send a job whose queue has no URL, naming the missing variable, and sends nothing', async () => {
    const e = engines();
    const queue = createSqsJobQueue({ region: e.region, sqsEndpoint: e.sqsEndpoint, queueUrls: { [JOBS_QUEUE]: 'http://127.0.0.1:1/nowhere' } });
    await expect(queue.send({ type: 'export-points-expiration', projectId: 'p_lanes', exportId: 'exp_lanes2' })).rejects.toThrow(
      /EXPORT_JOBS_QUEUE_URL is required by a function that enqueues export-points-expiration jobs/,
    );
  });

  it('leaves a job of another queue alone in each worker (retried, not run) and fails it on its last delivery, never running it', async () => {
    const { projectId, generation, file } = await projectWithBothJobs();
    const jobsWorker = makeJobsWorker({ runtime });
    const exportWorker = makeExportJobsWorker({ runtime });
    const { maxReceiveCount } = queueNamed(JOBS_QUEUE);

    const early = [
      await exportWorker({ Records: [sqsRecord(JSON.stringify(generation), 1)] }, lambdaContext('export-jobs-worker')),
      await jobsWorker({ Records: [sqsRecord(JSON.stringify(file), 1)] }, lambdaContext('jobs-worker')),
    ];
    for (const reply of early) expect(reply.batchItemFailures).toHaveLength(1);
    expect((await getAsyncAction(runtime, projectId, generation.asyncActionId))?.status).toBe('ENQUEUED');
    expect((await getExport(runtime, projectId, file.exportId))?.status).toBe('SCHEDULED');

    await exportWorker({ Records: [sqsRecord(JSON.stringify(generation), maxReceiveCount)] }, lambdaContext('export-jobs-worker'));
    await jobsWorker({ Records: [sqsRecord(JSON.stringify(file), maxReceiveCount)] }, lambdaContext('jobs-worker'));
    const action = await getAsyncAction(runtime, projectId, generation.asyncActionId);
    expect(action).toMatchObject({ status: 'FAILED', doneCount: 0 });
    expect(JSON.stringify(action)).toMatch(/does not run generate-vouchers jobs \(the message is on the wrong queue\)/);
    const record = await getExport(runtime, projectId, file.exportId);
    expect(record?.status).toBe('ERROR');
    expect(JSON.stringify(record)).toMatch(/does not run export-points-expiration jobs/);
  });
});
