import { createHash } from 'node:crypto';
import { util } from '../builtins.js';
import * as entities from '../db/entities.js';
import { ENTITY_ATTR } from '../db/table.js';
import { tierReply, toCampaignReply } from '../campaigns/campaign.mapper.js';
import { toCustomerReply } from '../customers/customer.mapper.js';
import { toEarningRuleReply } from '../earning-rules/earning-rule.mapper.js';
import { toPromotionStackReply } from '../promotion-stacks/promotion-stack.mapper.js';
import { toPendingPointsReply } from '../loyalties/pending-points.mapper.js';
import { toLoyaltyTierReply } from '../loyalties/tier.mapper.js';
import { toPublicationListItemReply } from '../publications/publication.mapper.js';
import { toRedemptionReply } from '../redemptions/redemption.mapper.js';
import { toRewardAssignmentReply } from '../rewards/reward.mapper.js';
import { toAssignmentReply, toValidationRuleReply } from '../validation-rules/validation-rule.mapper.js';
import { toVoucherReply } from '../vouchers/voucher.mapper.js';
import { toVoucherTransactionReply } from '../vouchers/voucher-balance.mapper.js';
import type { Campaign, PromotionTier } from '../campaigns/campaign.js';
import type { CardTransaction } from '../loyalties/card-transaction.js';
import type { PendingPointsStatus } from '../loyalties/pending-points.js';
import type { LoyaltyTier } from '../loyalties/tier.js';
import type { Redemption } from '../redemptions/redemption.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { WebhookEvent } from '../webhooks/webhook.js';
import type { ItemChange, OutEvent } from './out-event.js';

/*
 * The outbox's mapping (docs/decisions.md "Webhooks: the outbox"): the item a change writes in its
 * own transaction is the event's record, and its stream record is read here. Pure: no I/O.
 */

/** The entities whose changes make events: the stream consumer's filter (infra and the local poller) keeps only these. */
export const EVENT_ENTITIES = [
  'redemption',
  'publication',
  'customer',
  'voucher',
  'card_transaction',
  'campaign',
  'pending_points',
  'earning_rule',
  'validation_rule',
  'validation_rule_assignment',
  'reward_assignment',
  'loyalty_tier_set',
  'promotion_stack',
  'referral_conversion',
] as const;

/** The reference's event names this deployment sends; a webhook may name others (they are kept, and never sent). */
export const EMITTED_EVENTS: readonly WebhookEvent[] = [
  'redemption.succeeded',
  'redemption.failed',
  'redemption.rollback.succeeded',
  'redemption.rollback.failed',
  'publication.succeeded',
  'customer.created',
  'customer.deleted',
  'voucher.created',
  'voucher.updated',
  'voucher.deleted',
  'voucher.enabled',
  'voucher.disabled',
  'voucher.loyalty_card.transaction.created',
  'voucher.loyalty_card.points_aded',
  'voucher.loyalty_card.points_expired',
  'voucher.gift.transaction.created',
  'voucher.gift.balance_aded',
  'campaign.created',
  'campaign.updated',
  'campaign.deleted',
  'campaign.enabled',
  'campaign.disabled',
  'campaign.vouchers.generation.started',
  'campaign.vouchers.generation.completed',
  'campaign.vouchers.generation.failed',
  'voucher.loyalty_card.pending_points.aded',
  'voucher.loyalty_card.pending_points.updated',
  'voucher.loyalty_card.pending_points.activated',
  'voucher.loyalty_card.pending_points.canceled',
  'campaign.promotion_tier.created',
  'campaign.promotion_tier.updated',
  'campaign.promotion_tier.enabled',
  'campaign.promotion_tier.disabled',
  'campaign.promotion_tier.deleted',
  'campaign.earning_rule.assigned',
  'campaign.earning_rule.updated',
  'campaign.earning_rule.enabled',
  'campaign.earning_rule.disabled',
  'campaign.earning_rule.deleted',
  'campaign.reward.assignment.created',
  'campaign.reward.assignment.updated',
  'campaign.reward.assignment.deleted',
  'business_validation_rule.created',
  'business_validation_rule.updated',
  'business_validation_rule.deleted',
  'business_validation_rule.assignment.created',
  'business_validation_rule.assignment.deleted',
  'voucher.published',
  'campaign.vouchers.aded',
  'campaign.loyalty_tier.created',
  'campaign.loyalty_tier.updated',
  'campaign.loyalty_tier.deleted',
  'campaign.promotion_stack.created',
  'campaign.promotion_stack.updated',
  'customer.rewarded',
  'customer.rewarded.loyalty_points',
];

