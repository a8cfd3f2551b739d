import type { Campaign, PromotionTier } from '../campaigns/campaign.js';
import { tierReply, toCampaignReply } from '../campaigns/campaign.mapper.js';
import type { CampaignTemplate } from './campaign-template.js';
import type { CampaignSetupReply, CampaignTemplateListReply, CampaignTemplateReply, PromotionTierSetupReply } from './campaign-template.reply.js';

/** The campaign template object of the spec. */
export const toCampaignTemplateReply = (t: CampaignTemplate): CampaignTemplateReply => ({
  id: t.id,
  name: t.name,
  ...(t.description !== null ? { description: t.description } : {}),
  campaign_type: t.campaignType,
  created_at: t.createdAt,
  ...(t.updatedAt ? { updated_at: t.updatedAt } : {}),
  object: 'campaign_template',
});

/** GET /v1/templates/campaigns reply. */
export function toCampaignTemplateListReply(page: { templates: CampaignTemplate[]; hasMore: boolean; total: number | null }): CampaignTemplateListReply {
  const last = page.templates.at(-1);
  return {
    object: 'list',
    data_ref: 'data',
    data: page.templates.map(toCampaignTemplateReply),
    ...(page.total !== null ? { total: page.total } : {}),
    has_more: page.hasMore,
    ...(page.hasMore && last ? { more_starting_after: last.id } : {}),
  };
}

/** The campaign-setup reply: the new campaign; no other resources are made. */
export const toCampaignSetupReply = (campaign: Campaign): CampaignSetupReply => ({
  created_resources: [],
  campaign: toCampaignReply(campaign),
  object: 'campaign_setup',
});

/** The tier-setup reply: the new tier within its campaign; no other resources are made. */
export const toPromotionTierSetupReply = (made: { campaign: Campaign; tier: PromotionTier }): PromotionTierSetupReply => ({
  created_resources: [],
  promotion_tier: tierReply(made.campaign, made.tier),
  object: 'promotion_tier_setup',
});
