/**
 * The stateful resources every function, the local runtime and the stacks agree on: the table,
 * the export bucket and the queues with their dead-letter queues. In AWS the stateful stack owns
 * them and hands their names to functions through the environment; locally the engines create them.
 */
export const resources = {
  tableName: 'promo-engine',
  bucketName: 'promo-engine-exports',
  /** Queues with their dead-letter queues; `maxReceiveCount` deliveries before a message moves there. */
  queues: [
    { name: 'promo-engine-jobs', deadLetter: 'promo-engine-jobs-dlq', maxReceiveCount: 3, visibilityTimeoutSeconds: 30 },
    { name: 'promo-engine-export-jobs', deadLetter: 'promo-engine-export-jobs-dlq', maxReceiveCount: 3, visibilityTimeoutSeconds: 30 },
    /**
     * One message per (event, webhook). The delivery worker retries by re-enqueueing with the retry
     * schedule's delay and moves a delivery past its bound to the dead-letter queue itself (no
     * worker consumes that queue: its alarm tells the operator); the receive count only counts worker crashes.
     */
    { name: 'promo-engine-webhooks', deadLetter: 'promo-engine-webhooks-dlq', maxReceiveCount: 3, visibilityTimeoutSeconds: 30 },
  ],
  region: 'eu-central-1',
} as const;

export type QueueDef = (typeof resources.queues)[number];
export type QueueName = QueueDef['name'];

/** The jobs queue: the jobs that need only the table (bulk generation; lib/jobs/job.ts `jobKinds`). */
export const JOBS_QUEUE = 'promo-engine-jobs' satisfies QueueName;

/** The export jobs queue: the jobs that write export files (their worker alone carries the S3 client). */
export const EXPORT_JOBS_QUEUE = 'promo-engine-export-jobs' satisfies QueueName;

/** The webhooks queue: one message per delivery of an event to a webhook (lib/events-out). */
export const WEBHOOKS_QUEUE = 'promo-engine-webhooks' satisfies QueueName;

/**
 * @throws Error for a name that is not one of `resources.queues`.
 */
export function queueNamed(name: string): QueueDef {
  const queue = resources.queues.find((q) => q.name === name);
  if (!queue) throw new Error(`Unknown queue ${name}`);
  return queue;
}

/** `promo-engine-jobs` → `JOBS`: the queue's role, as its URL's environment variable names it. */
const roleOf = (queueName: string): string =>
  queueName
    .replace(new RegExp(`^${resources.tableName}-`), '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();

/** The variable holding a queue's URL for handlers and workers: `JOBS_QUEUE_URL`, `JOBS_DLQ_URL`. */
export function queueUrlVariables(queue: { name: string; deadLetter: string }): { queue: string; deadLetter: string } {
  return { queue: `${roleOf(queue.name)}_QUEUE_URL`, deadLetter: `${roleOf(queue.name)}_DLQ_URL` };
}
