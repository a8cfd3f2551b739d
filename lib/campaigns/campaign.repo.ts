import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import { queryAll } from '../db/query.js';
import { tableDesign } from '../db/table.js';
import { backoff, ExtraItemsConflictError, MAX_CONFLICT_ATTEMPTS, transact, type TransactItem } from '../db/transact.js';
import { ConflictRetryError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { Campaign, CampaignCounter, CampaignListEntry, CampaignStatus } from './campaign.js';

export type { CampaignCounter, CampaignListEntry } from './campaign.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const ENTITY = 'campaign';
const SCHEMA_VERSION = 1;

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

const entryToDomain = (item: Record<string, unknown>): CampaignListEntry => {
  const i = item as unknown as CampaignListEntry;
  return {
    id: i.id,
    name: i.name,
    campaignType: i.campaignType,
    type: i.type,
    voucherType: i.voucherType ?? null,
    creationStatus: i.creationStatus,
    isReferralCode: i.isReferralCode,
    categoryId: i.categoryId ?? null,
    categoryName: i.categoryName ?? null,
    active: i.active,
    startDate: i.startDate ?? null,
    expirationDate: i.expirationDate ?? null,
    validityDayOfWeek: i.validityDayOfWeek ?? null,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt ?? null,
    sequence: i.sequence,
  };
};

/**
 * The list entry item of a campaign, as insertCampaign writes it (exported so that bulk seeding
 * in tests and the benchmark writes the real layout).
 */
export const listEntryItem = (campaign: Campaign, sequence: number): Record<string, unknown> => ({
  ...keys.campaignListEntry(campaign.projectId, campaign.createdAt, campaign.id),
  ...keys.campaignBySequence(campaign.projectId, sequence),
  entity: 'campaign_list_entry',
  v: SCHEMA_VERSION,
  ...listEntryOf(campaign, sequence),
});

/** The campaign item itself, as insertCampaign writes it. */
export const campaignItem = (campaign: Campaign): Record<string, unknown> => ({
  ...keys.campaign(campaign.projectId, campaign.id),
  entity: ENTITY,
  v: SCHEMA_VERSION,
  ...campaign,
});

export const campaignCounterItem = (projectId: string, counter: CampaignCounter): Record<string, unknown> => ({
  ...keys.campaignCounter(projectId),
  entity: 'campaign_counter',
  v: SCHEMA_VERSION,
  campaignCount: counter.campaignCount,
  lastCreatedAt: counter.lastCreatedAt,
});

/** The project's campaign counter, read strongly consistently; null before its first campaign. */
export async function getCampaignCounter(deps: Deps, projectId: string): Promise<CampaignCounter | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.campaignCounter(projectId), ConsistentRead: true }),
  );
  if (!res.Item) return null;
  return { campaignCount: res.Item.campaignCount as number, lastCreatedAt: res.Item.lastCreatedAt as string };
}

/**
 * The ids of the campaigns numbered `from`..`to` (inclusive), in creation order or its reverse:
 * one Query of GSI1 over that key range, reading only those entries whatever the page number.
 * GSI1 is eventually consistent, so a campaign created a moment ago may be missing for a moment.
 */
export async function campaignIdsBySequence(
  deps: Deps,
  projectId: string,
  from: number,
  to: number,
  descending: boolean,
): Promise<string[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    IndexName: tableDesign.indexes.gsi1.name,
    KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': keys.campaignSequencePartition(projectId),
      ':from': keys.campaignSequenceSortKey(from),
      ':to': keys.campaignSequenceSortKey(to),
    },
    ProjectionExpression: 'id',
    ScanIndexForward: !descending,
  });
  return items.map((item) => item.id as string);
}

/**
 * Every list entry of a project, oldest first: Query pages over the project's compact entries
 * (about 300 bytes each, so 5,000 campaigns are two 1 MB pages), never a scan and never the
 * campaign items themselves. Only filtered or `updated_at`-ordered listings need this.
 */
export async function listCampaignEntries(deps: Deps, projectId: string): Promise<CampaignListEntry[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.campaignListPartition(projectId) },
  });
  return items.map(entryToDomain);
}

/** Campaigns by id (≤ 100), in the order asked; ids whose campaign is gone are left out. */
export async function getCampaigns(deps: Deps, projectId: string, campaignIds: string[]): Promise<Campaign[]> {
  const found = new Map<string, Campaign>();
  let pending: Record<string, unknown>[] = campaignIds.map((id) => ({ ...keys.campaign(projectId, id) }));
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt >= MAX_CONFLICT_ATTEMPTS) throw new ConflictRetryError('Campaigns could not be read: the table is throttling');
    const res = await deps.ddb.send(
      new BatchGetCommand({ RequestItems: { [deps.tableName]: { Keys: pending, ConsistentRead: true } } }),
    );
    for (const item of res.Responses?.[deps.tableName] ?? []) {
      const campaign = toDomain(item);
      found.set(campaign.id, campaign);
    }
    pending = res.UnprocessedKeys?.[deps.tableName]?.Keys ?? [];
    if (pending.length > 0) await backoff(attempt);
  }
  return campaignIds.flatMap((id) => found.get(id) ?? []);
}