/** `evt_` and 32 hex digits of a hash of what identifies the event: the same change always gets the same id. */
export const eventIdOf = (...parts: (string | number | null | undefined)[]): string =>
  `evt_${createHash('sha256')
    .update(parts.map((p) => String(p ?? '')).join('\u0000'))
    .digest('hex')
    .slice(0, 32)}`;

type Item = Record<string, unknown>;

const make = (type: WebhookEvent, projectId: string, createdAt: string, object: unknown, ...idParts: (string | number | null | undefined)[]): OutEvent => ({
  id: eventIdOf(type, projectId, ...idParts),
  type,
  projectId,
  createdAt,
  data: { object },
});

function redemptionEvents(item: Item): OutEvent[] {
  const r: Redemption = entities.redemption.fromItem(item);
  // A parent only groups a stacked redemption's children; each child is a redemption of one redeemable, as Voucherify's events are.
  if (r.relatedObjectType === 'redemption') return [];
  const type: WebhookEvent =
    r.object === 'redemption_rollback'
      ? r.result === 'SUCCESS'
        ? 'redemption.rollback.succeeded'
        : 'redemption.rollback.failed'
      : r.result === 'SUCCESS'
        ? 'redemption.succeeded'
        : 'redemption.failed';
  return [make(type, r.projectId, r.date, toRedemptionReply(r), r.id)];
}

const POINTS_ADDED = new Set(['POINTS_ADDITION', 'POINTS_ACCRUAL', 'POINTS_REFUND', 'POINTS_TRANSFER_IN']);

function transactionEvents(item: Item): OutEvent[] {
  const t: CardTransaction = entities.cardTransaction.fromItem(item);
  const object = toVoucherTransactionReply(t);
  const at = t.createdAt;
  if (t.type === 'CREDITS_ADDITION' || t.type === 'CREDITS_REMOVAL') {
    const events = [make('voucher.gift.transaction.created', t.projectId, at, object, t.id)];
    if (t.type === 'CREDITS_ADDITION') events.push(make('voucher.gift.balance_aded', t.projectId, at, object, t.id));
    return events;
  }
  const events = [make('voucher.loyalty_card.transaction.created', t.projectId, at, object, t.id)];
  if (POINTS_ADDED.has(t.type)) events.push(make('voucher.loyalty_card.points_aded', t.projectId, at, object, t.id));
  if (t.type === 'POINTS_EXPIRATION') events.push(make('voucher.loyalty_card.points_expired', t.projectId, at, object, t.id));
  return events;
}

function voucherEvents(change: ItemChange): OutEvent[] {
  const after = change.newItem ? entities.voucher.fromItem(change.newItem) : null;
  const before = change.oldItem ? entities.voucher.fromItem(change.oldItem) : null;
  if (change.kind === 'INSERT' && after) return [make('voucher.created', after.projectId, after.createdAt, toVoucherReply(after), after.id)];
  if (change.kind === 'REMOVE' && before)
    return [make('voucher.deleted', before.projectId, change.at ?? before.updatedAt ?? before.createdAt, toVoucherReply(before), before.id)];
  if (!after || !before || after.id !== before.id) return [];
  // A change the voucher's owner made stamps `updatedAt`; redemptions and holds change counters only and send nothing.
  if (after.updatedAt === before.updatedAt) return [];
  const at = after.updatedAt ?? after.createdAt;
  const changed = (type: WebhookEvent, v: Voucher): OutEvent => make(type, v.projectId, at, toVoucherReply(v), v.id, at);
  if (after.active !== before.active) return [changed(after.active ? 'voucher.enabled' : 'voucher.disabled', after)];
  return [changed('voucher.updated', after)];
}

