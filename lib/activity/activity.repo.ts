import { toCustomerReply, toSimpleCustomerReply } from '../customers/customer.mapper.js';
import type { Customer } from '../customers/customer.js';
import {
  ACTIVITY_SORT_PREFIX,
  cardTransaction,
  customerActivity,
  customEvent,
  EVENT_SORT_PREFIX,
  publication,
  publicationListEntry,
  redemption,
} from '../db/entities.js';
import type { QueryOptions } from '../db/entity.js';
import { getInOrder } from '../db/query-page.js';
import type { Publication } from '../publications/publication.js';
import { customerView } from '../publications/publication.js';
import { toPublicationListItemReply } from '../publications/publication.mapper.js';
import type { Redemption } from '../redemptions/redemption.js';
import { toRedemptionReply } from '../redemptions/redemption.mapper.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { toVoucherTransactionReply } from '../vouchers/voucher-balance.mapper.js';
import {
  type ActivityEvent,
  activityKey,
  before,
  campaignTypeOfRedemption,
  campaignTypeOfVoucher,
  recordEventId,
  recordEvents,
  redemptionActivityType,
  timeOfKey,
  transactionActivityType,
} from './activity.js';
import { failureEvent } from './failure-event.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Which part of an activity list a page reads: its order, where it continues, and the creation time bounds. */
export interface ActivityWindow {
  descending: boolean;
  /** The key of the event the page starts after (excluded); null: from the start. */
  after: string | null;
  /** Creation time bounds, ISO, both included; null: open. */
  from: string | null;
  to: string | null;
  /** Events read per Query call: the page's size and one more. */
  pageSize: number;
}

/** A source's events in the list's order, each kept only when `keep` says so. */
export type Keep = (e: ActivityEvent) => boolean;

const HIGH = '\uffff';

/**
 * The Query of one source partition whose sort keys are `<prefix><createdAt>#<id>`: the window's
 * time bounds and the cursor's time (the cursor's own moment included; the exact cut is by key).
 */
function queryOptions(w: ActivityWindow, prefix: string, consistent: boolean): QueryOptions {
  const cut = w.after !== null ? timeOfKey(w.after) : null;
  const lo = [w.from, w.descending ? null : cut]
    .filter((x): x is string => x !== null)
    .sort()
    .at(-1);
  const hi = [w.to, w.descending ? cut : null].filter((x): x is string => x !== null).sort()[0];
  const from = lo !== undefined ? `${prefix}${lo}` : prefix || undefined;
  const to = hi !== undefined ? `${prefix}${hi}#${HIGH}` : prefix ? `${prefix}${HIGH}` : undefined;
  return {
    ascending: !w.descending,
    pageSize: w.pageSize,
    ...(consistent ? { consistent } : {}),
    ...(from !== undefined || to !== undefined ? { sortRange: { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) } } : {}),
  };
}

/** The creation times a window reads (both included; undefined: open): its bounds and the cursor's moment. */
function timeRange(w: ActivityWindow): { lo: string | undefined; hi: string | undefined } {
  const cut = w.after !== null ? timeOfKey(w.after) : null;
  const lo = [w.from, w.descending ? null : cut]
    .filter((x): x is string => x !== null)
    .sort()
    .at(-1);
  const hi = [w.to, w.descending ? cut : null].filter((x): x is string => x !== null).sort()[0];
  return { lo, hi };
}

/** Whether a window holds no moment at all (bounds crossed, or a cursor beyond them): nothing to read. */
export function emptyWindow(w: ActivityWindow): boolean {
  const { lo, hi } = timeRange(w);
  return lo !== undefined && hi !== undefined && lo > hi;
}

/** The events of a source's pages after the window's cursor that `keep` keeps, in the source's (the list's) order. */
async function* eventsOf<T>(
  pages: AsyncIterable<T[]>,
  map: (items: T[]) => ActivityEvent[] | Promise<ActivityEvent[]>,
  w: ActivityWindow,
  keep: Keep,
): AsyncGenerator<ActivityEvent> {
  for await (const page of pages) {
    for (const e of await map(page)) if ((w.after === null || before(w.after, e.key, w.descending)) && keep(e)) yield e;
  }
}

/**
 * A customer's own records, each expanded into its events: its writes' (created, updated, segments
 * entered and left) and its failed validations and redemptions (one event each, showing `customer`).
 */
export function recordSource(deps: Deps, customer: Customer, w: ActivityWindow, keep: Keep): AsyncGenerator<ActivityEvent> {
  const pages = customerActivity.queryPages(deps, { key: [customer.projectId, customer.id] }, queryOptions(w, `${ACTIVITY_SORT_PREFIX}#`, true));
  let simple: Record<string, unknown> | undefined;
  return eventsOf(
    pages,
    (records) =>
      records.flatMap((r): ActivityEvent[] => {
        if ('failed' in r) {
          return [
            {
              key: activityKey(r.createdAt, 'a', recordEventId(r.id, 0)),
              createdAt: r.createdAt,
              ...failureEvent(r, (simple ??= toSimpleCustomerReply(customer))),
            },
          ];
        }
        const events = recordEvents(r).map(
          (e): ActivityEvent => ({
            key: activityKey(r.createdAt, 'a', recordEventId(r.id, e.n)),
            type: e.type,
            createdAt: r.createdAt,
            campaignId: null,
            campaignType: null,
            data: { customer: toCustomerReply(r.customer), ...(e.segmentId !== null ? { segment: { id: e.segmentId, object: 'segment' } } : {}) },
          }),
        );
        return w.descending ? events.reverse() : events;
      }),
    w,
    keep,
  );
}

