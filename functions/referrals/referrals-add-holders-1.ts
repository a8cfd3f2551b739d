import { referralsAddHolders1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toHoldersAddedReply } from '../../lib/referrals/redeemable-holder.mapper.js';
import { addReferralHoldersBody, referralCampaignMemberParams } from '../../lib/referrals/redeemable-holder.schema.js';
import { referralsAddHolders } from '../../lib/referrals/redeemable-holder.service.js';

export const schemas = { params: referralCampaignMemberParams, body: addReferralHoldersBody };

export const makeHandler = endpoint(referralsAddHolders1Route, schemas, async ({ runtime, principal, params, body }) =>
  ok(toHoldersAddedReply(await referralsAddHolders(runtime, principal.projectId, params.campaignId, params.memberId, body))),
);

export const handler = makeHandler();
