import * as entities from '../db/entities.js';
import { RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Campaign, PromotionTier } from './campaign.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Appends `tier` to the promotion `read` (tiers live inside the campaign item) and points the tier
 * id at the campaign, in one transaction. The append holds only while the campaign still has the
 * tiers it was read with (their count), so of concurrent additions each lands once, on the list
 * its caller saw; the loser re-reads and tries again.
 * @returns 'ok'; 'changed' when the campaign's tiers changed or it went since it was read (nothing is written).
 */
export async function appendPromotionTier(deps: Deps, read: Campaign, tier: PromotionTier): Promise<'ok' | 'changed'> {
  const items: TransactItem[] = [
    {
      Update: {
        TableName: deps.tableName,
        Key: entities.campaign.key(read.projectId, read.id),
        UpdateExpression: 'SET promotionTiers = list_append(promotionTiers, :tier)',
        ConditionExpression: 'attribute_exists(PK) AND size(promotionTiers) = :count',
        ExpressionAttributeValues: { ':tier': [tier], ':count': read.promotionTiers?.length ?? 0 },
      },
    },
    entities.promotionTierRef.putIfAbsent(deps, { campaignId: read.id }, read.projectId, tier.id),
  ];
  return retryOnConflict(`Too many concurrent writes: tiers of campaign ${read.id}`, async () => {
    const outcome = await transact(deps, items);
    if (outcome.ok) return 'ok';
    if (!('failed' in outcome)) return RETRY;
    if (outcome.failed.includes(0)) return 'changed';
    throw new Error(`Promotion tier id ${tier.id} is already taken`);
  });
}

/**
 * The Update of the campaign item that changes the tier at `index` with `expression`, holding only
 * while that tier is still as read (its id and last change) and the campaign has as many tiers.
 */
function tierUpdate(deps: Deps, campaign: Campaign, index: number, read: PromotionTier, expression: string, values: Record<string, unknown>): TransactItem {
  const unchanged = read.updatedAt === null ? `attribute_type(#tiers[${index}].updatedAt, :null)` : `#tiers[${index}].updatedAt = :updatedAt`;
  return {
    Update: {
      TableName: deps.tableName,
      Key: entities.campaign.key(campaign.projectId, campaign.id),
      UpdateExpression: expression,
      ConditionExpression: `attribute_exists(PK) AND size(#tiers) = :count AND #tiers[${index}].id = :id AND ${unchanged}`,
      ExpressionAttributeNames: { '#tiers': 'promotionTiers' },
      ExpressionAttributeValues: {
        ...values,
        ':count': campaign.promotionTiers?.length ?? 0,
        ':id': read.id,
        ...(read.updatedAt === null ? { ':null': 'NULL' } : { ':updatedAt': read.updatedAt }),
      },
    },
  };
}

/**
 * Replaces the tier at `index` of the promotion `campaign` (as read) with `next`, while that tier
 * and the number of tiers are as read: of two concurrent changes of one tier the second re-reads.
 * @returns 'ok'; 'changed' when the campaign or the tier changed or went since it was read (nothing is written).
 */
export async function replacePromotionTier(deps: Deps, campaign: Campaign, index: number, next: PromotionTier): Promise<'ok' | 'changed'> {
  const read = campaign.promotionTiers?.[index];
  if (!read) return 'changed';
  const outcome = await transact(deps, [tierUpdate(deps, campaign, index, read, `SET #tiers[${index}] = :tier`, { ':tier': next })]);
  return outcome.ok ? 'ok' : 'changed';
}

/**
 * Removes the tier at `index` of the promotion `campaign` (as read) and its id's pointer, in one
 * transaction, while the tiers are as read.
 * @returns 'ok'; 'changed' when the campaign or the tier changed or went since it was read (nothing is written).
 */
export async function removePromotionTier(deps: Deps, campaign: Campaign, index: number): Promise<'ok' | 'changed'> {
  const read = campaign.promotionTiers?.[index];
  if (!read) return 'changed';
  const outcome = await transact(deps, [
    tierUpdate(deps, campaign, index, read, `REMOVE #tiers[${index}]`, {}),
    { Delete: { TableName: deps.tableName, Key: entities.promotionTierRef.key(campaign.projectId, read.id) } },
  ]);
  return outcome.ok ? 'ok' : 'changed';
}
