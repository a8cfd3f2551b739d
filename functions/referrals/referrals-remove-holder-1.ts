import { referralsRemoveHolder1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { referralCampaignHolderParams } from '../../lib/referrals/redeemable-holder.schema.js';
import { referralsRemoveHolder } from '../../lib/referrals/redeemable-holder.service.js';

export const schemas = { params: referralCampaignHolderParams };

export const makeHandler = endpoint(referralsRemoveHolder1Route, schemas, async ({ runtime, principal, params }) => {
  await referralsRemoveHolder(runtime, principal.projectId, params.campaignId, params.memberId, params.holderId);
  return noContent();
});

export const handler = makeHandler();
