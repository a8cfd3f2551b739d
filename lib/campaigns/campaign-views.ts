import type { CampaignStatus, CampaignType } from './campaign.js';

/**
 * Filter views of GET /v1/campaigns, and the plan that turns a page of a filtered list into key
 * ranges (pure: no I/O). docs/architecture.md "Listing campaigns without a scan" explains the design.
 *
 * A campaign's type and referral flag never change, so every campaign is numbered 1, 2, 3, …
 * without gaps, in creation order, in each of the views those two fields define: its type
 * (`TYPE#<type>`), its flag (`REF#<true|false>`) and both (`TYPE#<type>#REF#<flag>`), besides its
 * creation number in the project (the `ALL` view). Page p of a view is then one range of numbers.
 *
 * The creation status does change (IN_PROGRESS → DONE or FAILED when vouchers are generated), so
 * it has no numbering of its own: the project's counter keeps the few campaigns that are not DONE
 * (`notDone`, with their numbers in each view). A status filter is then exact arithmetic over that
 * set: DONE = the view minus those campaigns (ranges around them), any other status = those
 * campaigns themselves (their ids, in number order).
 */

/** The view of every campaign; its numbers are the creation numbers (the `CAMPAIGN_SEQ` index). */
export const ALL_VIEW = 'ALL';

/** A campaign's numbers in its type, referral-flag and type-and-flag views (in `campaignViews` order). */
export type ViewNumbers = [number, number, number];

/** The status of a deleted campaign's record in the counter: its numbers are gaps that every page plan skips. */
export const DELETED = 'DELETED';

/**
 * A campaign whose creation status is not DONE, as the counter keeps it (keyed by campaign id).
 * Short attribute names: the map is read with every listing, so its size is paid on each read.
 */
export interface NotDoneRecord {
  /** The creation status (never DONE), or DELETED: a deleted campaign whose numbers every page skips. */
  s: CampaignStatus | typeof DELETED;
  /** The campaign type. */
  t: CampaignType;
  /** Whether its vouchers are referral codes. */
  r: boolean;
  /** Its numbers: creation number, then the three of `ViewNumbers`. */
  n: [number, number, number, number];
}

/**
 * At most this many campaigns that are not DONE are kept in a project's counter (~100 bytes each,
 * so ≤ ~100 KB). Beyond it the set is dropped (`notDoneOverflow`) and status filters read the
 * whole list partition until `npm run admin -- backfill campaign-filters` rebuilds it.
 */
export const MAX_NOT_DONE = 1000;

/** The three views a campaign is numbered in besides ALL, in `ViewNumbers` order. */
export const campaignViews = (campaignType: CampaignType, isReferralCode: boolean): [string, string, string] => [
  `TYPE#${campaignType}`,
  `REF#${isReferralCode}`,
  `TYPE#${campaignType}#REF#${isReferralCode}`,
];

/** The filters of GET /v1/campaigns that views serve. */
export interface ViewFilter {
  campaignType?: CampaignType | undefined;
  isReferralCode?: boolean | undefined;
  status?: CampaignStatus | undefined;
}

/** The view a filter reads and the position of its numbers in a NotDoneRecord's `n` (0 = creation number). */
export function viewOf(filter: ViewFilter): { name: string; at: 0 | 1 | 2 | 3 } {
  const { campaignType: t, isReferralCode: r } = filter;
  if (t !== undefined && r !== undefined) return { name: campaignViews(t, r)[2], at: 3 };
  if (t !== undefined) return { name: `TYPE#${t}`, at: 1 };
  if (r !== undefined) return { name: `REF#${r}`, at: 2 };
  return { name: ALL_VIEW, at: 0 };
}

/** One read of a page: a range of view numbers (both ends included), or campaign ids known already. */
export type PageRead = { kind: 'range'; from: number; to: number } | { kind: 'ids'; ids: string[] };

export interface PagePlan {
  /** Campaigns matching the filter, on every page. */
  total: number;
  /** In page order; a range is read in the page's direction (descending: `to` first). */
  reads: PageRead[];
}

export interface PagePlanInput {
  filter: ViewFilter;
  /** Campaigns in the filter's view (`viewOf(filter)`): the counter's `views[name]`, or `campaignCount` for ALL. */
  viewSize: number;
  /** The counter's `notDone` (every view's). */
  notDone: Readonly<Record<string, NotDoneRecord>>;
  descending: boolean;
  offset: number;
  limit: number;
}

/** The k-th (0-based) number of 1..∞ that is not in `excluded` (ascending, distinct). */
function kthKept(k: number, excluded: readonly number[]): number {
  let n = k + 1;
  for (const e of excluded) {
    if (e > n) break;
    n += 1;
  }
  return n;
}

/**
 * The runs of consecutive kept numbers (1..size without `excluded`, ascending) holding kept
 * numbers `offset` .. `offset + count - 1`.
 */
