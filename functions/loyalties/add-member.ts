import { addMemberRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { addMember } from '../../lib/loyalties/loyalty-member.service.js';
import { addMemberBody, programParams } from '../../lib/loyalties/loyalty.schema.js';
import { toVoucherReply } from '../../lib/vouchers/voucher.mapper.js';

export const schemas = { params: programParams, body: addMemberBody };

export const makeHandler = endpoint(addMemberRoute, schemas, async ({ runtime, principal, params, body, idempotency }) =>
  okCommitted(await addMember(runtime, principal.projectId, params.campaignId, body, idempotency), toVoucherReply),
);

export const handler = makeHandler();
