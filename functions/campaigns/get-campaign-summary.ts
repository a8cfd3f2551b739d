import { getCampaignSummaryRoute } from '../../lib/api/routes.js';
import { toCampaignSummaryReply } from '../../lib/campaigns/campaign-summary.mapper.js';
import { getCampaignSummaryQuery } from '../../lib/campaigns/campaign-summary.schema.js';
import { getCampaignSummary } from '../../lib/campaigns/campaign-summary.service.js';
import { campaignParams } from '../../lib/campaigns/campaign-params.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: campaignParams, query: getCampaignSummaryQuery };

export const makeHandler = endpoint(getCampaignSummaryRoute, schemas, async ({ runtime, principal, params, query }) => {
  const { campaign, totals } = await getCampaignSummary(runtime, principal.projectId, params.campaignId, query);
  return ok(toCampaignSummaryReply(campaign, totals));
});

export const handler = makeHandler();
