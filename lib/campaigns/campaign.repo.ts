import * as entities from '../db/entities.js';
import type { Item, ItemKey } from '../db/entity.js';
import { queryAll } from '../db/query.js';
import { tableDesign } from '../db/table.js';
import { ExtraItemsConflictError, RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Campaign, CampaignCounter, CampaignListEntry, CampaignStatus } from './campaign.js';

export type { CampaignCounter, CampaignListEntry } from './campaign.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

export const listEntryOf = (c: Campaign, sequence: number): CampaignListEntry => ({
  id: c.id,
  name: c.name,
  campaignType: c.campaignType,
  type: c.type,
  voucherType: c.voucher?.type ?? null,
  creationStatus: c.creationStatus,
  isReferralCode: c.voucher?.isReferralCode ?? false,
  categoryId: c.category?.id ?? null,
  categoryName: c.category?.name ?? null,
  active: c.active,
  startDate: c.startDate,
  expirationDate: c.expirationDate,
  validityDayOfWeek: c.validityDayOfWeek,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
  sequence,
});

/**
 * The list entry item of a campaign, as insertCampaign writes it (exported so that bulk seeding
 * in tests and the benchmark writes the real layout).
 */
export const listEntryItem = (campaign: Campaign, sequence: number): Item =>
  entities.campaignListEntry.toItem(listEntryOf(campaign, sequence), campaign.projectId);

/** The campaign item itself, as insertCampaign writes it. */
export const campaignItem = (campaign: Campaign): Item => entities.campaign.toItem(campaign);

export const campaignCounterItem = (projectId: string, counter: CampaignCounter): Item =>
  entities.campaignCounter.toItem({ campaignCount: counter.campaignCount, lastCreatedAt: counter.lastCreatedAt }, projectId);

/** The project's campaign counter, read strongly consistently; null before its first campaign. */
export function getCampaignCounter(deps: Deps, projectId: string): Promise<CampaignCounter | null> {
  return entities.campaignCounter.get(deps, entities.campaignCounter.key(projectId));
}

/**
 * The ids of the campaigns numbered `from`..`to` (inclusive), in creation order or its reverse:
 * one Query of GSI1 over that key range, reading only those entries whatever the page number.
 * GSI1 is eventually consistent, so a campaign created a moment ago may be missing for a moment.
 */
export async function campaignIdsBySequence(deps: Deps, projectId: string, from: number, to: number, descending: boolean): Promise<string[]> {
  const bySequence = entities.campaignListEntry.index;
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    IndexName: tableDesign.indexes.gsi1.name,
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': bySequence.partition(projectId), ':from': bySequence.sort(from), ':to': bySequence.sort(to) },
    ProjectionExpression: 'id',
    ScanIndexForward: !descending,
  });
  return items.map((item) => String(item.id));
}

/**
 * Every list entry of a project, oldest first: Query pages over the project's compact entries
 * (about 300 bytes each, so 5,000 campaigns are two 1 MB pages), never a scan and never the
 * campaign items themselves. Only filtered or `updated_at`-ordered listings need this.
 */
export function listCampaignEntries(deps: Deps, projectId: string): Promise<CampaignListEntry[]> {
  return entities.campaignListEntry.query(deps, { key: [projectId] });
}

/** Campaigns by id (≤ 100), in the order asked; ids whose campaign is gone are left out. */
export async function getCampaigns(deps: Deps, projectId: string, campaignIds: string[]): Promise<Campaign[]> {
  const keys = campaignIds.map((id) => entities.campaign.key(projectId, id));
  const found = new Map((await entities.campaign.getMany(deps, keys, 'Campaigns could not be read: the table is throttling')).map((c) => [c.id, c]));
  return campaignIds.flatMap((id) => found.get(id) ?? []);
}

/** Reads a campaign by id; strongly consistent, so a campaign is visible the moment it was created. */
export function getCampaign(deps: Deps, projectId: string, campaignId: string): Promise<Campaign | null> {
  return entities.campaign.get(deps, entities.campaign.key(projectId, campaignId));
}

