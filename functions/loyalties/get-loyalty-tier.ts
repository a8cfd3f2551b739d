import { getLoyaltyTierRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toLoyaltyTierReply } from '../../lib/loyalties/tier.mapper.js';
import { tierParams } from '../../lib/loyalties/tier.schema.js';
import { getLoyaltyTier } from '../../lib/loyalties/tier.service.js';

export const schemas = { params: tierParams };

export const makeHandler = endpoint(getLoyaltyTierRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toLoyaltyTierReply(await getLoyaltyTier(runtime, principal.projectId, params.campaignId, params.loyaltyTierId))),
);

export const handler = makeHandler();
