import { referralsRemoveHolderRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { referralHolderParams } from '../../lib/referrals/redeemable-holder.schema.js';
import { referralsRemoveHolder } from '../../lib/referrals/redeemable-holder.service.js';

export const schemas = { params: referralHolderParams };

export const makeHandler = endpoint(referralsRemoveHolderRoute, schemas, async ({ runtime, principal, params }) => {
  await referralsRemoveHolder(runtime, principal.projectId, null, params.memberId, params.holderId);
  return noContent();
});

export const handler = makeHandler();