const toDomain = (item: Record<string, unknown>): Campaign => {
  const { PK: _pk, SK: _sk, entity: _e, v: _v, ...rest } = item;
  return rest as unknown as Campaign;
};

/** Reads a campaign by id; strongly consistent, so a campaign is visible the moment it was created. */
export async function getCampaign(deps: Deps, projectId: string, campaignId: string): Promise<Campaign | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.campaign(projectId, campaignId), ConsistentRead: true }),
  );
  return res.Item ? toDomain(res.Item) : null;
}

export async function getCampaignIdByName(deps: Deps, projectId: string, name: string): Promise<string | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.campaignName(projectId, name), ConsistentRead: true }),
  );
  return res.Item ? (res.Item.campaignId as string) : null;
}

export async function getCampaignIdByPromotionTier(deps: Deps, projectId: string, tierId: string): Promise<string | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.promotionTier(projectId, tierId), ConsistentRead: true }),
  );
  return res.Item ? (res.Item.campaignId as string) : null;
}

async function writeWithRetry(deps: Deps, items: TransactItem[], what: string): Promise<number[]> {
  for (let attempt = 0; attempt < MAX_CONFLICT_ATTEMPTS; attempt += 1) {
    const outcome = await transact(deps, items);
    if (outcome.ok) return [];
    if ('failed' in outcome) return outcome.failed;
    await backoff(attempt);
  }
  throw new ConflictRetryError(`Too many concurrent writes: ${what}`);
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
export async function insertCampaign(deps: Deps, campaign: Campaign, extra: readonly TransactItem[] = []): Promise<Campaign | null> {
  const p = campaign.projectId;
  for (let attempt = 0; attempt < MAX_CONFLICT_ATTEMPTS; attempt += 1) {
    const counter = await getCampaignCounter(deps, p);
    const stamped = counter && counter.lastCreatedAt > campaign.createdAt ? { ...campaign, createdAt: counter.lastCreatedAt } : campaign;
    const sequence = (counter?.campaignCount ?? 0) + 1;
    const items: TransactItem[] = [
      {
        Put: {
          TableName: deps.tableName,
          Item: { ...keys.campaignName(p, stamped.name), entity: 'campaign_name', v: SCHEMA_VERSION, campaignId: stamped.id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: deps.tableName,
          Item: campaignCounterItem(p, { campaignCount: sequence, lastCreatedAt: stamped.createdAt }),
          ...(counter
            ? { ConditionExpression: 'campaignCount = :read', ExpressionAttributeValues: { ':read': counter.campaignCount } }
            : { ConditionExpression: 'attribute_not_exists(PK)' }),
        },
      },
      { Put: { TableName: deps.tableName, Item: campaignItem(stamped), ConditionExpression: 'attribute_not_exists(PK)' } },
      { Put: { TableName: deps.tableName, Item: listEntryItem(stamped, sequence) } },
      ...(stamped.promotionTiers ?? []).map(
        (tier): TransactItem => ({
          Put: {
            TableName: deps.tableName,
            Item: { ...keys.promotionTier(p, tier.id), entity: 'promotion_tier_ref', v: SCHEMA_VERSION, campaignId: stamped.id },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        }),
      ),
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
    await backoff(attempt);
  }
  throw new ConflictRetryError(`Too many concurrent writes: campaign ${campaign.name}`);
}

/** Sets the creation and generation status of a campaign and of its list entry together. */
export async function setCampaignStatus(deps: Deps, campaign: Campaign, status: CampaignStatus): Promise<void> {
  const p = campaign.projectId;
  const failed = await writeWithRetry(
    deps,
    [
      {
        Update: {
          TableName: deps.tableName,
          Key: keys.campaign(p, campaign.id),
          UpdateExpression: 'SET creationStatus = :s, vouchersGenerationStatus = :s',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':s': status },
        },
      },
      {
        Update: {
          TableName: deps.tableName,
          Key: keys.campaignListEntry(p, campaign.createdAt, campaign.id),
          UpdateExpression: 'SET creationStatus = :s',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':s': status },
        },
      },
    ],
    `status of campaign ${campaign.id}`,
  );
  if (failed.length > 0) throw new Error(`Campaign ${campaign.id} vanished while its status was set`);
}