function keptRuns(size: number, excluded: readonly number[], offset: number, count: number): Array<{ from: number; to: number }> {
  const runs: Array<{ from: number; to: number }> = [];
  let n = kthKept(offset, excluded);
  let next = excluded.findIndex((e) => e > n);
  if (next === -1) next = excluded.length;
  let left = count;
  while (left > 0 && n <= size) {
    const stop = next < excluded.length ? (excluded[next] as number) - 1 : size;
    const to = Math.min(stop, n + left - 1);
    runs.push({ from: n, to });
    left -= to - n + 1;
    n = to + 1;
    while (next < excluded.length && excluded[next] === n) {
      n += 1;
      next += 1;
    }
  }
  return runs;
}

/**
 * Plans one page of a view-served listing: `total` and what to read, never more than the page.
 * With no status: one range of `limit` numbers. DONE: the ranges between the not-DONE campaigns
 * that fall inside the page (together exactly the page's campaigns). Another status: the ids of
 * the matching not-DONE campaigns, in number order; no range is read at all.
 */
export function planPage(input: PagePlanInput): PagePlan {
  const { filter, viewSize: size, descending, offset, limit } = input;
  const { at } = viewOf(filter);
  const inView = Object.entries(input.notDone).filter(
    ([, rec]) =>
      (filter.campaignType === undefined || rec.t === filter.campaignType) && (filter.isReferralCode === undefined || rec.r === filter.isReferralCode),
  );
  const numberOf = (rec: NotDoneRecord): number => rec.n[at];
  if (filter.status !== undefined && filter.status !== 'DONE') {
    const members = inView.filter(([, rec]) => rec.s === filter.status).sort(([, a], [, b]) => (numberOf(a) - numberOf(b)) * (descending ? -1 : 1));
    const ids = members.slice(offset, offset + limit).map(([id]) => id);
    return { total: members.length, reads: ids.length > 0 ? [{ kind: 'ids', ids }] : [] };
  }
  // Descending pages are planned as ascending ones over mirrored numbers (size + 1 - n).
  const mirror = (n: number) => (descending ? size + 1 - n : n);
  // DONE skips every campaign that is not DONE; no status still skips the deleted ones (their numbers are gaps).
  const skipped = filter.status === 'DONE' ? inView : inView.filter(([, rec]) => rec.s === DELETED);
  const excluded = [...new Set(skipped.map(([, rec]) => mirror(numberOf(rec))))].sort((a, b) => a - b);
  const total = size - excluded.length;
  const count = Math.min(limit, total - offset);
  if (count <= 0) return { total, reads: [] };
  const reads = keptRuns(size, excluded, offset, count).map(({ from, to }): PageRead => {
    const [a, b] = [mirror(from), mirror(to)];
    return { kind: 'range', from: Math.min(a, b), to: Math.max(a, b) };
  });
  return { total, reads };
}

/** The NotDoneRecord of a campaign with this status, type, flag and numbers. */
export const notDoneRecord = (
  status: NotDoneRecord['s'],
  campaignType: CampaignType,
  isReferralCode: boolean,
  sequence: number,
  numbers: ViewNumbers,
): NotDoneRecord => ({ s: status, t: campaignType, r: isReferralCode, n: [sequence, ...numbers] });

/** What a project's campaigns, numbered from scratch, give the counter and each campaign. */
export interface ViewNumbering {
  /** Per campaign, in the order given. */
  numbers: ViewNumbers[];
  /** Campaigns per view. */
  views: Record<string, number>;
  /** The campaigns that are not DONE, or null when there are more than MAX_NOT_DONE. */
  notDone: Record<string, NotDoneRecord> | null;
}

/**
 * Numbers campaigns in their views as creating them one by one in this order would have: the
 * order must be creation order (ascending `sequence`). Used by the backfill of projects whose
 * campaigns predate the views, and by bulk seeding (tests, benchmark).
 */
export function numberViews(
  campaigns: ReadonlyArray<{ id: string; campaignType: CampaignType; isReferralCode: boolean; creationStatus: CampaignStatus; sequence: number }>,
): ViewNumbering {
  const views: Record<string, number> = {};
  const notDone: Record<string, NotDoneRecord> = {};
  let notDoneCount = 0;
  const numbers = campaigns.map((c): ViewNumbers => {
    const own = campaignViews(c.campaignType, c.isReferralCode).map((view) => {
      views[view] = (views[view] ?? 0) + 1;
      return views[view];
    }) as ViewNumbers;
    if (c.creationStatus !== 'DONE') {
      notDone[c.id] = notDoneRecord(c.creationStatus, c.campaignType, c.isReferralCode, c.sequence, own);
      notDoneCount += 1;
    }
    return own;
  });
  return { numbers, views, notDone: notDoneCount > MAX_NOT_DONE ? null : notDone };
}
