import * as z from '../zod.js';
import { EXPORT_ID } from '../exports/export.js';

/** Async action ids as this service makes them (`aa_` + base62). */
export const ASYNC_ACTION_ID = /^aa_[0-9A-Za-z]{1,64}$/;

/**
 * A message on the jobs queue. It names the work only: what to generate (campaign, count,
 * overrides) is read from the async action item, so a forged or stale message cannot ask for
 * anything the API did not accept.
 */
export const jobMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('generate-vouchers'),
    projectId: z.string().check(z.minLength(1), z.maxLength(100)),
    asyncActionId: z.string().check(z.regex(ASYNC_ACTION_ID)),
  }),
  z.strictObject({
    type: z.literal('export-points-expiration'),
    projectId: z.string().check(z.minLength(1), z.maxLength(100)),
    exportId: z.string().check(z.regex(EXPORT_ID)),
  }),
  /** Removes a deleted campaign's vouchers (CAMPAIGN.VOUCHERS_DELETE; lib/campaigns/campaign-deletion.ts). */
  z.strictObject({
    type: z.literal('delete-campaign-vouchers'),
    projectId: z.string().check(z.minLength(1), z.maxLength(100)),
    asyncActionId: z.string().check(z.regex(ASYNC_ACTION_ID)),
  }),
]);
export type JobMessage = z.output<typeof jobMessageSchema>;

/** Where jobs are put. The SQS implementation lives in sqs-job-queue.ts, imported only by the handlers that enqueue. */
export interface JobQueue {
  /** @throws Error when the queue refuses the message (the caller marks its async action FAILED). */
  send(job: JobMessage): Promise<void>;
}

/** The subject a job names, as log fields. */
export const subjectOf = (job: JobMessage): Record<string, string> =>
  'asyncActionId' in job ? { async_action_id: job.asyncActionId } : { export_id: job.exportId };

/** A message body as JSON, or undefined when it is not JSON (the schema then refuses it). */
export function parseJobBody(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
