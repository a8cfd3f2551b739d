import { type ActivityEvent, type ActivityType, isEffect, mergePage } from '../activity/activity.js';
import { type ActivityPage, cursorOf } from '../activity/activity-page.js';
import {
  type ActivityWindow,
  cardTransactionSource,
  emptyWindow,
  customerPublicationSource,
  customerRedemptionSource,
  customEventSource,
  recordSource,
} from '../activity/activity.repo.js';
import type { CustomerActivitiesQuery, CustomerActivityQuery } from '../activity/activity.schema.js';
import type { CampaignType } from '../campaigns/campaign.js';
import { NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { getSegments } from '../segments/segment.repo.js';
import { heldLoyaltyCards } from '../vouchers/voucher-holder.repo.js';
import { findCustomer } from './customer.service.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

interface Filters {
  limit: number;
  descending: boolean;
  after: string | null;
  from: string | null;
  to: string | null;
  campaignId: string | null;
  campaignType: CampaignType | null;
  type: string | null;
  category: 'ACTION' | 'EFFECT' | null;
}

/** Which source can give an event of a type: a `type` filter reads only that source. */
function sourceOfType(type: string): 'record' | 'custom' | 'redemption' | 'publication' | 'card' {
  if (type === 'customer.created' || type === 'customer.updated' || type.startsWith('customer.segment.')) return 'record';
  if (type.startsWith('customer.validation.') || type === 'customer.redemption.failed') return 'record';
  if (type === 'customer.custom_event') return 'custom';
  if (type.startsWith('customer.redemption.')) return 'redemption';
  if (type.startsWith('customer.publication.')) return 'publication';
  return 'card';
}

/**
 * One page of a customer's activity: the customer's own records (created, updated, segments,
 * failed validations and redemptions) and
 * custom events (one Query of its event partition each), its redemptions and rollbacks (one Query
 * of the redemptions' customer index), its publications (its publication list view, then the
 * page's publications by key) and the transactions of each loyalty card it holds (the holder index,
 * then one Query per card), merged by time. Each source reads at most the page and one more event
 * beyond what the filters drop; nothing is scanned.
 */
async function customerActivityPage(deps: Deps, projectId: string, ref: string, f: Filters): Promise<ActivityPage> {
  const customer = await findCustomer(deps, projectId, ref);
  if (!customer) throw new NotFoundError('customer', ref);
  const w: ActivityWindow = { descending: f.descending, after: f.after, from: f.from, to: f.to, pageSize: f.limit + 1 };
  const keep = (e: ActivityEvent): boolean =>
    (f.campaignId === null || e.campaignId === f.campaignId) &&
    (f.campaignType === null || e.campaignType === f.campaignType) &&
    (f.type === null || e.type === f.type) &&
    (f.category === null || isEffect(e.type as ActivityType) === (f.category === 'EFFECT'));
  const reads = (source: ReturnType<typeof sourceOfType>, campaignless = false): boolean =>
    (f.type === null || sourceOfType(f.type) === source) && !(campaignless && (f.campaignId !== null || f.campaignType !== null));
  if (emptyWindow(w)) return { events: [], hasMore: false };
  const sources: AsyncIterator<ActivityEvent>[] = [];
  // Failure records name a campaign: the records are read under a campaign filter too.
  if (reads('record')) sources.push(recordSource(deps, customer, w, keep));
  if (reads('custom', true)) sources.push(customEventSource(deps, customer, w, keep));
  if (reads('redemption')) sources.push(customerRedemptionSource(deps, customer, w, keep));
  if (reads('publication')) sources.push(customerPublicationSource(deps, customer, w, keep));
  if (reads('card') && (f.campaignType === null || f.campaignType === 'LOYALTY_PROGRAM')) {
    for (const card of await heldLoyaltyCards(deps, projectId, customer.id)) {
      if (f.campaignId === null || card.campaignId === f.campaignId) sources.push(cardTransactionSource(deps, card, w, keep, customer));
    }
  }
  const page = await mergePage(sources, f.limit, f.descending);
  await nameSegments(deps, projectId, page.events);
  return page;
}

/** Gives the page's segment events their segment's name (one read of the segments they name); a deleted segment keeps its id only. */
async function nameSegments(deps: Deps, projectId: string, events: ActivityEvent[]): Promise<void> {
  const segmentOf = (e: ActivityEvent) => e.data.segment as { id: string; name?: string } | undefined;
  const ids = [...new Set(events.flatMap((e) => segmentOf(e)?.id ?? []))];
  if (ids.length === 0) return;
  const names = new Map((await getSegments(deps, projectId, ids)).map((s) => [s.id, s.name]));
  for (const e of events) {
    const segment = segmentOf(e);
    const name = segment ? names.get(segment.id) : undefined;
    if (segment && name !== undefined) e.data.segment = { id: segment.id, name, object: 'segment' };
  }
}

/**
 * GET /v1/customers/{customerId}/activity: what happened to the customer, newest first unless
 * `order=created_at`, after `starting_after_id`, within `start_date`/`end_date`, filtered by
 * campaign, campaign type, `category` and `type`.
 * @throws NotFoundError (customer), InvalidQueryParamsError (a cursor that is no event id).
 */
export function listCustomerActivity(deps: Deps, projectId: string, ref: string, q: CustomerActivityQuery): Promise<ActivityPage> {
  const descending = q.order === '-created_at';
  return customerActivityPage(deps, projectId, ref, {
    limit: q.limit,
    descending,
    after: cursorOf(q, descending),
    from: q.start_date ?? null,
    to: q.end_date ?? null,
    campaignId: q.campaign_id ?? null,
    campaignType: q.campaign_type ?? null,
    type: q.type ?? null,
    category: q.category ?? null,
  });
}

/**
 * GET /v1/customers/{customerId}/activities (the reference's older form): the same list, after
 * `starting_after_id` or the date `starting_after`.
 * @throws NotFoundError (customer), InvalidQueryParamsError (a cursor that is no event id).
 */
export function listCustomerActivities(deps: Deps, projectId: string, ref: string, q: CustomerActivitiesQuery): Promise<ActivityPage> {
  const descending = q.order.startsWith('-');
  return customerActivityPage(deps, projectId, ref, {
    limit: q.limit,
    descending,
    after: cursorOf(q, descending),
    from: q.start_date ?? null,
    to: q.end_date ?? null,
    campaignId: q.campaign_id ?? null,
    campaignType: q.campaign_type ?? null,
    type: null,
    category: null,
  });
}
