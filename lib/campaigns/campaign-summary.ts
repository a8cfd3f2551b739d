/**
 * The counters of GET /v1/campaigns/{campaignId}/summary (`get-campaign-summary`), one field per
 * counted figure of the reference's `CampaignsSummary*` replies, camelCase (the mapper gives the
 * wire's snake_case). Amounts are integers in the smallest currency unit, points whole points.
 */
export const CAMPAIGN_SUMMARY_FIELDS = [
  'redemptions',
  'redemptionsSucceeded',
  'redemptionsFailed',
  'rollbacks',
  'rollbacksSucceeded',
  'rollbacksFailed',
  'validations',
  'validationsSucceeded',
  'validationsFailed',
  'ordersAmount',
  'ordersRolledbackAmount',
  'vouchersCreated',
  'vouchersDeleted',
  'publications',
  'publicationsSucceeded',
  'publicationsFailed',
  'discountedAmount',
  'rolledbackDiscountedAmount',
  'amountAdded',
  'amountSubtracted',
  'amountRedeemed',
  'amountRolledback',
  'amountDeleted',
  'createdVouchersAmount',
  'pointsAdded',
  'pointsSubtracted',
  'pointsRedeemed',
  'pointsRolledback',
  'pointsExpired',
  'pointsDeleted',
  'pointsRewarded',
  'createdVouchersPoints',
  'referredCustomers',
] as const;
export type CampaignSummaryField = (typeof CAMPAIGN_SUMMARY_FIELDS)[number];

/** What one write adds to a campaign's counters (negative numbers take back; absent = 0). */
export type CampaignSummaryDelta = Partial<Record<CampaignSummaryField, number>>;

/** A campaign's counters summed over a range of days: every field, 0 where nothing was counted. */
export type CampaignSummaryTotals = Record<CampaignSummaryField, number>;

/**
 * Shards of one campaign's day: a write ADDs to one picked at random, so concurrent writes of a busy
 * campaign spread over this many items instead of queueing on one (DynamoDB serialises the writes
 * of one item; ~1,000 writes/s per partition key is the ceiling). A day of a campaign reads at most
 * this many items.
 */
export const CAMPAIGN_SUMMARY_SHARDS = 8;

/** The shard a write goes to, from `random` in [0, 1). */
export const pickSummaryShard = (random: () => number = Math.random): number =>
  Math.min(CAMPAIGN_SUMMARY_SHARDS - 1, Math.max(0, Math.floor(random() * CAMPAIGN_SUMMARY_SHARDS)));

/** The UTC day (`YYYY-MM-DD`) an ISO 8601 instant is counted on. */
export const summaryDay = (at: string): string => new Date(at).toISOString().slice(0, 10);

/** The fields of `delta` that move a counter (non-zero integers), in CAMPAIGN_SUMMARY_FIELDS order. @throws Error on a non-integer. */
export function movedFields(delta: CampaignSummaryDelta): [CampaignSummaryField, number][] {
  const moved: [CampaignSummaryField, number][] = [];
  for (const field of CAMPAIGN_SUMMARY_FIELDS) {
    const n = delta[field];
    if (n === undefined || n === 0) continue;
    if (!Number.isSafeInteger(n)) throw new Error(`campaign summary counter ${field} must move by an integer, got ${n}`);
    moved.push([field, n]);
  }
  return moved;
}

/** Sums counter items (each a partial record of fields) into totals with every field. */
export function sumSummaries(items: readonly CampaignSummaryDelta[]): CampaignSummaryTotals {
  const totals = Object.fromEntries(CAMPAIGN_SUMMARY_FIELDS.map((f) => [f, 0])) as CampaignSummaryTotals;
  for (const item of items) for (const f of CAMPAIGN_SUMMARY_FIELDS) totals[f] += item[f] ?? 0;
  return totals;
}
