import type { CampaignTemplate } from './campaign-template.js';
import type { CampaignTemplateReply } from './campaign-template.reply.js';

/** The campaign template object of the spec. */
export const toCampaignTemplateReply = (t: CampaignTemplate): CampaignTemplateReply => ({
  id: t.id,
  name: t.name,
  ...(t.description !== null ? { description: t.description } : {}),
  campaign_type: t.campaignType,
  created_at: t.createdAt,
  object: 'campaign_template',
});
