import { createCampaignRoute } from '../../infra/routes.js';
import { toCampaignReply } from '../../lib/campaigns/campaign.mapper.js';
import { createCampaignBody } from '../../lib/campaigns/campaign.schema.js';
import { createCampaign } from '../../lib/campaigns/campaign.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { body: createCampaignBody };

export const makeHandler = endpoint(createCampaignRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toCampaignReply(await createCampaign(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
