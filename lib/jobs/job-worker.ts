import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import type { Runtime } from '../runtime.js';
import { failGeneration, runVoucherGeneration } from '../vouchers/bulk-generation.js';
import { ASYNC_ACTION_ID, jobMessageSchema } from './job.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids' | 'logger'>;

/** Just enough of a message to name its async action, for marking it FAILED when the rest is malformed. */
const actionRef = z.object({ projectId: z.string().min(1).max(100), asyncActionId: z.string().regex(ASYNC_ACTION_ID) });

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
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
  const raw = parseJson(record.body);
  const parsed = jobMessageSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`).join('; ');
    deps.logger.warn('malformed job message', { message_id: record.messageId, issues });
    const ref = actionRef.safeParse(raw);
    if (ref.success) await failGeneration(deps, ref.data.projectId, ref.data.asyncActionId, `Malformed job message: ${issues}`);
    return false;
  }
  const job = parsed.data;
  try {
    const action = await runVoucherGeneration(deps, job.projectId, job.asyncActionId);
    if (!action) {
      deps.logger.warn('job for an unknown async action', { message_id: record.messageId, async_action_id: job.asyncActionId });
      return false;
    }
    return true;
  } catch (error) {
    const receives = Number(record.attributes.ApproximateReceiveCount ?? '1');
    deps.logger.error('job failed', { message_id: record.messageId, async_action_id: job.asyncActionId, receives, error: describe(error) });
    if (receives >= maxReceiveCount) {
      await failGeneration(deps, job.projectId, job.asyncActionId, `Gave up after ${receives} attempts: ${describe(error)}`);
    }
    return false;
  }
}

/**
 * Handles a batch of job messages at once (ReportBatchItemFailures): the ones that failed are
 * returned for SQS to redeliver, and after `maxReceiveCount` deliveries to move to the DLQ.
 */
export async function handleJobRecords(deps: Deps, records: readonly SQSRecord[], options: { maxReceiveCount: number }): Promise<SQSBatchResponse> {
  const outcomes = await Promise.all(
    records.map((record) => handleRecord(deps, record, options.maxReceiveCount).catch((error: unknown) => {
      deps.logger.error('job handling threw', { message_id: record.messageId, error: describe(error) });
      return false;
    })),
  );
  return { batchItemFailures: records.flatMap((r, i) => (outcomes[i] ? [] : [{ itemIdentifier: r.messageId }])) };
}