function customerEvents(change: ItemChange): OutEvent[] {
  if (change.kind === 'INSERT' && change.newItem) {
    const c = entities.customer.fromItem(change.newItem);
    return [make('customer.created', c.projectId, c.createdAt, toCustomerReply(c), c.id)];
  }
  if (change.kind === 'REMOVE' && change.oldItem) {
    const c = entities.customer.fromItem(change.oldItem);
    return [make('customer.deleted', c.projectId, change.at ?? c.updatedAt ?? c.createdAt, toCustomerReply(c), c.id)];
  }
  // The reference has no customer.updated event for a webhook to name.
  return [];
}

const GENERATION_ENDS: Partial<Record<string, WebhookEvent>> = {
  DONE: 'campaign.vouchers.generation.completed',
  FAILED: 'campaign.vouchers.generation.failed',
};
const CAMPAIGN_CHANGES = { update: 'campaign.updated', enable: 'campaign.enabled', disable: 'campaign.disabled' } as const;

function campaignEvents(change: ItemChange): OutEvent[] {
  const after = change.newItem ? entities.campaign.fromItem(change.newItem) : null;
  const before = change.oldItem ? entities.campaign.fromItem(change.oldItem) : null;
  if (change.kind === 'INSERT' && after) {
    const object = toCampaignReply(after);
    const events = [make('campaign.created', after.projectId, after.createdAt, object, after.id)];
    if (after.vouchersGenerationStatus === 'IN_PROGRESS')
      events.push(make('campaign.vouchers.generation.started', after.projectId, after.createdAt, object, after.id));
    return events;
  }
  if (change.kind === 'REMOVE' && before)
    return [make('campaign.deleted', before.projectId, change.at ?? before.updatedAt ?? before.createdAt, toCampaignReply(before), before.id)];
  if (!after || !before || after.id !== before.id) return [];
  // PUT, enable and disable raise `revision` and say which they were (`lastChange`); voucher counts, tiers and statuses raise neither.
  if ((after.revision ?? 0) !== (before.revision ?? 0)) {
    const at = after.updatedAt ?? after.createdAt;
    const type = CAMPAIGN_CHANGES[after.lastChange ?? 'update'];
    return [make(type, after.projectId, at, toCampaignReply(after), after.id, after.revision)];
  }
  const ended = after.vouchersGenerationStatus !== before.vouchersGenerationStatus ? GENERATION_ENDS[after.vouchersGenerationStatus] : undefined;
  // A status write stamps no time: the stream record's is when it happened.
  if (ended) return [make(ended, after.projectId, change.at ?? after.updatedAt ?? after.createdAt, toCampaignReply(after), after.id)];
  // The transaction whose vouchers complete an addition records it on the campaign with the count it moves.
  const added = after.lastAddition;
  if (added && added.id !== before.lastAddition?.id) {
    const event = make('campaign.vouchers.aded', after.projectId, added.at, toCampaignReply(after), after.id, added.id);
    return [{ ...event, data: { ...event.data, count: added.count } }];
  }
  return tierEvents(change, before, after);
}

/**
 * A promotion's tiers live in its campaign item's list; a tier's own writes (add, change, enable,
 * disable, delete) change that list alone, each one tier, stamping its `updatedAt`. The event is the
 * difference of the two lists. Tiers made with the campaign are in its `campaign.created`.
 */
function tierEvents(change: ItemChange, before: Campaign, after: Campaign): OutEvent[] {
  const was = new Map((before.promotionTiers ?? []).map((t) => [t.id, t]));
  const is = new Set((after.promotionTiers ?? []).map((t) => t.id));
  const events: OutEvent[] = [];
  const tierEvent = (type: WebhookEvent, at: string, tier: PromotionTier, ...idParts: (string | null)[]) =>
    make(type, after.projectId, at, tierReply(after, tier), tier.id, ...idParts);
  for (const tier of after.promotionTiers ?? []) {
    const old = was.get(tier.id);
    if (!old) events.push(tierEvent('campaign.promotion_tier.created', tier.createdAt, tier));
    else if (old.updatedAt !== tier.updatedAt) {
      const at = tier.updatedAt ?? tier.createdAt;
      const type: WebhookEvent =
        old.active === tier.active ? 'campaign.promotion_tier.updated' : tier.active ? 'campaign.promotion_tier.enabled' : 'campaign.promotion_tier.disabled';
      events.push(tierEvent(type, at, tier, at, old.updatedAt));
    }
  }
  for (const [id, tier] of was) if (!is.has(id)) events.push(tierEvent('campaign.promotion_tier.deleted', change.at ?? tier.updatedAt ?? tier.createdAt, tier));
  return events;
}

