import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import { backoff, MAX_CONFLICT_ATTEMPTS, transact, type TransactItem } from '../db/transact.js';
import { ConflictRetryError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { Campaign, CampaignStatus } from './campaign.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const ENTITY = 'campaign';
const SCHEMA_VERSION = 1;

/** The fields of a campaign that listing filters and orders by, kept in its compact list entry. */
export interface CampaignListEntry {
  id: string;
  name: string;
  campaignType: Campaign['campaignType'];
  type: Campaign['type'];
  voucherType: string | null;
  creationStatus: CampaignStatus;
  isReferralCode: boolean;
  categoryId: string | null;
  categoryName: string | null;
  active: boolean;
  startDate: string | null;
  expirationDate: string | null;
  validityDayOfWeek: number[] | null;
  createdAt: string;
  updatedAt: string | null;
}

export const listEntryOf = (c: Campaign): CampaignListEntry => ({
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
  };
};

/**
 * Every list entry of a project, oldest first: one Query over the project's compact entries
 * (about 300 bytes each, so 5,000 campaigns are two 1 MB pages), never a scan and never the
 * campaign items themselves.
 */
export async function listCampaignEntries(deps: Deps, projectId: string): Promise<CampaignListEntry[]> {
  const out: CampaignListEntry[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.campaignListPartition(projectId) },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) out.push(entryToDomain(item));
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
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
 * Writes a new campaign, reserves its name, adds its list entry and points each promotion tier
 * id at it, all in one transaction.
 * @returns false when the name is taken in the project (nothing is written).
 */
export async function insertCampaign(deps: Deps, campaign: Campaign): Promise<boolean> {
  const p = campaign.projectId;
  const items: TransactItem[] = [
    {
      Put: {
        TableName: deps.tableName,
        Item: { ...keys.campaignName(p, campaign.name), entity: 'campaign_name', v: SCHEMA_VERSION, campaignId: campaign.id },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: deps.tableName,
        Item: { ...keys.campaign(p, campaign.id), entity: ENTITY, v: SCHEMA_VERSION, ...campaign },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: deps.tableName,
        Item: { ...keys.campaignListEntry(p, campaign.createdAt, campaign.id), entity: 'campaign_list_entry', v: SCHEMA_VERSION, ...listEntryOf(campaign) },
      },
    },
    ...(campaign.promotionTiers ?? []).map(
      (tier): TransactItem => ({
        Put: {
          TableName: deps.tableName,
          Item: { ...keys.promotionTier(p, tier.id), entity: 'promotion_tier_ref', v: SCHEMA_VERSION, campaignId: campaign.id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      }),
    ),
  ];
  const failed = await writeWithRetry(deps, items, `campaign ${campaign.name}`);
  if (failed.includes(0)) return false;
  if (failed.length > 0) throw new Error(`Campaign ${campaign.id} could not be written: an id is already taken`);
  return true;
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
