import type { ResourceNeeds } from './route.js';
import { EXPORT_JOBS_QUEUE, JOBS_QUEUE, queueNamed, type QueueName, WEBHOOKS_QUEUE } from './resources.js';

/**
 * One queue worker: a Lambda function fed by an SQS event source. Like the endpoint table, this is
 * written once and drives the stateless stack's event-source mappings and the local runtime's pollers.
 */
export interface WorkerDef {
  /** Function name (kebab-case); also the Lambda context's `functionName` locally. */
  name: string;
  /** The queue pair it belongs to (a name of `resources.queues`). */
  queue: QueueName;
  /**
   * Which queue of the pair it consumes: the queue itself (default), or its dead-letter queue,
   * where SQS moves a message after `maxReceiveCount` receives that did not delete it.
   */
  consumes?: 'queue' | 'dead-letter';
  /** Handler module, relative to the repository root; exports `handler(event: SQSEvent)`. */
  handler: string;
  /** Messages per invocation, 1..10 (the SQS receive limit; Lambda's default is 10). */
  batchSize: number;
  /** The function's time limit; must stay below the consumed queue's visibility timeout. */
  timeoutSeconds: number;
  summary: string;
  /**
   * What it may do to the table: `write` (default: put, update, delete) or `update` (read and
   * change existing items only, as moving a status to final needs, plus deleting the ended
   * jobs' open-job markers, which go in the same transaction).
   */
  table?: 'write' | 'update';
  /** What it touches besides the table and its own queue. */
  needs: ResourceNeeds;
  /** It sends to its own queue's dead-letter queue itself (a delivery given up after its retry bound): the stack grants it and sets the URL. */
  sendsToDeadLetter?: true;
  /**
   * V8's heap bounds for the function (`NODE_OPTIONS`), where the defaults (sized from the
   * function's memory) would let a long streaming job's heap grow with the work: V8 collects
   * lazily while there is room, so resident memory follows the rows, not what the job keeps.
   */
  heap?: { maxOldSpaceMiB: number; maxSemiSpaceMiB: number };
  /**
   * It walks a project's items with Scan (removing a project's data, erasing a customer: DynamoDB
   * cannot Query a key prefix across partitions), so the stack grants `dynamodb:Scan` on the table.
   */
  scansTable?: true;
}

/** The `NODE_OPTIONS` flags of a worker's `heap`, or none. */
export const heapFlags = (worker: Pick<WorkerDef, 'heap'>): string[] =>
  worker.heap ? [`--max-old-space-size=${worker.heap.maxOldSpaceMiB}`, `--max-semi-space-size=${worker.heap.maxSemiSpaceMiB}`] : [];

/**
 * The name of the queue a worker reads: its queue, or that queue's dead-letter queue.
 * @throws Error for a dead-letter consumer of a queue that is not one of `resources.queues`.
 */
export function consumedQueueName(worker: Pick<WorkerDef, 'queue' | 'consumes'>): string {
  return worker.consumes === 'dead-letter' ? queueNamed(worker.queue).deadLetter : worker.queue;
}

/**
 * Handlers return `{ batchItemFailures: [{ itemIdentifier: messageId }] }` for the messages to
 * retry (ReportBatchItemFailures); everything else in the batch is deleted. Throwing fails the
 * whole batch. Workers arrive with the features that enqueue work.
 */
export const jobsWorker: WorkerDef = {
  name: 'jobs-worker',
  queue: JOBS_QUEUE,
  handler: 'functions/workers/jobs-worker.ts',
  // One job per invocation: a job is long (up to 100,000 vouchers), and Lambda scales out by concurrency.
  // One function consumes each job queue (two event sources on one queue would each get a random share of every
  // job kind on it); the kinds are split over queues by what they load instead (lib/jobs/job.ts `jobKinds`).
  batchSize: 1,
  // 100,000 vouchers are ~2,050 transactions; the queue's visibility timeout follows at 6x.
  timeoutSeconds: 300,
  summary:
    'Runs the jobs that need only the table: bulk voucher generation, imports, and the vouchers of a deleted or changed campaign (CAMPAIGN.VOUCHERS_GENERATE, _IMPORT, _DELETE, _UPDATE; VOUCHERS.IMPORT)',
  // No bucket: its bundle carries no S3 client, which is what keeps its cold start near the baseline.
  needs: { bucket: null, sendsTo: [], env: [] },
  // remove-project-data walks the project's items.
  scansTable: true,
};

