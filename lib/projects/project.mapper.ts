import type { IssuedKeyPair } from '../app-keys/app-key.service.js';
import type { ApiUsageNotifications, CalloutNotification, Project, UsageNotification } from './project.js';
import { API_VERSION } from './project.js';
import type { ManagementProjectCreatedReply, ManagementProjectListReply, ManagementProjectReply } from './project.reply.js';
import type { UpdateProjectBody } from './project.schema.js';

type UsageWire = { enabled: boolean; value: number; in_app: boolean; emails: string[] };
type CalloutWire = { email: boolean; in_app: boolean; emails: string[] };

const usageWire = (n: UsageNotification): UsageWire => ({ enabled: n.enabled, value: n.value, in_app: n.inApp, emails: n.emails });
const calloutWire = (n: CalloutNotification): CalloutWire => ({ email: n.email, in_app: n.inApp, emails: n.emails });
export const usageOf = (w: UsageWire): UsageNotification => ({ enabled: w.enabled, value: w.value, inApp: w.in_app, emails: w.emails });
export const calloutOf = (w: CalloutWire): CalloutNotification => ({ email: w.email, inApp: w.in_app, emails: w.emails });

/** The notifications after a request's members replaced theirs. */
export function mergedUsage(current: ApiUsageNotifications, sent: UpdateProjectBody['api_usage_notifications']): ApiUsageNotifications {
  if (!sent) return current;
  return {
    redemptions: sent.redemptions ? usageOf(sent.redemptions) : current.redemptions,
    messages: sent.messages ? usageOf(sent.messages) : current.messages,
    apiCalls: sent.api_calls ? usageOf(sent.api_calls) : current.apiCalls,
    bulkApiCalls: sent.bulk_api_calls ? usageOf(sent.bulk_api_calls) : current.bulkApiCalls,
    webhookCalls: sent.webhook_calls ? usageOf(sent.webhook_calls) : current.webhookCalls,
    cycleCalls: sent.cycle_calls ? usageOf(sent.cycle_calls) : current.cycleCalls,
  };
}

/** The reference's ManagementProject. */
export const toManagementProjectReply = (p: Project): ManagementProjectReply => ({
  id: p.projectId,
  name: p.name,
  description: p.description,
  timezone: p.timezone,
  currency: p.currency,
  dial_code: p.dialCode,
  webhook_version: p.webhookVersion,
  client_trusted_domains: p.clientTrustedDomains,
  client_redeem_enabled: p.clientRedeemEnabled,
  client_publish_enabled: p.clientPublishEnabled,
  client_list_vouchers_enabled: p.clientListVouchersEnabled,
  client_create_customer_enabled: p.clientCreateCustomerEnabled,
  client_loyalty_events_enabled: p.clientLoyaltyEventsEnabled,
  client_set_voucher_expiration_date_enabled: p.clientSetVoucherExpirationDateEnabled,
  webhooks_callout_notifications: {
    distributions: calloutWire(p.webhooksCalloutNotifications.distributions),
    webhooks: calloutWire(p.webhooksCalloutNotifications.webhooks),
  },
  api_usage_notifications: {
    redemptions: usageWire(p.apiUsageNotifications.redemptions),
    messages: usageWire(p.apiUsageNotifications.messages),
    api_calls: usageWire(p.apiUsageNotifications.apiCalls),
    bulk_api_calls: usageWire(p.apiUsageNotifications.bulkApiCalls),
    webhook_calls: usageWire(p.apiUsageNotifications.webhookCalls),
    cycle_calls: usageWire(p.apiUsageNotifications.cycleCalls),
  },
  cluster_id: p.clusterId,
  // Codes are always case-sensitive here (docs/decisions.md "Projects of the Management API").
  case_sensitive_codes: true,
  api_version: API_VERSION,
  is_sandbox: false,
  webhook_token: p.webhookToken,
  ...(p.defaultCodeCharset !== null ? { default_code_config: { charset: p.defaultCodeCharset } } : {}),
});

/** A new project and its first key pairs (the only reply that holds their tokens). */
export interface CreatedProject {
  project: Project;
  serverKey: IssuedKeyPair;
  clientKey: IssuedKeyPair;
}

export const toManagementProjectCreatedReply = (c: CreatedProject): ManagementProjectCreatedReply => ({
  ...toManagementProjectReply(c.project),
  server_side_key: { app_id: c.serverKey.app_id, app_token: c.serverKey.app_token },
  client_side_key: { app_id: c.clientKey.app_id, app_token: c.clientKey.app_token },
});

export const toManagementProjectListReply = (projects: Project[]): ManagementProjectListReply => ({
  object: 'list',
  data_ref: 'data',
  data: projects.map(toManagementProjectReply),
  total: projects.length,
});
