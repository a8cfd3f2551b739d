import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import * as z from '../zod.js';
import { EXPORT_ID } from '../exports/export.js';
import type { ExportFiles } from '../exports/export-files.js';
import { failExport } from '../exports/export.repo.js';
import { childLogger } from '../logger.js';
import type { Runtime } from '../runtime.js';
import { failGeneration } from '../vouchers/bulk-generation.js';
import type { QueueName } from '../api/resources.js';
import { ASYNC_ACTION_ID, type JobMessage, type JobMessageOf, type JobType, type JobTypeOn, subjectOf } from './job.js';
import { jobMessageSchema, parseJobBody } from './job-message.schema.js';
import { failJob } from './job-closers.js';
import { JobStoppedError } from './job-stop.js';

/**
 * `files`: where export jobs write (the worker function passes the S3 store). `signal`: the host's
 * stop signal (the local runtime raises it on Ctrl-C; Lambda gives none): a job in hand stops at
 * its next checkpoint and its message is reported failed, for redelivery, without counting as a failure.
 */
export type JobDeps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'logger' | 'metadataSchemaCache'> & {
  files?: ExportFiles | undefined;
  signal?: AbortSignal | undefined;
};
type Deps = JobDeps;

/** Runs one job of a kind; false when the thing it names does not exist. */
export type JobRunner<T extends JobType> = (deps: JobDeps, job: JobMessageOf<T>) => Promise<boolean>;

/**
 * The runners of one worker: exactly the kinds whose `jobKinds` row names its queue (a kind
 * added on that queue without a runner here does not compile).
 */
export type JobRunners<Q extends QueueName> = { readonly [T in JobTypeOn<Q>]: JobRunner<T> };

/** Just enough of a message to name its async action, for marking it FAILED when the rest is malformed. */
const actionRef = z.object({ projectId: z.string().check(z.minLength(1), z.maxLength(100)), asyncActionId: z.string().check(z.regex(ASYNC_ACTION_ID)) });
/** The same for an export, marked ERROR. */
const exportRef = z.object({ projectId: z.string().check(z.minLength(1), z.maxLength(100)), exportId: z.string().check(z.regex(EXPORT_ID)) });

/** A message's kind as this worker runs it, or undefined for a kind of another queue. */
type AnyRunners = Readonly<Partial<Record<JobType, JobRunner<JobType>>>>;

/**
 * Runs a job; false when the thing it names does not exist.
 * @throws Error for a kind this worker does not run (a message put on the wrong queue): it is
 * retried like any failure, and its job failed on the last delivery, never dropped silently.
 */
async function runJob(deps: Deps, runners: AnyRunners, job: JobMessage): Promise<boolean> {
  const run = runners[job.type];
  if (!run) throw new Error(`This worker does not run ${job.type} jobs (the message is on the wrong queue)`);
  return run(deps, job);
}

const describe = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Handles one message; true when it is done with (succeeded, or its action is final).
 * A malformed message fails (it goes on to the dead-letter queue) and its action, when the
 * message names one, is marked FAILED. A transient error fails the message for a retry; on its
 * last delivery (`maxReceiveCount`) the action is marked FAILED too, so no action waits forever.
 */
async function handleRecord(deps: Deps, runners: AnyRunners, record: SQSRecord, maxReceiveCount: number): Promise<boolean> {
  const raw = parseJobBody(record.body);
  const parsed = jobMessageSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`).join('; ');
    deps.logger.warn('malformed job message', { issues });
    const ref = actionRef.safeParse(raw);
    if (ref.success) await failGeneration(deps, ref.data.projectId, ref.data.asyncActionId, `Malformed job message: ${issues}`);
    const ofExport = exportRef.safeParse(raw);
    if (ofExport.success) await failExport(deps, ofExport.data.projectId, ofExport.data.exportId, `Malformed job message: ${issues}`);
    return false;
  }
  const job = parsed.data;
  try {
    if (!(await runJob(deps, runners, job))) {
      deps.logger.warn('job for an unknown subject', { type: job.type, ...subjectOf(job) });
      return false;
    }
    return true;
  } catch (error) {
    if (error instanceof JobStoppedError) {
      // Left open on purpose: the message comes back (or the next start re-enqueues the job) and the job resumes.
      deps.logger.info('job stopped for shutdown', { type: job.type, ...subjectOf(job) });
      return false;
    }
    const receives = Number(record.attributes.ApproximateReceiveCount ?? '1');
    deps.logger.error('job failed', { type: job.type, ...subjectOf(job), receives, error: describe(error) });
    if (receives >= maxReceiveCount) await failJob(deps, job, `Gave up after ${receives} attempts: ${describe(error)}`);
    return false;
  }
}

/**
 * Handles a batch of job messages at once (ReportBatchItemFailures): the ones that failed are
 * returned for SQS to redeliver, and after `maxReceiveCount` deliveries to move to the DLQ.
 * Every line logged for a message, by the job's own code too, carries the Lambda request id
 * (`lambdaRequestId`: the invocation's `awsRequestId`) and the SQS message id.
 */
export async function handleJobRecords<Q extends QueueName>(
  deps: Deps,
  records: readonly SQSRecord[],
  options: { runners: JobRunners<Q>; maxReceiveCount: number; lambdaRequestId?: string | undefined },
): Promise<SQSBatchResponse> {
  const runners = options.runners as AnyRunners;
  const outcomes = await Promise.all(
    records.map((record) => {
      const logger = childLogger(deps.logger, { lambda_request_id: options.lambdaRequestId, message_id: record.messageId });
      return handleRecord({ ...deps, logger }, runners, record, options.maxReceiveCount).catch((error: unknown) => {
        logger.error('job handling threw', { error: describe(error) });
        return false;
      });
    }),
  );
  return { batchItemFailures: records.flatMap((r, i) => (outcomes[i] ? [] : [{ itemIdentifier: r.messageId }])) };
}
