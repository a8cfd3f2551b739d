import { EXPORT_JOBS_QUEUE, JOBS_QUEUE, type QueueName } from '../api/resources.js';

/** Async action ids as this service makes them (`aa_` + base62). */
export const ASYNC_ACTION_ID = /^aa_[0-9A-Za-z]{1,64}$/;

/**
 * A message on the jobs queue; its schema lives in job-message.schema.ts, which only the workers
 * import: every handler reaches this module through the entity table (open-job.ts), and building
 * the schema at load cost each of them ~1 ms of cold start.
 */
export type { JobMessage } from './job-message.schema.js';
import type { JobMessage } from './job-message.schema.js';
export type JobType = JobMessage['type'];
/** The message of one job kind. */
export type JobMessageOf<T extends JobType> = Extract<JobMessage, { type: T }>;

/**
 * The job kinds: one row each, pure data (every enqueuing handler's bundle holds this table).
 * `queue`: the queue its messages go on; that queue's worker runs it and only it and its
 * lane-mates (the worker's runner table is typed from these rows, so a row without a runner does
 * not compile). Kinds are split over queues by what their code loads (docs/decisions.md, "Worker
 * cold start"): the exports, which carry the S3 client, apart from the table-only kinds.
 * `subject`: the message field naming the job's subject (the async action or the export);
 * `logField`: that id's name in log lines.
 */
export const jobKinds = {
  'generate-vouchers': { queue: JOBS_QUEUE, subject: 'asyncActionId', logField: 'async_action_id' },
  'export-points-expiration': { queue: EXPORT_JOBS_QUEUE, subject: 'exportId', logField: 'export_id' },
  export: { queue: EXPORT_JOBS_QUEUE, subject: 'exportId', logField: 'export_id' },
  'voucher-import': { queue: JOBS_QUEUE, subject: 'asyncActionId', logField: 'async_action_id' },
  'delete-campaign-vouchers': { queue: JOBS_QUEUE, subject: 'asyncActionId', logField: 'async_action_id' },
  'update-campaign-vouchers': { queue: JOBS_QUEUE, subject: 'asyncActionId', logField: 'async_action_id' },
  'bulk-update': { queue: JOBS_QUEUE, subject: 'asyncActionId', logField: 'async_action_id' },
  'remove-project-data': { queue: JOBS_QUEUE, subject: 'projectId', logField: 'project_id' },
  // On the export lane: after the table it rewrites the project's export files (S3).
  'erase-customer': { queue: EXPORT_JOBS_QUEUE, subject: 'customerId', logField: 'customer_id' },
} as const satisfies { [T in JobType]: { queue: QueueName; subject: keyof JobMessageOf<T> & string; logField: string } };

/** The kinds whose messages go on `queue`. */
export type JobTypeOn<Q extends QueueName> = { [T in JobType]: (typeof jobKinds)[T]['queue'] extends Q ? T : never }[JobType];

/** The queue a job's message goes on. */
export const queueOfJob = (job: Pick<JobMessage, 'type'>): QueueName => jobKinds[job.type].queue;

/** The id of the job's subject (async action id, export id). */
export const subjectIdOf = (job: JobMessage): string => String((job as unknown as Record<string, unknown>)[jobKinds[job.type].subject]);

/** Where jobs are put. The SQS implementation lives in sqs-job-queue.ts, imported only by the handlers that enqueue. */
export interface JobQueue {
  /** @throws Error when the queue refuses the message (the caller marks its async action FAILED). */
  send(job: JobMessage): Promise<void>;
}

/** The subject a job names, as log fields. */
export const subjectOf = (job: JobMessage): Record<string, string> => ({ [jobKinds[job.type].logField]: subjectIdOf(job) });
