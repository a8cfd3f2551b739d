import { checkEligibilityClientSideRoute } from '../../lib/api/routes.js';
import { clientEndpoint } from '../../lib/http/client-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toQualificationReply } from '../../lib/qualifications/qualification.mapper.js';
import { checkEligibilityBody } from '../../lib/qualifications/qualification.schema.js';
import { checkEligibilityClientSide } from '../../lib/qualifications/client-side.service.js';

export const schemas = { body: checkEligibilityBody };

export const makeHandler = clientEndpoint(checkEligibilityClientSideRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toQualificationReply(await checkEligibilityClientSide(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
