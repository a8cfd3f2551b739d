import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import * as z from '../zod.js';
import { failCampaignVouchersDeletion, runCampaignVouchersDeletion } from '../campaigns/campaign-deletion.js';
import { EXPORT_ID } from '../exports/export.js';
import type { ExportFiles } from '../exports/export-files.js';
import { failExport, runPointsExpirationExport } from '../exports/points-expiration-export.js';
import { childLogger } from '../logger.js';
import type { Runtime } from '../runtime.js';
import { failGeneration, runVoucherGeneration } from '../vouchers/bulk-generation.js';
import { ASYNC_ACTION_ID, type JobMessage, jobMessageSchema, parseJobBody, subjectOf } from './job.js';
import { JobStoppedError } from './job-stop.js';

/**
 * `files`: where export jobs write (the worker function passes the S3 store). `signal`: the host's
 * stop signal (the local runtime raises it on Ctrl-C; Lambda gives none): a job in hand stops at
 * its next checkpoint and its message is reported failed, for redelivery, without counting as a failure.
 */
type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'logger'> & { files: ExportFiles; signal?: AbortSignal | undefined };

/** Just enough of a message to name its async action, for marking it FAILED when the rest is malformed. */
const actionRef = z.object({ projectId: z.string().check(z.minLength(1), z.maxLength(100)), asyncActionId: z.string().check(z.regex(ASYNC_ACTION_ID)) });
/** The same for an export, marked ERROR. */
const exportRef = z.object({ projectId: z.string().check(z.minLength(1), z.maxLength(100)), exportId: z.string().check(z.regex(EXPORT_ID)) });

/** Runs a job; false when the thing it names does not exist. */
async function runJob(deps: Deps, job: JobMessage): Promise<boolean> {
  switch (job.type) {
    case 'generate-vouchers':
      return (await runVoucherGeneration(deps, job.projectId, job.asyncActionId)) !== null;
    case 'export-points-expiration':
      return (await runPointsExpirationExport(deps, job.projectId, job.exportId)) !== null;
    case 'delete-campaign-vouchers':
      return (await runCampaignVouchersDeletion(deps, job.projectId, job.asyncActionId)) !== null;
  }
}

/**
 * Marks the job's subject final with the reason (async action FAILED, export ERROR), unless it is final already.
 * @returns true when this call moved it; false when it was final (DONE stays DONE) or does not exist.
 */
export async function failJob(deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>, job: JobMessage, reason: string): Promise<boolean> {
  switch (job.type) {
    case 'generate-vouchers':
      return failGeneration(deps, job.projectId, job.asyncActionId, reason);
    case 'export-points-expiration':
      return failExport(deps, job.projectId, job.exportId, reason);
    case 'delete-campaign-vouchers':
      return failCampaignVouchersDeletion(deps, job.projectId, job.asyncActionId, reason);
  }
}

const describe = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Handles one message; true when it is done with (succeeded, or its action is final).
 * A malformed message fails (it goes on to the dead-letter queue) and its action, when the
 * message names one, is marked FAILED. A transient error fails the message for a retry; on its
 * last delivery (`maxReceiveCount`) the action is marked FAILED too, so no action waits forever.
 */
async function handleRecord(deps: Deps, record: SQSRecord, maxReceiveCount: number): Promise<boolean> {
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
    if (!(await runJob(deps, job))) {
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
export async function handleJobRecords(
  deps: Deps,
  records: readonly SQSRecord[],
  options: { maxReceiveCount: number; lambdaRequestId?: string | undefined },
): Promise<SQSBatchResponse> {
  const outcomes = await Promise.all(
    records.map((record) => {
      const logger = childLogger(deps.logger, { lambda_request_id: options.lambdaRequestId, message_id: record.messageId });
      return handleRecord({ ...deps, logger }, record, options.maxReceiveCount).catch((error: unknown) => {
        logger.error('job handling threw', { error: describe(error) });
        return false;
      });
    }),
  );
  return { batchItemFailures: records.flatMap((r, i) => (outcomes[i] ? [] : [{ itemIdentifier: r.messageId }])) };
}
