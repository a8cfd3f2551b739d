/**
 * The event names a webhook may subscribe to: the reference's ManagementProjectsWebhookBase `events`
 * enum, spelled as it spells them (`points_aded` included: a receiver matches these strings).
 * Which of them this deployment emits is EMITTED_EVENTS (lib/events-out/change-events.ts).
 */
export const WEBHOOK_EVENTS = [
  'business_validation_rule.assignment.created',
  'business_validation_rule.assignment.deleted',
  'business_validation_rule.created',
  'business_validation_rule.deleted',
  'business_validation_rule.updated',
  'campaign.created',
  'campaign.deleted',
  'campaign.disabled',
  'campaign.enabled',
  'campaign.earning_rule.assigned',
  'campaign.earning_rule.deleted',
  'campaign.earning_rule.disabled',
  'campaign.earning_rule.enabled',
  'campaign.earning_rule.updated',
  'campaign.loyalty_tier.created',
  'campaign.loyalty_tier.deleted',
  'campaign.loyalty_tier.updated',
  'campaign.promotion_stack.created',
  'campaign.promotion_stack.updated',
  'campaign.promotion_tier.created',
  'campaign.promotion_tier.deleted',
  'campaign.promotion_tier.disabled',
  'campaign.promotion_tier.enabled',
  'campaign.promotion_tier.updated',
  'campaign.referral_tier.created',
  'campaign.referral_tier.deleted',
  'campaign.referral_tier.updated',
  'campaign.reward.assignment.created',
  'campaign.reward.assignment.deleted',
  'campaign.reward.assignment.updated',
  'campaign.updated',
  'campaign.vouchers.aded',
  'campaign.vouchers.generation.completed',
  'campaign.vouchers.generation.failed',
  'campaign.vouchers.generation.started',
  'customer.confirmed',
  'customer.created',
  'customer.deleted',
  'customer.rewarded',
  'customer.rewarded.loyalty_points',
  'publication.succeeded',
  'redemption.failed',
  'redemption.rollback.failed',
  'redemption.rollback.succeeded',
  'redemption.succeeded',
  'voucher.created',
  'voucher.deleted',
  'voucher.disabled',
  'voucher.enabled',
  'voucher.gift.balance_aded',
  'voucher.gift.transaction.created',
  'voucher.loyalty_card.pending_points.activated',
  'voucher.loyalty_card.pending_points.aded',
  'voucher.loyalty_card.pending_points.canceled',
  'voucher.loyalty_card.pending_points.updated',
  'voucher.loyalty_card.points_aded',
  'voucher.loyalty_card.points_expired',
  'voucher.loyalty_card.transaction.created',
  'voucher.published',
  'voucher.updated',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A webhook of a project (`wh_…`): where to POST which events (docs/decisions.md "Webhooks"). */
export interface Webhook {
  id: string;
  projectId: string;
  targetUrl: string;
  events: WebhookEvent[];
  active: boolean;
  createdAt: string;
  updatedAt: string | null;
}

/** At most this many webhooks per project: the stream consumer reads them all (one Query) for each batch of changes. */
export const MAX_WEBHOOKS_PER_PROJECT = 50;
