import { generateRandomCodeRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toVoucherReply } from '../../lib/vouchers/voucher.mapper.js';
import { generateRandomCodeBody } from '../../lib/vouchers/voucher-create.schema.js';
import { generateRandomCode } from '../../lib/vouchers/voucher-create.service.js';

export const schemas = { body: generateRandomCodeBody };

export const makeHandler = endpoint(generateRandomCodeRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toVoucherReply(await generateRandomCode(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
