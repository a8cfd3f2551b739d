import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal } from '../../../infra/local/start-local.js';
import { resources } from '../../../lib/api/resources.js';
import { jobsDeadLetterWorker, jobsWorker, type WorkerDef } from '../../../lib/api/workers.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { systemClock } from '../../../lib/clock.js';
import { deadLetterReason } from '../../../lib/jobs/dead-letter.js';
import { createSqsJobQueue } from '../../../lib/jobs/sqs-job-queue.js';
import { silentLogger } from '../../../lib/logger.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { campaignBodies } from '../../support/api.js';
import { createQueueWithDlq, deleteQueues } from '../../support/queues.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { deliveries } from './fixtures/hanging-worker.js';

/**
 * The dead-letter path of the local runtime, the same as in AWS: a job whose every delivery runs
 * into the worker's time limit is moved by the queue's redrive policy to the dead-letter queue,
 * where the local runtime's poller of the dead-letter worker (from the worker table) closes it.
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

describe('local runtime dead-letter queue', () => {
  it('polls the jobs dead-letter queue and fails the action of a job whose deliveries all timed out', async () => {
    const e = engines();
    const [jobs] = resources.queues;
    // A queue pair of this test's own (1 s visibility), with the real redrive after maxReceiveCount (3) receives.
    const queue = await createQueueWithDlq(sqs, `dead-${randomUUID().slice(0, 8)}`, { visibilityTimeoutSeconds: 1, maxReceiveCount: jobs.maxReceiveCount });
    queueUrls.push(queue.url, queue.dlqUrl);
    // The jobs worker's row with a handler that never answers and a 1 s limit: each delivery times out.
    const hanging: WorkerDef = { ...jobsWorker, handler: 'test/integration/local/fixtures/hanging-worker.ts', timeoutSeconds: 1 };
    const local = await startLocal({
      dataDir: null,
      port: 0,
      downloadPort: 0,
      logger: silentLogger,
      logLevel: 'error',
      engines: { ...e, queueUrls: { [jobs.name]: queue.url, [jobs.deadLetter]: queue.dlqUrl } },
      workers: [hanging, jobsDeadLetterWorker],
    });
    try {
      const pair = await newProject(runtime);
      const api = apiClient(
        { runtime, jobs: createSqsJobQueue({ region: e.region, sqsEndpoint: e.sqsEndpoint, jobsQueueUrl: queue.url }) },
        keyPairHeaders(pair),
      );
      const campaign = await api.call('create-campaign', { json: campaignBodies.DISCOUNT_COUPONS('Timed out') });
      const accepted = await api.call('add-vouchers-to-campaign', { params: { campaignId: (campaign.body as { id: string }).id }, query: 'vouchers_count=50' });
      expect(accepted.status).toBe(202);
      const actionId = (accepted.body as { async_action_id: string }).async_action_id;

      let action = await getAsyncAction(runtime, pair.project_id, actionId);
      for (let i = 0; i < 300 && action?.status === 'ENQUEUED'; i += 1) {
        await sleep(100);
        action = await getAsyncAction(runtime, pair.project_id, actionId);
      }

      expect(action).toMatchObject({ status: 'FAILED', failure: deadLetterReason(jobs.maxReceiveCount) });
      const ours = deliveries().filter((ev) => ev.Records.some((r) => r.body.includes(actionId)));
      expect(ours.map((ev) => ev.Records[0]?.attributes.ApproximateReceiveCount)).toEqual(['1', '2', '3']);
      // The poller deletes the message once the handler has returned, a moment after the action shows FAILED.
      const dlqCounts = async () =>
        (
          await sqs.send(
            new GetQueueAttributesCommand({ QueueUrl: queue.dlqUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
          )
        ).Attributes;
      let left = await dlqCounts();
      for (let i = 0; i < 50 && (left?.ApproximateNumberOfMessages !== '0' || left?.ApproximateNumberOfMessagesNotVisible !== '0'); i += 1) {
        await sleep(100);
        left = await dlqCounts();
      }
      expect(left).toMatchObject({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
    } finally {
      await local.stop();
    }
  }, 60_000);
});