export async function getCampaignIdByName(deps: Deps, projectId: string, name: string): Promise<string | null> {
  return (await entities.campaignName.get(deps, entities.campaignName.key(projectId, name)))?.campaignId ?? null;
}

export async function getCampaignIdByPromotionTier(deps: Deps, projectId: string, tierId: string): Promise<string | null> {
  return (await entities.promotionTierRef.get(deps, entities.promotionTierRef.key(projectId, tierId)))?.campaignId ?? null;
}

/**
 * Writes a new campaign, reserves its name, adds its list entry, counts it in the project's
 * campaign counter and points each promotion tier id at it, all in one transaction. The counter
 * gives the campaign its creation number and is conditioned on the count read, so concurrent
 * creations in one project are serialized (a loser re-reads and retries) and numbers never
 * repeat or skip. `createdAt` is raised to the counter's newest `createdAt` if the clock is
 * behind it, so creation number order and `created_at` order always agree.
 * @returns the campaign as written (its `createdAt` possibly raised), or null when the name is
 *   taken in the project (nothing is written).
 * `extra` items (a new category's) join the same transaction.
 * @throws ConflictRetryError when contention outlasts the retries; ExtraItemsConflictError when a
 *   condition of `extra` fails (nothing is written).
 */
export function insertCampaign(deps: Deps, campaign: Campaign, extra: readonly TransactItem[] = []): Promise<Campaign | null> {
  const p = campaign.projectId;
  return retryOnConflict(`Too many concurrent writes: campaign ${campaign.name}`, async () => {
    const counter = await getCampaignCounter(deps, p);
    const stamped = counter && counter.lastCreatedAt > campaign.createdAt ? { ...campaign, createdAt: counter.lastCreatedAt } : campaign;
    const sequence = (counter?.campaignCount ?? 0) + 1;
    const items: TransactItem[] = [
      entities.campaignName.putIfAbsent(deps, { campaignId: stamped.id }, p, stamped.name),
      {
        Put: {
          TableName: deps.tableName,
          Item: campaignCounterItem(p, { campaignCount: sequence, lastCreatedAt: stamped.createdAt }),
          ...(counter
            ? { ConditionExpression: 'campaignCount = :read', ExpressionAttributeValues: { ':read': counter.campaignCount } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        },
      },
      entities.campaign.putIfAbsent(deps, stamped),
      { Put: { TableName: deps.tableName, Item: listEntryItem(stamped, sequence) } },
      ...(stamped.promotionTiers ?? []).map((tier) => entities.promotionTierRef.putIfAbsent(deps, { campaignId: stamped.id }, p, tier.id)),
    ];
    const extraFrom = items.push(...extra) - extra.length;
    const outcome = await transact(deps, items);
    if (outcome.ok) return stamped;
    if ('failed' in outcome) {
      if (outcome.failed.includes(0)) return null;
      if (outcome.failed.some((index) => index >= extraFrom)) throw new ExtraItemsConflictError();
      if (outcome.failed.some((index) => index !== 1)) {
        throw new Error(`Campaign ${campaign.id} could not be written: an id is already taken`);
      }
    }
    return RETRY;
  });
}

/** Sets the creation and generation status of a campaign and of its list entry together. */
export async function setCampaignStatus(deps: Deps, campaign: Campaign, status: CampaignStatus): Promise<void> {
  const p = campaign.projectId;
  const set = (Key: ItemKey, expression: string): TransactItem => ({
    Update: {
      TableName: deps.tableName,
      Key,
      UpdateExpression: expression,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':s': status },
    },
  });
  const items = [
    set(entities.campaign.key(p, campaign.id), 'SET creationStatus = :s, vouchersGenerationStatus = :s'),
    set(entities.campaignListEntry.key(p, campaign.createdAt, campaign.id), 'SET creationStatus = :s'),
  ];
  const written = await retryOnConflict(`Too many concurrent writes: status of campaign ${campaign.id}`, async () => {
    const outcome = await transact(deps, items);
    return outcome.ok || 'failed' in outcome ? outcome.ok : RETRY;
  });
  if (!written) throw new Error(`Campaign ${campaign.id} vanished while its status was set`);
}
