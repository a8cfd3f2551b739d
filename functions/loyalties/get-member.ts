import { getMemberRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { getMember } from '../../lib/loyalties/loyalty-member.service.js';
import { cardParams } from '../../lib/loyalties/loyalty.schema.js';
import { toVoucherReply } from '../../lib/vouchers/voucher.mapper.js';

export const schemas = { params: cardParams };

export const makeHandler = endpoint(getMemberRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toVoucherReply(await getMember(runtime, principal.projectId, null, params.memberId))),
);

export const handler = makeHandler();
