import { referralsCodeHolders1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toHolderListReply } from '../../lib/referrals/redeemable-holder.mapper.js';
import { listReferralHoldersQuery, referralMemberParams } from '../../lib/referrals/redeemable-holder.schema.js';
import { referralsCodeHolders } from '../../lib/referrals/redeemable-holder.service.js';

export const schemas = { params: referralMemberParams, query: listReferralHoldersQuery };

export const makeHandler = endpoint(referralsCodeHolders1Route, schemas, async ({ runtime, principal, params, query }) =>
  ok(toHolderListReply(await referralsCodeHolders(runtime, principal.projectId, null, params.memberId, query))),
);

export const handler = makeHandler();
