import { listMemberLoyaltyTierRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toMemberTierListReply } from '../../lib/loyalties/tier.mapper.js';
import { tierMemberParams } from '../../lib/loyalties/tier.schema.js';
import { listMemberLoyaltyTier } from '../../lib/loyalties/tier.service.js';

export const schemas = { params: tierMemberParams };

export const makeHandler = endpoint(listMemberLoyaltyTierRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toMemberTierListReply(await listMemberLoyaltyTier(runtime, principal.projectId, params.memberId))),
);

export const handler = makeHandler();
