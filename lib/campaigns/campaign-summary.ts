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

/** What a redemption or a rollback counts of one redeemable: its campaign and what it took. */
export interface CountedRedeemable {
  campaignId: string | null;
  /** Gift credits taken (or given back). */
  giftCredits: number;
  /** Loyalty points taken (or given back). */
  loyaltyPoints: number;
  /** The discount it applied (counted only for a redeemable that took no gift credits). */
  discount: number;
  /** The amount of the order it was redeemed on (counted once per campaign). */
  orderAmount: number;
}

/**
 * What one successful redemption (`kind` 'redemption') or rollback ('rollback') adds to each campaign
 * of its redeemables: one redemption (rollback) per redeemable, the order's amount once per campaign,
 * the discounts, gift credits and points of its redeemables (rounded to integers). Redeemables of no campaign count nothing.
 */
export function redemptionSummaryDeltas(kind: 'redemption' | 'rollback', redeemables: readonly CountedRedeemable[]): Map<string, CampaignSummaryDelta> {
  const out = new Map<string, Record<string, number>>();
  const f =
    kind === 'redemption'
      ? ({
          n: ['redemptions', 'redemptionsSucceeded'],
          order: 'ordersAmount',
          discount: 'discountedAmount',
          gift: 'amountRedeemed',
          points: 'pointsRedeemed',
        } as const)
      : ({
          n: ['rollbacks', 'rollbacksSucceeded'],
          order: 'ordersRolledbackAmount',
          discount: 'rolledbackDiscountedAmount',
          gift: 'amountRolledback',
          points: 'pointsRolledback',
        } as const);
  for (const r of redeemables) {
    if (r.campaignId === null) continue;
    let d = out.get(r.campaignId);
    if (!d) {
      d = { [f.n[0]]: 0, [f.n[1]]: 0, [f.order]: r.orderAmount, [f.discount]: 0, [f.gift]: 0, [f.points]: 0 };
      out.set(r.campaignId, d);
    }
    d[f.n[0]] = (d[f.n[0]] ?? 0) + 1;
    d[f.n[1]] = (d[f.n[1]] ?? 0) + 1;
    if (r.giftCredits > 0) d[f.gift] = (d[f.gift] ?? 0) + r.giftCredits;
    else d[f.discount] = (d[f.discount] ?? 0) + r.discount;
    d[f.points] = (d[f.points] ?? 0) + r.loyaltyPoints;
  }
  // Amounts are integers in the smallest unit; rounding here keeps a counter write from ever failing the transaction it rides in.
  for (const d of out.values()) for (const k of Object.keys(d)) d[k] = Math.round(d[k] ?? 0);
  return out as Map<string, CampaignSummaryDelta>;
}

/**
 * What storing new vouchers of a campaign adds: their number, the credits of new gift cards and the
 * points of new loyalty cards (`created_vouchers_amount`, `created_vouchers_points`).
 */
export function createdVouchersDelta(vouchers: readonly { gift: { amount: number } | null; loyaltyCard: { points: number } | null }[]): CampaignSummaryDelta {
  let amount = 0;
  let points = 0;
  for (const v of vouchers) {
    amount += v.gift?.amount ?? 0;
    points += v.loyaltyCard?.points ?? 0;
  }
  return { vouchersCreated: vouchers.length, createdVouchersAmount: Math.round(amount), createdVouchersPoints: Math.round(points) };
}
