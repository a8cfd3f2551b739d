/** One of the reference's API usage notifications: a warning at `value` % of a limit. */
export interface UsageNotification {
  enabled: boolean;
  /** Percent of the limit, 10–90. */
  value: number;
  inApp: boolean;
  emails: string[];
}

/** The reference's `api_usage_notifications`: kept and echoed; this deployment sends none (docs/decisions.md "Projects of the Management API"). */
export interface ApiUsageNotifications {
  redemptions: UsageNotification;
  messages: UsageNotification;
  apiCalls: UsageNotification;
  bulkApiCalls: UsageNotification;
  webhookCalls: UsageNotification;
  cycleCalls: UsageNotification;
}

export interface CalloutNotification {
  email: boolean;
  inApp: boolean;
  emails: string[];
}

/** The reference's `webhooks_callout_notifications`: kept and echoed. */
export interface WebhooksCalloutNotifications {
  distributions: CalloutNotification;
  webhooks: CalloutNotification;
}

/** A tenant: every item of its resources is keyed under it. */
export interface Project {
  projectId: string;
  name: string;
  description: string | null;
  /** IANA time zone name, as sent (the reference's `timezone`). */
  timezone: string;
  /** ISO 4217 code, as sent (the reference's `currency`). */
  currency: string;
  dialCode: string | null;
  webhookVersion: string;
  /** The reference's `cluster_id`, kept as sent: a deployment's region is its one cluster (docs/decisions.md). */
  clusterId: string;
  /**
   * The origins (scheme://host[:port]) the project's client-side key made by the Management API
   * trusts (`client_trusted_domains`); changing them changes that key's origins.
   */
  clientTrustedDomains: string[];
  /**
   * The reference's project switches for the client-side API (`client_redeem_enabled`,
   * `client_publish_enabled`, `client_loyalty_events_enabled`): off unless an operator turns them on
   * (docs/decisions.md "Client-side keys").
   */
  clientRedeemEnabled: boolean;
  clientPublishEnabled: boolean;
  clientLoyaltyEventsEnabled: boolean;
  /** Kept and echoed: no client-side route they would open exists here. */
  clientListVouchersEnabled: boolean;
  clientCreateCustomerEnabled: boolean;
  clientSetVoucherExpirationDateEnabled: boolean;
  apiUsageNotifications: ApiUsageNotifications;
  webhooksCalloutNotifications: WebhooksCalloutNotifications;
  /** The reference's `default_code_config.charset`; null = unset. */
  defaultCodeCharset: string | null;
  /** The reference's `webhook_token`: made with the project; this deployment sends no webhooks. */
  webhookToken: string;
  /** The client-side key the Management API made with the project, whose origins follow `clientTrustedDomains`; null = none. */
  managedClientAppId: string | null;
  createdAt: string;
  updatedAt: string | null;
}

export type ClientSwitch = 'clientRedeemEnabled' | 'clientPublishEnabled' | 'clientLoyaltyEventsEnabled';

/** The reference's only `api_version` and `webhook_version` values. */
export const API_VERSION = 'v2018-08-01';
export const WEBHOOK_VERSION = 'v2024-01-01';
/** The reference's default cluster. */
export const DEFAULT_CLUSTER_ID = 'eu1';

const quietUsage = (): UsageNotification => ({ enabled: false, value: 80, inApp: false, emails: [] });
const quietCallout = (): CalloutNotification => ({ email: false, inApp: false, emails: [] });

/** Every notification off (the value the reference's examples show, 80 %). */
export const defaultApiUsageNotifications = (): ApiUsageNotifications => ({
  redemptions: quietUsage(),
  messages: quietUsage(),
  apiCalls: quietUsage(),
  bulkApiCalls: quietUsage(),
  webhookCalls: quietUsage(),
  cycleCalls: quietUsage(),
});

export const defaultWebhooksCalloutNotifications = (): WebhooksCalloutNotifications => ({ distributions: quietCallout(), webhooks: quietCallout() });

/** What a project holds beyond its id, name and times when made without settings (the operator CLI, the dev project); also what older items lack. */
export const projectDefaults = (): Omit<Project, 'projectId' | 'name' | 'createdAt' | 'webhookToken'> => ({
  description: null,
  timezone: 'UTC',
  currency: 'USD',
  dialCode: null,
  webhookVersion: WEBHOOK_VERSION,
  clusterId: DEFAULT_CLUSTER_ID,
  clientTrustedDomains: [],
  clientRedeemEnabled: false,
  clientPublishEnabled: false,
  clientLoyaltyEventsEnabled: false,
  clientListVouchersEnabled: false,
  clientCreateCustomerEnabled: false,
  clientSetVoucherExpirationDateEnabled: false,
  apiUsageNotifications: defaultApiUsageNotifications(),
  webhooksCalloutNotifications: defaultWebhooksCalloutNotifications(),
  defaultCodeCharset: null,
  managedClientAppId: null,
  updatedAt: null,
});
