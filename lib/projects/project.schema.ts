import * as z from '../zod.js';
import { MAX_TRUSTED_ORIGINS } from '../auth/origins.js';

/*
 * Request schemas of the Management API's projects (POST/PUT /management/v1/projects[/{projectId}]),
 * after the reference's ManagementProjectsCreateRequestBody and ManagementProjectsUpdateRequestBody.
 */

/** `{projectId}`: a project id (`proj_…`); any other string finds nothing. */
export const projectParams = z.strictObject({ projectId: z.string().check(z.minLength(1), z.maxLength(100)) });

const text = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
const emails = z.array(text(254)).check(z.maxLength(20));

/** Whether the runtime knows the IANA time zone (`Etc/GMT+1`, `Europe/Warsaw`, `UTC`). */
function knownTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const timezone = text(64).check(z.refine(knownTimeZone, { message: 'Must be an IANA time zone name, e.g. Europe/Warsaw or UTC' }));
const currency = z.string().check(z.regex(/^[A-Z]{3}$/, 'Must be an ISO 4217 currency code, e.g. EUR'));

const usageNotification = z.strictObject({
  enabled: z.boolean(),
  value: z.int().check(z.minimum(10), z.maximum(90)),
  in_app: z.boolean(),
  emails,
});

/** Each member sent replaces that notification; members not sent keep theirs. */
const apiUsageNotifications = z.strictObject({
  redemptions: z.optional(usageNotification),
  messages: z.optional(usageNotification),
  api_calls: z.optional(usageNotification),
  bulk_api_calls: z.optional(usageNotification),
  webhook_calls: z.optional(usageNotification),
  cycle_calls: z.optional(usageNotification),
});

const calloutNotification = z.strictObject({ email: z.boolean(), in_app: z.boolean(), emails });

const webhooksCalloutNotifications = z.strictObject({
  distributions: z.optional(calloutNotification),
  webhooks: z.optional(calloutNotification),
});

/** The fields create and update share (the reference's ManagementProjectBase and notifications). */
const projectSettings = {
  description: z.optional(z.nullable(z.string().check(z.maxLength(1000)))),
  dial_code: z.optional(z.nullable(z.string().check(z.maxLength(10)))),
  webhook_version: z.optional(z.enum(['v2024-01-01'])),
  /** Origins (scheme://host[:port]) the project's client-side key trusts. */
  client_trusted_domains: z.optional(z.array(text(300)).check(z.maxLength(MAX_TRUSTED_ORIGINS))),
  client_redeem_enabled: z.optional(z.boolean()),
  client_publish_enabled: z.optional(z.boolean()),
  client_list_vouchers_enabled: z.optional(z.boolean()),
  client_create_customer_enabled: z.optional(z.boolean()),
  client_loyalty_events_enabled: z.optional(z.boolean()),
  client_set_voucher_expiration_date_enabled: z.optional(z.boolean()),
  webhooks_callout_notifications: z.optional(webhooksCalloutNotifications),
  api_usage_notifications: z.optional(apiUsageNotifications),
};

/** POST /management/v1/projects: `name`, `case_sensitive_codes`, `timezone` and `currency` required, as in the reference. */
export const createProjectBody = z.strictObject({
  name: text(200),
  case_sensitive_codes: z.boolean(),
  timezone,
  currency,
  ...projectSettings,
  cluster_id: z.optional(text(50)),
  api_version: z.optional(z.enum(['v2018-08-01'])),
  /** The reference's users to assign; this deployment has no users (refused unless empty). */
  users: z.optional(z.array(z.strictObject({ id: z.optional(text(100)), login: z.optional(text(254)), role: text(100) })).check(z.maxLength(100))),
});
export type CreateProjectBody = z.output<typeof createProjectBody>;

/** PUT /management/v1/projects/{projectId}: only the fields sent change. */
export const updateProjectBody = z.strictObject({
  name: z.optional(text(200)),
  timezone: z.optional(timezone),
  currency: z.optional(currency),
  ...projectSettings,
  default_code_config: z.optional(z.strictObject({ charset: z.optional(z.nullable(text(100))) })),
});
export type UpdateProjectBody = z.output<typeof updateProjectBody>;
