import { referralsCodeHoldersRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toHolderListReply } from '../../lib/referrals/redeemable-holder.mapper.js';
import { listReferralHoldersQuery, referralCampaignMemberParams } from '../../lib/referrals/redeemable-holder.schema.js';
import { referralsCodeHolders } from '../../lib/referrals/redeemable-holder.service.js';

export const schemas = { params: referralCampaignMemberParams, query: listReferralHoldersQuery };

export const makeHandler = endpoint(referralsCodeHoldersRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toHolderListReply(await referralsCodeHolders(runtime, principal.projectId, params.campaignId, params.memberId, query))),
);

export const handler = makeHandler();