/** The export jobs queue's worker: the job kinds that write export files, and so the only worker with the S3 client. */
export const exportJobsWorker: WorkerDef = {
  name: 'export-jobs-worker',
  queue: EXPORT_JOBS_QUEUE,
  handler: 'functions/workers/export-jobs-worker.ts',
  // One export per invocation, as for the jobs queue: an export of 100,000 rows is long and streams its file.
  batchSize: 1,
  // An export streams its pages into a multipart upload; the same bound as the jobs worker (visibility timeout 6x).
  timeoutSeconds: 300,
  summary: "Runs the export jobs (writes export files to the export bucket) and customers' permanent deletions (the table, then the export files)",
  needs: { bucket: 'write', sendsTo: [], env: [] },
  // An export holds one page of rows and one upload part at a time (about 20 MiB kept after a GC at
  // 100,000 rows): 128 MiB of old space is six times that, and the 100,000-row voucher export
  // finished with 64 (docs/benchmarks.md item 20). A small semi-space keeps the young generation's
  // garbage from piling up between scavenges.
  heap: { maxOldSpaceMiB: 128, maxSemiSpaceMiB: 4 },
  // erase-customer walks the project's items for the customer's copies.
  scansTable: true,
};

/**
 * Closes the jobs whose last delivery died without an answer (the function timed out or was
 * killed, so the jobs worker never ran `failJob`): their messages reach the dead-letter queue and
 * this marks the async action FAILED / the export ERROR. A few conditional writes per message.
 */
export const jobsDeadLetterWorker: WorkerDef = {
  name: 'jobs-dead-letter-worker',
  queue: JOBS_QUEUE,
  consumes: 'dead-letter',
  handler: 'functions/workers/jobs-dead-letter-worker.ts',
  // Each message is a handful of small writes; ten at once drain a burst of dead letters quickly.
  batchSize: 10,
  // Ten messages' writes take well under a second; the dead-letter queue's visibility timeout follows at 6x.
  timeoutSeconds: 30,
  summary: 'Marks the jobs whose messages reached the jobs dead-letter queue FAILED (async actions) or ERROR (exports)',
  // Conditional status updates (the action or export, and a new campaign's status items): no item is created, and the
  // only one deleted is the ended job's open-job marker (the stack grants DeleteItem on those keys alone).
  table: 'update',
  needs: { bucket: null, sendsTo: [], env: [] },
};

/** The same for the export jobs queue: marks the exports whose messages were dead-lettered ERROR. */
export const exportJobsDeadLetterWorker: WorkerDef = {
  ...jobsDeadLetterWorker,
  name: 'export-jobs-dead-letter-worker',
  queue: EXPORT_JOBS_QUEUE,
  handler: 'functions/workers/export-jobs-dead-letter-worker.ts',
  summary: 'Marks the export jobs whose messages reached the export jobs dead-letter queue ERROR',
};

/**
 * Delivers webhooks (lib/events-out/delivery.ts): one POST per message, a failure re-enqueued with
 * the retry schedule's delay, a delivery past the bound moved to the dead-letter queue (alarmed).
 */
export const webhookDeliveryWorker: WorkerDef = {
  name: 'webhook-delivery-worker',
  queue: WEBHOOKS_QUEUE,
  handler: 'functions/workers/webhook-delivery-worker.ts',
  // Ten deliveries at once: each waits on a receiver (at most 10 s), so a batch takes about as long as its slowest.
  batchSize: 10,
  // One attempt is bounded at 10 s (webhook-sender.ts); the batch's attempts run side by side.
  timeoutSeconds: 30,
  summary: 'POSTs signed webhook events to their targets; retries with backoff, dead-letters after the bound',
  table: 'update',
  needs: { bucket: null, sendsTo: [WEBHOOKS_QUEUE], env: [] },
  sendsToDeadLetter: true,
};

export const workers: readonly WorkerDef[] = [jobsWorker, jobsDeadLetterWorker, exportJobsWorker, exportJobsDeadLetterWorker, webhookDeliveryWorker];

/**
 * A consumer of the single table's DynamoDB stream (the outbox): in AWS a Lambda with a DynamoDB
 * Streams event source filtered to `entities`, locally infra/local/stream-poller.ts.
 */