const PENDING_EVENTS: Partial<Record<PendingPointsStatus, WebhookEvent>> = {
  PENDING: 'voucher.loyalty_card.pending_points.aded',
  ACTIVATED: 'voucher.loyalty_card.pending_points.activated',
  CANCELED: 'voucher.loyalty_card.pending_points.canceled',
};

/**
 * An entry is put PENDING (added), adjusted in place (updated), and ended by a move: the PENDING
 * item's removal and, in the same transaction, a put of the ACTIVATED or CANCELED item, which is
 * the event's record (the removal sends nothing).
 */
function pendingPointsEvents(change: ItemChange): OutEvent[] {
  if (change.kind === 'INSERT' && change.newItem) {
    const p = entities.pendingPoints.fromItem(change.newItem);
    const type = PENDING_EVENTS[p.status];
    return type ? [make(type, p.projectId, p.status === 'PENDING' ? p.createdAt : p.updatedAt, toPendingPointsReply(p), p.id)] : [];
  }
  if (change.kind !== 'MODIFY' || !change.newItem || !change.oldItem) return [];
  const after = entities.pendingPoints.fromItem(change.newItem);
  const before = entities.pendingPoints.fromItem(change.oldItem);
  if (after.status !== 'PENDING' || after.points === before.points) return [];
  return [
    make(
      'voucher.loyalty_card.pending_points.updated',
      after.projectId,
      after.updatedAt,
      toPendingPointsReply(after),
      after.id,
      after.updatedAt,
      before.points,
      after.points,
    ),
  ];
}

/**
 * Only its owner's requests change a rule (each stamps `updatedAt`): every MODIFY is one, and one that
 * switches `active` is an enable or disable. Two changes in one millisecond keep distinct ids by the
 * stamp they replaced.
 */
function earningRuleEvents(change: ItemChange): OutEvent[] {
  const after = change.newItem ? entities.earningRule.fromItem(change.newItem) : null;
  const before = change.oldItem ? entities.earningRule.fromItem(change.oldItem) : null;
  if (change.kind === 'INSERT' && after) return [make('campaign.earning_rule.assigned', after.projectId, after.createdAt, toEarningRuleReply(after), after.id)];
  if (change.kind === 'REMOVE' && before)
    return [make('campaign.earning_rule.deleted', before.projectId, change.at ?? before.updatedAt ?? before.createdAt, toEarningRuleReply(before), before.id)];
  if (!after || !before) return [];
  const at = after.updatedAt ?? after.createdAt;
  const type: WebhookEvent =
    after.active === before.active ? 'campaign.earning_rule.updated' : after.active ? 'campaign.earning_rule.enabled' : 'campaign.earning_rule.disabled';
  return [make(type, after.projectId, at, toEarningRuleReply(after), after.id, at, before.updatedAt)];
}

/** A validation rule item keeps no project id: its key starts with it (`P#<projectId>#VRULE#…`). */
const projectOfKey = (item: Item): string => String(item.PK).split('#')[1] ?? '';

/** The reference's "business validation rules" are its validation rules: a PUT raises `revision`; assignments move only `assignmentsCount`. */
function validationRuleEvents(change: ItemChange): OutEvent[] {
  if (change.kind === 'INSERT' && change.newItem) {
    const r = entities.validationRule.fromItem(change.newItem);
    return [make('business_validation_rule.created', projectOfKey(change.newItem), r.createdAt, toValidationRuleReply(r), r.id)];
  }
  if (change.kind === 'REMOVE' && change.oldItem) {
    const r = entities.validationRule.fromItem(change.oldItem);
    return [make('business_validation_rule.deleted', projectOfKey(change.oldItem), change.at ?? r.updatedAt ?? r.createdAt, toValidationRuleReply(r), r.id)];
  }
  if (!change.newItem || !change.oldItem) return [];
  const after = entities.validationRule.fromItem(change.newItem);
  if (after.revision === entities.validationRule.fromItem(change.oldItem).revision) return [];
  const at = after.updatedAt ?? after.createdAt;
  return [make('business_validation_rule.updated', projectOfKey(change.newItem), at, toValidationRuleReply(after), after.id, after.revision)];
}

