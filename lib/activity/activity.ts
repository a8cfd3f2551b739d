import type { CampaignType, VoucherType } from '../campaigns/campaign.js';
import type { Customer } from '../customers/customer.js';
import type { CardTransaction } from '../loyalties/card-transaction.js';
import type { Redemption } from '../redemptions/redemption.js';

/*
 * The customer's and the loyalty card's activity (docs/decisions.md "Activity"). Most of it is read
 * from items already kept in time order (redemptions, publications, card transactions, custom
 * events); what no item records (a customer created, updated, entering or leaving a segment) is a
 * `customer_activity` record written in the customer's own transaction. Pure: no I/O.
 */

/**
 * What a customer write did, stored in the customer's event partition in the write's own
 * transaction: one record per write however many segments it moved the customer in or out of
 * (the 100-item budget), expanded into one event each on read. Kept small to write (the checkout's
 * bundles carry the writing code): the segments entered and left are worked out on read.
 */
export interface CustomerActivityRecord {
  /** `act_…`. */
  id: string;
  projectId: string;
  customerId: string;
  createdAt: string;
  /** The customer as the write left it. */
  customer: Customer;
  /** The segments (ids) the customer was in before the write; null: the write created it. */
  was: string[] | null;
  /** Set on a record of a segment's creation adding the customer (lib/segments): that segment, the only event it tells. */
  joined?: string;
}

/** One redeemable of a failed request as evaluated: its verdict, and what its event shows of it. */
export interface FailedRedeemable {
  object: 'voucher' | 'promotion_tier';
  /** The code or promotion tier id as the request named it. */
  id: string;
  status: 'APPLICABLE' | 'INAPPLICABLE' | 'SKIPPED';
  /** Its error key (INAPPLICABLE) or skip key (SKIPPED). */
  key?: string | null;
  /** The failing validation rule's own message. */
  rule?: string | null;
  voucherId?: string;
  campaignId?: string | null;
  voucherType?: VoucherType;
  referral?: boolean;
}

/**
 * A validation or a redemption that failed for a stored customer (docs/decisions.md "Activity":
 * failures): one PutItem on the failure path only, in the customer's event partition beside the
 * records of its writes, so the activity reads both with one Query. What it was answered with is
 * worked out on read (lib/activity/failure-event.ts), so the checkout's bundles carry little. No
 * copy of the customer: the event shows the customer the list read.
 */
export interface CustomerFailureRecord {
  /** `valid_…` or `r_…`: the id the event's validation or redemption shows (a failed redemption is no redemption object: GET /v1/redemptions/{id} is 404). */
  id: string;
  projectId: string;
  customerId: string;
  createdAt: string;
  failed: 'validation' | 'redemption';
  /** A redemption refused at commit (a race lost): that refusal; null: the first INAPPLICABLE redeemable's error. */
  refusal: { key: string; message: string } | null;
  /** Every redeemable, in application order. */
  redeemables: FailedRedeemable[];
  trackingId: string | null;
  sessionKey?: string;
  metadata: Record<string, unknown>;
}

/** An item of the customer's activity records: a write's record or a failure's. */
export type ActivityRecord = CustomerActivityRecord | CustomerFailureRecord;

