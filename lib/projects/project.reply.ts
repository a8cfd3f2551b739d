import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of the Management API's projects (lib/projects/project.mapper.ts writes these
 * shapes). Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

const usageNotificationReply = z.strictObject({
  enabled: z.boolean(),
  value: z.int(),
  in_app: z.boolean(),
  emails: z.array(z.string()),
});
const calloutNotificationReply = z.strictObject({ email: z.boolean(), in_app: z.boolean(), emails: z.array(z.string()) });
const keyPairReply = z.strictObject({ app_id: z.string(), app_token: z.string() });

const projectShape = {
  id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  timezone: z.string(),
  currency: z.string(),
  dial_code: z.nullable(z.string()),
  webhook_version: z.string(),
  client_trusted_domains: z.array(z.string()),
  client_redeem_enabled: z.boolean(),
  client_publish_enabled: z.boolean(),
  client_list_vouchers_enabled: z.boolean(),
  client_create_customer_enabled: z.boolean(),
  client_loyalty_events_enabled: z.boolean(),
  client_set_voucher_expiration_date_enabled: z.boolean(),
  webhooks_callout_notifications: z.strictObject({ distributions: calloutNotificationReply, webhooks: calloutNotificationReply }),
  api_usage_notifications: z.strictObject({
    redemptions: usageNotificationReply,
    messages: usageNotificationReply,
    api_calls: usageNotificationReply,
    bulk_api_calls: usageNotificationReply,
    webhook_calls: usageNotificationReply,
    cycle_calls: usageNotificationReply,
  }),
  cluster_id: z.string(),
  case_sensitive_codes: z.boolean(),
  api_version: z.string(),
  is_sandbox: z.boolean(),
  webhook_token: z.string(),
  /** Only once a charset was set (PUT). */
  default_code_config: z.optional(z.strictObject({ charset: z.string() })),
};

/** A project as the Management API shows it (the reference's ManagementProject). */
export const managementProjectReplySchema = z.strictObject(projectShape);
export type ManagementProjectReply = z.output<typeof managementProjectReplySchema>;

/** POST /management/v1/projects: the project and its first key pairs, whose tokens are shown only here. */
export const managementProjectCreatedReplySchema = z.strictObject({
  ...projectShape,
  server_side_key: keyPairReply,
  client_side_key: keyPairReply,
});
export type ManagementProjectCreatedReply = z.output<typeof managementProjectCreatedReplySchema>;

/** GET /management/v1/projects: every project of the deployment, oldest first; `total` counts them. */
export const managementProjectListReplySchema = listReply(managementProjectReplySchema, { dataRef: 'data' });
export type ManagementProjectListReply = z.output<typeof managementProjectListReplySchema>;
