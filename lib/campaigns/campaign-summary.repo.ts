import { campaignSummaryCounter } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import {
  type CampaignSummaryDelta,
  type CampaignSummaryTotals,
  CAMPAIGN_SUMMARY_FIELDS,
  movedFields,
  pickSummaryShard,
  sumSummaries,
  summaryDay,
} from './campaign-summary.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * The transaction items that count `deltas` for campaign `campaignId` on the UTC day of `date` (an
 * ISO 8601 instant): one UpdateItem `ADD` on a random one of CAMPAIGN_SUMMARY_SHARDS items of that
 * day (made by the first ADD), or none when nothing moves. Meant to go into the transaction that
 * does what it counts (a redemption, a rollback, a publication, a voucher insert or delete), so a
 * count is never off by a failed or retried write; it has no condition, so it never fails that
 * transaction. One item: check the transaction stays within MAX_TRANSACTION_ITEMS (100).
 * @throws Error when a delta is not an integer.
 */
export function summaryCounterUpdates(
  deps: Pick<Runtime, 'tableName'>,
  projectId: string,
  campaignId: string,
  date: string,
  deltas: CampaignSummaryDelta,
  random: () => number = Math.random,
): TransactItem[] {
  const moved = movedFields(deltas);
  if (moved.length === 0) return [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':entity': campaignSummaryCounter.name, ':v': campaignSummaryCounter.version };
  const adds = moved.map(([field, n], i) => {
    names[`#s${i}`] = field;
    values[`:s${i}`] = n;
    return `#s${i} :s${i}`;
  });
  return [
    {
      Update: {
        TableName: deps.tableName,
        Key: campaignSummaryCounter.key(projectId, campaignId, summaryDay(date), pickSummaryShard(random)),
        UpdateExpression: `SET entity = :entity, v = :v ADD ${adds.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
}

/**
 * A campaign's counters summed over the UTC days `startDay` … `endDay` (`YYYY-MM-DD`, both
 * included; either open): one strongly consistent Query of the campaign's counter partition,
 * reading at most CAMPAIGN_SUMMARY_SHARDS small items per day that had activity (a year of daily
 * activity: ≤ 2,920 items of ~100 bytes, a few Query pages).
 */
export async function readCampaignSummary(
  deps: Deps,
  projectId: string,
  campaignId: string,
  range: { startDay?: string; endDay?: string } = {},
): Promise<CampaignSummaryTotals> {
  const items = await campaignSummaryCounter.query(
    deps,
    { key: [projectId, campaignId] },
    {
      consistent: true,
      sortRange: { ...(range.startDay !== undefined ? { from: range.startDay } : {}), ...(range.endDay !== undefined ? { to: `${range.endDay}#99` } : {}) },
    },
  );
  return sumSummaries(items.map((item) => Object.fromEntries(CAMPAIGN_SUMMARY_FIELDS.map((f) => [f, Number(item[f] ?? 0)]))));
}
