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
