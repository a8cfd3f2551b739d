import type { ResourceNeeds } from './route.js';
import type { QueueName } from './resources.js';

/**
 * One queue worker: a Lambda function fed by an SQS event source. Like the endpoint table, this is
 * written once and drives the stateless stack's event-source mappings and the local runtime's pollers.
 */
export interface WorkerDef {
  /** Function name (kebab-case); also the Lambda context's `functionName` locally. */
  name: string;
  /** The queue it consumes (its dead-letter queue is implied). */
  queue: QueueName;
  /** Handler module, relative to the repository root; exports `handler(event: SQSEvent)`. */
  handler: string;
  /** Messages per invocation, 1..10 (the SQS receive limit; Lambda's default is 10). */
  batchSize: number;
  /** The function's time limit; must stay below the queue's visibility timeout. */
  timeoutSeconds: number;
  summary: string;
  /** What it touches besides the table and its own queue. */
  needs: ResourceNeeds;
}

/**
 * Handlers return `{ batchItemFailures: [{ itemIdentifier: messageId }] }` for the messages to
 * retry (ReportBatchItemFailures); everything else in the batch is deleted. Throwing fails the
 * whole batch. Workers arrive with the features that enqueue work.
 */
export const jobsWorker: WorkerDef = {
  name: 'jobs-worker',
  queue: 'promo-engine-jobs',
  handler: 'functions/workers/jobs-worker.ts',
  // One job per invocation: a job is long (up to 100,000 vouchers, or an export), and Lambda scales out by concurrency.
  // One function consumes the queue (two event sources on one queue would each get a random share of every job type).
  batchSize: 1,
  // 100,000 vouchers are ~2,050 transactions; the queue's visibility timeout follows at 6x.
  timeoutSeconds: 300,
  summary: 'Runs the jobs of the jobs queue: bulk voucher generation (CAMPAIGN.VOUCHERS_GENERATE) and export files',
  // Export jobs write their CSV files to the export bucket.
  needs: { bucket: 'write', sendsTo: [], env: [] },
};

export const workers: readonly WorkerDef[] = [jobsWorker];