function assignmentEvents(change: ItemChange): OutEvent[] {
  const item = change.kind === 'INSERT' ? change.newItem : change.kind === 'REMOVE' ? change.oldItem : null;
  if (!item) return [];
  const a = entities.validationRuleAssignment.fromItem(item);
  return change.kind === 'INSERT'
    ? [make('business_validation_rule.assignment.created', projectOfKey(item), a.createdAt, toAssignmentReply(a), a.id)]
    : [make('business_validation_rule.assignment.deleted', projectOfKey(item), change.at ?? a.createdAt, toAssignmentReply(a), a.id)];
}

/** A reward on a campaign (`reward_assignment`; its `reward_assignment_pair` copy sends nothing): only a PUT of its points changes it. */
function rewardAssignmentEvents(change: ItemChange): OutEvent[] {
  const after = change.newItem ? entities.rewardAssignment.fromItem(change.newItem) : null;
  const before = change.oldItem ? entities.rewardAssignment.fromItem(change.oldItem) : null;
  if (change.kind === 'INSERT' && after)
    return [make('campaign.reward.assignment.created', after.projectId, after.createdAt, toRewardAssignmentReply(after), after.id)];
  if (change.kind === 'REMOVE' && before)
    return [
      make(
        'campaign.reward.assignment.deleted',
        before.projectId,
        change.at ?? before.updatedAt ?? before.createdAt,
        toRewardAssignmentReply(before),
        before.id,
      ),
    ];
  if (!after || !before) return [];
  const at = after.updatedAt ?? after.createdAt;
  return [make('campaign.reward.assignment.updated', after.projectId, at, toRewardAssignmentReply(after), after.id, at, before.updatedAt, after.points)];
}

/**
 * A program's tiers are one item (`loyalty_tier_set`), with its tier expiration setting; each write
 * raises `revision`. The events are the difference of the two tier lists (a new id: created; a gone
 * id: deleted; a tier whose stored value changed: updated), so a write of the expiration setting alone
 * sends none. A set removed whole goes with its program, whose `campaign.deleted` reports it.
 */
function loyaltyTierEvents(change: ItemChange): OutEvent[] {
  if (change.kind === 'REMOVE' || !change.newItem) return [];
  const after = entities.loyaltyTierSet.fromItem(change.newItem);
  const before = change.oldItem ? entities.loyaltyTierSet.fromItem(change.oldItem) : null;
  const was = new Map((before?.tiers ?? []).map((t) => [t.id, t]));
  const is = new Set(after.tiers.map((t) => t.id));
  const tierEvent = (type: WebhookEvent, when: string, tier: LoyaltyTier, ...idParts: (string | number)[]) =>
    make(type, after.projectId, when, toLoyaltyTierReply(tier), tier.id, ...idParts);
  const events: OutEvent[] = [];
  for (const tier of after.tiers) {
    const old = was.get(tier.id);
    if (!old) events.push(tierEvent('campaign.loyalty_tier.created', tier.createdAt, tier));
    else if (!util().isDeepStrictEqual(old, tier))
      events.push(tierEvent('campaign.loyalty_tier.updated', tier.updatedAt ?? change.at ?? tier.createdAt, tier, after.revision));
  }
  for (const [id, tier] of was) if (!is.has(id)) events.push(tierEvent('campaign.loyalty_tier.deleted', change.at ?? tier.updatedAt ?? tier.createdAt, tier));
  return events;
}

/**
 * A publication is written once, never changed: `publication.succeeded` for it and, in the same
 * record, `voucher.published` for each voucher it gave. The voucher is what the publication keeps of
 * it (the summary of a single voucher, the id and code of each of several), with the publication and
 * its customer beside it as Voucherify's event data carries them.
 */
