import { getMember1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { getMember } from '../../lib/loyalties/loyalty-member.service.js';
import { memberParams } from '../../lib/loyalties/loyalty.schema.js';
import { toVoucherReply } from '../../lib/vouchers/voucher.mapper.js';

export const schemas = { params: memberParams };

export const makeHandler = endpoint(getMember1Route, schemas, async ({ runtime, principal, params }) =>
  ok(toVoucherReply(await getMember(runtime, principal.projectId, params.campaignId, params.memberId))),
);

export const handler = makeHandler();
