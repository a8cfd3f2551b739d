import type * as z from '../zod.js';
import { tierReply } from './campaign.mapper.js';
import type { promotionTierListReplySchema } from './promotion-tier.reply.js';
import type { TierInCampaign } from './promotion-tier.service.js';

/** A list of tiers; `total` counts every match (all pages), `has_more` whether pages follow this one. */
export const toPromotionTierListReply = (tiers: TierInCampaign[], total: number, hasMore: boolean): z.input<typeof promotionTierListReplySchema> => ({
  object: 'list',
  data_ref: 'tiers',
  tiers: tiers.map(({ campaign, tier }) => tierReply(campaign, tier)),
  total,
  has_more: hasMore,
});