function publicationEvents(item: Item): OutEvent[] {
  const p = entities.publication.fromItem(item);
  const publication = toPublicationListItemReply(p);
  const summary = 'voucher' in publication ? publication.voucher : null;
  const published = p.vouchers.map((v): OutEvent => {
    const voucher = {
      ...summary,
      id: v.id,
      code: v.code,
      object: 'voucher',
      type: p.voucherType,
      campaign_id: p.campaignId,
      is_referral_code: p.isReferralCode,
    };
    const event = make('voucher.published', p.projectId, p.createdAt, voucher, p.id, v.id);
    return { ...event, data: { ...event.data, publication, customer: publication.customer } };
  });
  return [make('publication.succeeded', p.projectId, p.createdAt, publication, p.id), ...published];
}

/**
 * A stack is created, and changed only by its PUT (raising `revision`). Its reply names its category,
 * which the stack item copies when it is written, so nothing is read here. The reference has no
 * `campaign.promotion_stack.deleted`: a removal sends nothing.
 */
function promotionStackEvents(change: ItemChange): OutEvent[] {
  if (!change.newItem) return [];
  const after = entities.promotionStack.fromItem(change.newItem);
  const object = toPromotionStackReply({ stack: after, category: after.category ?? null });
  const projectId = projectOfKey(change.newItem);
  if (change.kind === 'INSERT') return [make('campaign.promotion_stack.created', projectId, after.createdAt, object, after.id)];
  if (!change.oldItem || entities.promotionStack.fromItem(change.oldItem).revision === after.revision) return [];
  return [make('campaign.promotion_stack.updated', projectId, after.updatedAt ?? change.at ?? after.createdAt, object, after.id, after.revision)];
}

/**
 * A referral conversion that granted the referee a reward records it (`reward`) in the grant's own
 * transaction: `customer.rewarded`, and `customer.rewarded.loyalty_points` too for points. The data
 * names the rewarded customer, the card or gift voucher and its parent campaign by id, the change
 * (`balance`), the referral code and the custom event that converted it; nothing is read.
 */
function conversionEvents(item: Item): OutEvent[] {
  const c = entities.referralConversion.fromItem(item);
  const r = c.reward;
  if (!r) return [];
  const customer = { id: c.refereeId, object: 'customer' };
  const data = {
    object: customer,
    customer,
    holder: customer,
    voucher: { id: r.voucherId, code: r.code, object: 'voucher', campaign_id: r.campaignId, type: r.type },
    campaign: { id: r.campaignId, object: 'campaign' },
    balance: r.type === 'LOYALTY_CARD' ? { points: r.amount } : { amount: r.amount },
    referral: { id: c.id, code: c.code, campaign_id: c.campaignId, referrer_id: c.referrerId },
    custom_event: { id: c.eventId, type: c.eventType },
  };
  const types: WebhookEvent[] = r.type === 'LOYALTY_CARD' ? ['customer.rewarded', 'customer.rewarded.loyalty_points'] : ['customer.rewarded'];
  return types.map((type) => ({ ...make(type, c.projectId, c.createdAt, customer, c.id), data }));
}

/** The events one item change makes (none for most changes). */
export function eventsOfChange(change: ItemChange): OutEvent[] {
  const item = change.newItem ?? change.oldItem;
  const entity = item?.[ENTITY_ATTR];
  switch (entity) {
    case 'redemption':
      return change.kind === 'INSERT' && change.newItem ? redemptionEvents(change.newItem) : [];
    case 'publication':
      return change.kind === 'INSERT' && change.newItem ? publicationEvents(change.newItem) : [];
    case 'card_transaction':
      return change.kind === 'INSERT' && change.newItem ? transactionEvents(change.newItem) : [];
    case 'voucher':
      return voucherEvents(change);
    case 'customer':
      return customerEvents(change);
    case 'campaign':
      return campaignEvents(change);
    case 'pending_points':
      return pendingPointsEvents(change);
    case 'earning_rule':
      return earningRuleEvents(change);
    case 'reward_assignment':
      return rewardAssignmentEvents(change);
    case 'validation_rule':
      return validationRuleEvents(change);
    case 'validation_rule_assignment':
      return assignmentEvents(change);
    case 'loyalty_tier_set':
      return loyaltyTierEvents(change);
    case 'promotion_stack':
      return promotionStackEvents(change);
    case 'referral_conversion':
      return change.kind === 'INSERT' && change.newItem ? conversionEvents(change.newItem) : [];
    default:
      return [];
  }
}