export interface StreamWorkerDef {
  name: string;
  handler: string;
  /** The `entity` values whose records reach it (an event filter in AWS: the others cost no invocation). */
  entities: readonly string[];
  /** Records per invocation (1..10,000; records of one shard, in order). */
  batchSize: number;
  timeoutSeconds: number;
  /** Invocations of one failing batch before its records go to the on-failure destination (a queue, alarmed). */
  retryAttempts: number;
  summary: string;
  needs: ResourceNeeds;
}

/** Maps item changes to the reference's events and enqueues one delivery per (event, webhook). */
export const outboxStreamWorker: StreamWorkerDef = {
  name: 'outbox-stream-worker',
  handler: 'functions/workers/outbox-stream-worker.ts',
  // Kept in step with lib/events-out/change-events.ts EVENT_ENTITIES (test/unit/events-out checks it).
  entities: [
    'redemption',
    'publication',
    'customer',
    'voucher',
    'card_transaction',
    'campaign',
    'pending_points',
    'earning_rule',
    'validation_rule',
    'validation_rule_assignment',
    'reward_assignment',
    'loyalty_tier_set',
    'promotion_stack',
    'referral_conversion',
  ],
  batchSize: 100,
  timeoutSeconds: 60,
  retryAttempts: 10,
  summary: 'Reads the table stream (the outbox) and enqueues one webhook delivery per event and subscribed webhook',
  needs: { bucket: null, sendsTo: [WEBHOOKS_QUEUE], env: [] },
};

export const streamWorkers: readonly StreamWorkerDef[] = [outboxStreamWorker];

/**
 * A worker started by a schedule rather than a queue: in AWS an EventBridge rule invokes its function
 * every `everyMinutes` (the stateless stack), locally the runtime calls its handler on the same
 * interval. Its work must be safe to run twice at once and to cut off anywhere: the next run
 * carries on from what is stored (no message holds its progress).
 */
export interface ScheduledWorkerDef {
  /** Function name (kebab-case); also the Lambda context's `functionName` locally. */
  name: string;
  /** Handler module, relative to the repository root; exports `handler(event: ScheduledEvent)`. */
  handler: string;
  /** Minutes between runs (an EventBridge `rate`). */
  everyMinutes: number;
  /** The function's time limit; the run stops starting new work a margin before it. */
  timeoutSeconds: number;
  summary: string;
}

/**
 * Writes off expired loyalty points (lib/loyalties/points-expiry.job.ts). Hourly: expiry is by
 * calendar day, so a run a little after midnight UTC does the day's work and the others find little
 * or nothing (a Query per shard each); a failed or missed run is made good within the hour.
 */
export const pointsExpiryWorker: ScheduledWorkerDef = {
  name: 'points-expiry-worker',
  handler: 'functions/workers/points-expiry-worker.ts',
  everyMinutes: 60,
  // Lambda's maximum: a day's write-offs of a large program (100,000 buckets) fit in one run; what does not, the next run finishes.
  timeoutSeconds: 900,
  summary: 'Writes off loyalty points whose buckets expired (POINTS_EXPIRATION card transactions), hourly',
};

/**
 * Runs the loyalty effects of orders whose move to PAID or CANCELED is still marked due
 * (lib/orders/order-loyalty.job.ts): what a request that died after its commit did not earn or
 * take back. Every 5 minutes, acting on marks older than 5 minutes: a lost earning shows within ~10.
 */
export const orderLoyaltyWorker: ScheduledWorkerDef = {
  name: 'order-loyalty-worker',
  handler: 'functions/workers/order-loyalty-worker.ts',
  everyMinutes: 5,
  timeoutSeconds: 300,
  summary: 'Earns (or takes back) the loyalty points of paid (or cancelled) orders whose request stopped after its commit, every 5 minutes',
};

/**
 * Activates pending loyalty points whose day has come (lib/loyalties/pending-points.job.ts).
 * Hourly, as the expiry: activation is by calendar day, so the first run after midnight UTC does
 * the day's work and a missed run is made good within the hour.
 */
export const pendingPointsWorker: ScheduledWorkerDef = {
  name: 'pending-points-worker',
  handler: 'functions/workers/pending-points-worker.ts',
  everyMinutes: 60,
  timeoutSeconds: 900,
  summary: 'Activates pending loyalty points on their activation date (PENDING_POINTS_ACTIVATION card transactions), hourly',
};

export const scheduledWorkers: readonly ScheduledWorkerDef[] = [pointsExpiryWorker, orderLoyaltyWorker, pendingPointsWorker];
