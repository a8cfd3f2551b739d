import type { Campaign, CampaignListEntry } from '../campaigns/campaign.js';
import * as entities from '../db/entities.js';
import type { Item, ItemKey } from '../db/entity.js';
import { queryAll } from '../db/query.js';
import { ENTITY_ATTR, tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { readOnlyVoucher } from '../vouchers/voucher-read.js';
import type { PrefetchedReads } from './prefetched-reads.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Newest STANDALONE (generic code) campaigns whose codes are offered; older ones are not examined. */
export const MAX_PUBLIC_CAMPAIGNS = 100;
/** Codes read from each STANDALONE campaign, newest first (a generic code campaign holds one). */
export const PUBLIC_CODES_PER_CAMPAIGN = 5;

/**
 * The vouchers `customerId` holds: one Query of the holder's GSI2 partition (every attribute
 * projected, eventually consistent), all pages. The items are remembered in `reads`, so the engine
 * evaluates them without reading them again. Cost: the size of the wallet, not of the project.
 */
export async function readWallet(deps: Deps, reads: PrefetchedReads, projectId: string, customerId: string): Promise<Voucher[]> {
  const { gsi2 } = tableDesign.indexes;
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    IndexName: gsi2.name,
    KeyConditionExpression: `${gsi2.partitionKey} = :pk`,
    FilterExpression: '#entity = :voucher',
    ExpressionAttributeNames: { '#entity': ENTITY_ATTR },
    ExpressionAttributeValues: { ':pk': entities.voucherByHolder.partition(projectId, customerId), ':voucher': entities.voucher.name },
  });
  reads.add(items);
  return items.map((item) => reads.remember(item, readOnlyVoucher(item)));
}

/**
 * The project's campaigns that offer something to anyone: its PROMOTION campaigns (their tiers) and
 * its STANDALONE campaigns (their generic codes), from the compact list entries of the project's
 * campaign list partition (one Query; its size is the number of campaigns, not of vouchers).
 */
export async function listOfferCampaigns(deps: Deps, projectId: string): Promise<CampaignListEntry[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    KeyConditionExpression: `${tableDesign.partitionKey} = :pk`,
    FilterExpression: 'campaignType = :promotion OR #type = :standalone',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':pk': entities.campaignListEntry.key.partition(projectId), ':promotion': 'PROMOTION', ':standalone': 'STANDALONE' },
    ScanIndexForward: false,
    // Read after the campaign counter (qualification-hints.ts): it must show every campaign the counter counted.
    ConsistentRead: true,
  });
  return items.map((item) => entities.campaignListEntry.fromItem(item));
}

/**
 * The newest codes of a STANDALONE campaign, at most PUBLIC_CODES_PER_CAMPAIGN, held or not (the
 * caller keeps the unheld ones: a held code is in its holder's wallet): one Query of the campaign's
 * GSI1 voucher list. Eventually consistent, as every index.
 */
export async function queryCampaignCodes(deps: Deps, projectId: string, campaignId: string): Promise<Item[]> {
  const { gsi1 } = tableDesign.indexes;
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    IndexName: gsi1.name,
    KeyConditionExpression: `${gsi1.partitionKey} = :pk`,
    ExpressionAttributeValues: { ':pk': entities.voucher.index.partition(projectId, campaignId) },
    ScanIndexForward: false,
    Limit: PUBLIC_CODES_PER_CAMPAIGN,
  });
  return items.slice(0, PUBLIC_CODES_PER_CAMPAIGN);
}

/**
 * The campaigns by id (read consistently through `reads`, ≤ 100 per BatchGetItem, with `alongside`
 * in the same batches); a missing one is left out. Keys already read are not read again.
 */
export async function readCampaigns(
  reads: PrefetchedReads,
  projectId: string,
  ids: Iterable<string>,
  alongside: readonly ItemKey[] = [],
): Promise<Map<string, Campaign>> {
  const keys = [...new Set(ids)].map((id) => entities.campaign.key(projectId, id));
  await reads.read([...keys, ...alongside]);
  const out = new Map<string, Campaign>();
  for (const key of keys) {
    const item = reads.get(key);
    if (item) {
      const c = (reads.knownValueOf(item) as Campaign | undefined) ?? reads.remember(item, entities.campaign.fromItem(item));
      out.set(c.id, c);
    }
  }
  return out;
}

/**
 * Remembers, for each tier of the promotions read, the pointer from its id to its campaign: the
 * campaign item, read consistently, lists the tier, and the pointer is written in the same
 * transaction as the tier (lib/campaigns/promotion-tier.repo.ts), so the engine's read of the
 * pointer is answered without a round trip per tier.
 */
export function rememberTierPointers(reads: PrefetchedReads, campaigns: Iterable<Campaign>): void {
  const items = [];
  for (const c of campaigns) for (const t of c.promotionTiers ?? []) items.push(entities.promotionTierRef.toItem({ campaignId: c.id }, c.projectId, t.id));
  reads.add(items);
}
