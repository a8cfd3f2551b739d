import type { makeHandler as makeJobsWorker } from '../../functions/workers/jobs-worker.js';
import { lambdaContext } from '../../infra/local/api-gateway-event.js';
import { toSqsRecord } from '../../infra/local/sqs-poller.js';
import { eachLimited } from '../../lib/concurrency.js';
import type { JobMessage } from '../../lib/jobs/job.js';

const sqsRecordOf = (job: JobMessage, i: number) =>
  toSqsRecord(
    { MessageId: `bench-job-${i}`, ReceiptHandle: 'r', Body: JSON.stringify(job), Attributes: { ApproximateReceiveCount: '1' } },
    'arn:aws:sqs:local:000000000000:promo-engine-jobs',
  );

/**
 * Runs each job through the jobs worker's handler as Lambda does (one SQS record an invocation:
 * the queue's batch size is 1), `atOnce` invocations at a time.
 * @throws Error when a job fails.
 */
export async function runJobs(worker: ReturnType<typeof makeJobsWorker>, jobs: readonly JobMessage[], atOnce: number): Promise<void> {
  await eachLimited(
    jobs.map((job, i) => ({ job, i })),
    atOnce,
    async ({ job, i }) => {
      const result = await worker({ Records: [sqsRecordOf(job, i)] }, lambdaContext('jobs-worker', 900_000));
      if (result.batchItemFailures.length > 0) throw new Error(`the worker failed job ${JSON.stringify(job)}`);
    },
  );
}
