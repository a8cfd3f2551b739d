import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import { childLogger } from '../logger.js';
import type { Runtime } from '../runtime.js';
import { jobMessageSchema, parseJobBody } from './job-message.schema.js';
import { subjectOf } from './job.js';
import { failJob } from './job-closers.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'logger'>;

/**
 * The reason a dead-lettered job's subject is given. SQS moves a message to the dead-letter queue
 * only once `maxReceiveCount` receives have passed without a delete. When the worker failed on the
 * last of them it has already marked the subject final with its own reason (that write wins: this
 * one is conditional), so what reaches here open is a job whose last delivery never answered.
 */
export const deadLetterReason = (maxReceiveCount: number): string =>
  `The job's last delivery ended without finishing (timed out or killed) after ${maxReceiveCount} receives`;

/** `closed`: this call marked the subject final; `not-open`: it was final already, or does not exist (in that project). */
export type DeadLetterOutcome = 'closed' | 'not-open' | 'malformed';

/**
 * Closes the job of one dead-lettered message: its async action FAILED / export ERROR with
 * `deadLetterReason`, unless already final (DONE stays DONE; an earlier failure keeps its reason).
 * The message is parsed with the job schema, never trusted: a malformed one is logged (issues only,
 * never the body) and reported as such, to be dropped: nothing it names can be trusted either.
 * @throws Error when the table cannot be written (the caller lets SQS deliver the message again).
 */
export async function closeDeadLetteredJob(deps: Deps, record: SQSRecord, maxReceiveCount: number): Promise<DeadLetterOutcome> {
  const parsed = jobMessageSchema.safeParse(parseJobBody(record.body));
  const receives = Number(record.attributes.ApproximateReceiveCount ?? '0');
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`).join('; ');
    deps.logger.warn('malformed dead-lettered job message dropped', { issues, receives });
    return 'malformed';
  }
  const job = parsed.data;
  const moved = await failJob(deps, job, deadLetterReason(maxReceiveCount));
  if (moved) {
    // An operator's line: a job was abandoned by the worker and is now closed.
    deps.logger.error('dead-lettered job closed', { type: job.type, ...subjectOf(job), receives, project_id: job.projectId });
    return 'closed';
  }
  deps.logger.info('dead-lettered job has nothing open (final already, or missing)', {
    type: job.type,
    ...subjectOf(job),
    receives,
    project_id: job.projectId,
  });
  return 'not-open';
}

const describe = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Handles a batch from a jobs dead-letter queue (ReportBatchItemFailures): every message whose job
 * was closed, was already final, or was malformed is deleted; one whose write failed is returned
 * for another delivery (the dead-letter queue has no redrive: it is retried until its retention
 * ends). Every line carries the Lambda request id and the SQS message id.
 */
export async function handleDeadLetterRecords(
  deps: Deps,
  records: readonly SQSRecord[],
  options: { maxReceiveCount: number; lambdaRequestId?: string | undefined },
): Promise<SQSBatchResponse> {
  const outcomes = await Promise.all(
    records.map((record) => {
      const logger = childLogger(deps.logger, { lambda_request_id: options.lambdaRequestId, message_id: record.messageId });
      return closeDeadLetteredJob({ ...deps, logger }, record, options.maxReceiveCount).then(
        () => true,
        (error: unknown) => {
          logger.error('dead-lettered job could not be closed', { error: describe(error) });
          return false;
        },
      );
    }),
  );
  return { batchItemFailures: records.flatMap((r, i) => (outcomes[i] ? [] : [{ itemIdentifier: r.messageId }])) };
}