/** A customer's custom events (POST /v1/events), `customer.custom_event`. */
export function customEventSource(deps: Deps, customer: Customer, w: ActivityWindow, keep: Keep): AsyncGenerator<ActivityEvent> {
  const pages = customEvent.queryPages(deps, { key: [customer.projectId, customer.id] }, queryOptions(w, `${EVENT_SORT_PREFIX}#`, true));
  const simple = toSimpleCustomerReply(customer);
  return eventsOf(
    pages,
    (events) =>
      events.map((e) => ({
        key: activityKey(e.createdAt, 'e', e.id),
        type: 'customer.custom_event' as const,
        createdAt: e.createdAt,
        campaignId: null,
        campaignType: null,
        data: { event: { id: e.id, object: 'event', type: e.type, metadata: e.metadata, created_at: e.createdAt }, customer: simple },
      })),
    w,
    keep,
  );
}

function redemptionEvents(rs: Redemption[], customer: Record<string, unknown> | null): ActivityEvent[] {
  return rs.flatMap((r) => {
    const type = redemptionActivityType(r);
    if (type === null) return [];
    return [
      {
        key: activityKey(r.date, 'r', r.id),
        type,
        createdAt: r.date,
        campaignId: r.campaignId,
        campaignType: campaignTypeOfRedemption(r),
        data: { ...(customer ? { customer } : {}), redemption: toRedemptionReply(r) },
      },
    ];
  });
}

/** A customer's redemptions and rollbacks (the redemptions' customer index, GSI2: a moment behind the commit). */
export function customerRedemptionSource(deps: Deps, customer: Customer, w: ActivityWindow, keep: Keep): AsyncGenerator<ActivityEvent> {
  const pages = redemption.queryPages(deps, { sparse: [customer.projectId, customer.id] }, queryOptions(w, '', false));
  const simple = toSimpleCustomerReply(customer);
  return eventsOf(pages, (rs) => redemptionEvents(rs, simple), w, keep);
}

/** A card's redemptions and rollbacks (the redemptions' voucher index, GSI1: a moment behind the commit). */
export function cardRedemptionSource(deps: Deps, card: Voucher, w: ActivityWindow, keep: Keep): AsyncGenerator<ActivityEvent> {
  const pages = redemption.queryPages(deps, { index: [card.projectId, card.id] }, queryOptions(w, '', false));
  return eventsOf(pages, (rs) => redemptionEvents(rs, null), w, keep);
}

const publicationEvent = (p: Publication): ActivityEvent => ({
  key: activityKey(p.createdAt, 'p', p.id),
  type: 'customer.publication.succeeded',
  createdAt: p.createdAt,
  campaignId: p.campaignId,
  campaignType: campaignTypeOfVoucher({ type: p.voucherType, isReferralCode: p.isReferralCode, campaignId: p.campaignId }),
  data: { customer: toSimpleCustomerReply(p.customer), publication: toPublicationListItemReply(p) },
});

/** A customer's publications: its publication list view (small entries), then the page's publications by key. */
export function customerPublicationSource(deps: Deps, customer: Customer, w: ActivityWindow, keep: Keep): AsyncGenerator<ActivityEvent> {
  const pages = publicationListEntry.queryPages(deps, { key: [customer.projectId, customerView(customer.id)] }, queryOptions(w, '', true));
  return eventsOf(
    pages,
    async (entries) =>
      (
        await getInOrder(
          deps,
          publication,
          customer.projectId,
          entries.map((e) => e.publicationId),
          'publications',
        )
      ).map(publicationEvent),
    w,
    keep,
  );
}

/** The publication that gave a card, as a source of at most one event. */
export async function* cardPublicationSource(deps: Deps, card: Voucher, w: ActivityWindow, keep: Keep): AsyncGenerator<ActivityEvent> {
  if (!card.publicationId) return;
  const p = await publication.get(deps, publication.key(card.projectId, card.publicationId));
  if (!p) return;
  const e = publicationEvent(p);
  const inTime = (w.from === null || e.createdAt >= w.from) && (w.to === null || e.createdAt <= w.to);
  if (inTime && (w.after === null || before(w.after, e.key, w.descending)) && keep(e)) yield e;
}

/** A card's transactions (every change of its points), by their reference event types; the types with no event are left out. */
export function cardTransactionSource(deps: Deps, card: Voucher, w: ActivityWindow, keep: Keep, customer: Customer | null): AsyncGenerator<ActivityEvent> {
  const pages = cardTransaction.queryPages(deps, { key: [card.projectId, card.id] }, queryOptions(w, '', true));
  const voucher = { id: card.id, code: card.code, campaign_id: card.campaignId, object: 'voucher' };
  const simple = customer ? toSimpleCustomerReply(customer) : null;
  const campaignType = campaignTypeOfVoucher(card);
  return eventsOf(
    pages,
    (ts) =>
      ts.flatMap((t) => {
        const type = transactionActivityType(t);
        if (type === null) return [];
        return [
          {
            key: activityKey(t.createdAt, 't', t.id),
            type,
            createdAt: t.createdAt,
            campaignId: t.campaignId,
            campaignType,
            data: { ...(simple ? { customer: simple } : {}), voucher, transaction: toVoucherTransactionReply(t) },
          },
        ];
      }),
    w,
    keep,
  );
}
