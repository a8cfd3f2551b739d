import { transferPointsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';
import { memberParams, transferPointsBody } from '../../lib/loyalties/loyalty.schema.js';
import { transferPoints } from '../../lib/loyalties/points-transfer.service.js';
import { toVoucherReply } from '../../lib/vouchers/voucher.mapper.js';

export const schemas = { params: memberParams, body: transferPointsBody };

export const makeHandler = endpoint(transferPointsRoute, schemas, async ({ runtime, principal, params, body, idempotency }) =>
  okCommitted(await transferPoints(runtime, principal.projectId, params.campaignId, params.memberId, body, idempotency), toVoucherReply),
);

export const handler = makeHandler();
