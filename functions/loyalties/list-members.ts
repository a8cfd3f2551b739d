import { listMembersRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { listMembers } from '../../lib/loyalties/loyalty-member.service.js';
import { listMembersQuery, programParams } from '../../lib/loyalties/loyalty.schema.js';
import { toVoucherListReply } from '../../lib/vouchers/voucher-list.mapper.js';

export const schemas = { params: programParams, query: listMembersQuery };

export const makeHandler = endpoint(listMembersRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toVoucherListReply(await listMembers(runtime, principal.projectId, params.campaignId, query))),
);

export const handler = makeHandler();