/** The reference's event types this deployment lists (CustomerActivity.type; MemberActivity.type is a subset). */
export const ACTIVITY_TYPES = [
  'customer.created',
  'customer.updated',
  'customer.custom_event',
  'customer.segment.entered',
  'customer.segment.left',
  'customer.publication.succeeded',
  'customer.redemption.succeeded',
  'customer.redemption.rollback.succeeded',
  'customer.rewarded.loyalty_points',
  'customer.voucher.loyalty_card.pending_points.activated',
  'customer.voucher.loyalty_card.points_added',
  'customer.voucher.loyalty_card.points_transferred',
  'customer.voucher.loyalty_card.points_expired',
  'customer.loyalty.updated',
  'customer.validation.failed',
  'customer.redemption.failed',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Where an event comes from; part of its id, so events of one moment sort the same on every read. */
export type ActivitySource = 'a' | 'e' | 'p' | 'r' | 't';

/** One event of an activity list, before its wire shape. */
export interface ActivityEvent {
  /** The sort key: creation time (12 hex digits of Unix ms), source, the source item's id. Newest first = descending key. */
  key: string;
  type: ActivityType;
  createdAt: string;
  campaignId: string | null;
  campaignType: CampaignType | null;
  /** The event's `data.data`, in wire form. */
  data: Record<string, unknown>;
}

const ID_PREFIX = 'evcus_';
const TIME_DIGITS = 12;

/** The time part of a key: Unix ms in 12 hex digits, so string order is time order. */
export const timeKey = (at: string | number): string => (typeof at === 'number' ? at : Date.parse(at)).toString(16).padStart(TIME_DIGITS, '0');

/** An event's sort key. */
export const activityKey = (createdAt: string, source: ActivitySource, itemId: string): string => `${timeKey(createdAt)}${source}${itemId}`;

/** An event's id (`evcus_` and its key): the id is the cursor, so `starting_after_id` costs no read. */
export const activityIdOf = (key: string): string => `${ID_PREFIX}${key}`;

const KEY_SHAPE = /^[0-9a-f]{12}[aeprt]./;

/** The key an event id carries; null for a string that is no id of ours. */
export function keyOfActivityId(id: string): string | null {
  if (!id.startsWith(ID_PREFIX)) return null;
  const key = id.slice(ID_PREFIX.length);
  return KEY_SHAPE.test(key) ? key : null;
}

/** The creation time (ISO, ms) a key starts with. */
export const timeOfKey = (key: string): string => new Date(Number.parseInt(key.slice(0, TIME_DIGITS), 16)).toISOString();

/** The campaign type of a voucher of a campaign, as the voucher tells it (no campaign read). */
export function campaignTypeOfVoucher(v: { type: VoucherType; isReferralCode?: boolean; campaignId: string | null }): CampaignType | null {
  if (v.campaignId === null) return null;
  if (v.type === 'LOYALTY_CARD') return 'LOYALTY_PROGRAM';
  if (v.type === 'GIFT_VOUCHER') return 'GIFT_VOUCHERS';
  return v.isReferralCode ? 'REFERRAL_PROGRAM' : 'DISCOUNT_COUPONS';
}

/** The campaign type a redemption concerns: a promotion tier's is PROMOTION, a voucher's as the voucher tells. */
export function campaignTypeOfRedemption(r: Redemption): CampaignType | null {
  if (r.relatedObjectType === 'promotion_tier') return 'PROMOTION';
  return r.voucher ? campaignTypeOfVoucher(r.voucher) : null;
}

/**
 * A redemption's activity type; null for a stacked redemption's parent, which only groups its
 * children (each child is the redemption of one redeemable, as the reference's events are).
 * A failed redemption is no redemption item: it is a failure record (lib/activity/failure.ts), listed by its own source.
 */
export function redemptionActivityType(r: Redemption): ActivityType | null {
  if (r.relatedObjectType === 'redemption' || r.result !== 'SUCCESS') return null;
  return r.object === 'redemption_rollback' ? 'customer.redemption.rollback.succeeded' : 'customer.redemption.succeeded';
}

/**
 * A card transaction's activity type, by the reference's names; null where another event already
 * tells it (points spent on a redemption or a reward: its redemption, which names the reward) or
 * the reference has no customer event (a gift card's credits).
 */
export function transactionActivityType(t: CardTransaction): ActivityType | null {
  switch (t.type) {
    case 'POINTS_ACCRUAL':
      return 'customer.rewarded.loyalty_points';
    case 'POINTS_ADDITION':
    case 'POINTS_REFUND':
      return 'customer.voucher.loyalty_card.points_added';
    case 'PENDING_POINTS_ACTIVATION':
      return 'customer.voucher.loyalty_card.pending_points.activated';
    case 'POINTS_TRANSFER_IN':
    case 'POINTS_TRANSFER_OUT':
      return 'customer.voucher.loyalty_card.points_transferred';
    case 'POINTS_EXPIRATION':
      return 'customer.voucher.loyalty_card.points_expired';
    case 'POINTS_REMOVAL':
      return 'customer.loyalty.updated';
    default:
      return null;
  }
}

/** The events one customer activity record holds, oldest-to-newest by key: the change, then each segment entered, then each left. */
export function recordEvents(r: CustomerActivityRecord): { n: number; type: ActivityType; segmentId: string | null }[] {
  if (r.joined !== undefined) return [{ n: 0, type: 'customer.segment.entered', segmentId: r.joined }];
  const was = r.was ?? [];
  const is = r.customer.segmentIds ?? [];
  const events: { n: number; type: ActivityType; segmentId: string | null }[] = [
    { n: 0, type: r.was === null ? 'customer.created' : 'customer.updated', segmentId: null },
  ];
  for (const id of is) if (!was.includes(id)) events.push({ n: events.length, type: 'customer.segment.entered', segmentId: id });
  for (const id of was) if (!is.includes(id)) events.push({ n: events.length, type: 'customer.segment.left', segmentId: id });
  return events;
}

/** The sub-id of the n-th event of a record: zero-padded, so string order is n's order. */
export const recordEventId = (recordId: string, n: number): string => `${recordId}.${String(n).padStart(3, '0')}`;

/** `category` of the list filter: an EFFECT is what the service did to the customer; an ACTION what the customer or the merchant did. */
export const isEffect = (type: ActivityType): boolean =>
  type.startsWith('customer.segment.') || type.startsWith('customer.rewarded') || type.startsWith('customer.voucher.') || type.startsWith('customer.loyalty.');

/** Whether `a` comes before `b` in the list's order. */
export const before = (a: string, b: string, descending: boolean): boolean => (descending ? a > b : a < b);

/**
 * One page of events merged from sources each already in the list's order: the first `take` and
 * whether any follow. Each source is pulled only as far as the page needs (one event beyond it).
 */
export async function mergePage(
  sources: AsyncIterator<ActivityEvent>[],
  take: number,
  descending: boolean,
): Promise<{ events: ActivityEvent[]; hasMore: boolean }> {
  const heads = await Promise.all(sources.map(async (s) => ({ s, head: await s.next() })));
  const events: ActivityEvent[] = [];
  while (events.length <= take) {
    let best: (typeof heads)[number] | null = null;
    for (const h of heads) {
      if (h.head.done) continue;
      if (!best || before(h.head.value.key, (best.head.value as ActivityEvent).key, descending)) best = h;
    }
    if (!best) break;
    events.push(best.head.value as ActivityEvent);
    best.head = await best.s.next();
  }
  return { events: events.slice(0, take), hasMore: events.length > take };
}
