import * as z from '../zod.js';
import { EXPORT_ID } from '../exports/export.js';
import { ASYNC_ACTION_ID } from './job.js';

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
  // An export of POST /v1/exports, of any exported object (lib/exports/points-expiration-export.ts runExport).
  z.strictObject({
    type: z.literal('export'),
    projectId: z.string().check(z.minLength(1), z.maxLength(100)),
    exportId: z.string().check(z.regex(EXPORT_ID)),
  }),
  // An import of vouchers (CAMPAIGN.VOUCHERS_IMPORT, VOUCHERS.IMPORT): the list is in the action's chunk items.
  z.strictObject({
    type: z.literal('voucher-import'),
    projectId: z.string().check(z.minLength(1), z.maxLength(100)),
    asyncActionId: z.string().check(z.regex(ASYNC_ACTION_ID)),
  }),
  // Removes a deleted campaign's vouchers (CAMPAIGN.VOUCHERS_DELETE; lib/campaigns/campaign-deletion.ts).
  z.strictObject({
    type: z.literal('delete-campaign-vouchers'),
    projectId: z.string().check(z.minLength(1), z.maxLength(100)),
    asyncActionId: z.string().check(z.regex(ASYNC_ACTION_ID)),
  }),
  // Brings a campaign's vouchers to its changed template (CAMPAIGN.VOUCHERS_UPDATE; lib/campaigns/campaign-vouchers-update.ts).
  z.strictObject({
    type: z.literal('update-campaign-vouchers'),
    projectId: z.string().check(z.minLength(1), z.maxLength(100)),
    asyncActionId: z.string().check(z.regex(ASYNC_ACTION_ID)),
  }),
  // Applies a bulk action's rows (the BulkActionType actions; lib/bulk/bulk-job.ts): the rows are in its chunk items.
  z.strictObject({
    type: z.literal('bulk-update'),
    projectId: z.string().check(z.minLength(1), z.maxLength(100)),
    asyncActionId: z.string().check(z.regex(ASYNC_ACTION_ID)),
  }),
  // Removes a deleted project's data (lib/projects/project-data-removal.ts): the tombstone is the subject.
  z.strictObject({
    type: z.literal('remove-project-data'),
    projectId: z.string().check(z.minLength(1), z.maxLength(100)),
  }),
  // Erases a customer's personal data (lib/customers/customer-erasure.ts): the permanent deletion item is the subject.
  z.strictObject({
    type: z.literal('erase-customer'),
    projectId: z.string().check(z.minLength(1), z.maxLength(100)),
    customerId: z.string().check(z.minLength(1), z.maxLength(1500)),
  }),
]);
export type JobMessage = z.output<typeof jobMessageSchema>;

/** A message body as JSON, or undefined when it is not JSON (the schema then refuses it). */
export function parseJobBody(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
