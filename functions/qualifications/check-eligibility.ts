import { checkEligibilityRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toQualificationReply } from '../../lib/qualifications/qualification.mapper.js';
import { checkEligibilityBody } from '../../lib/qualifications/qualification.schema.js';
import { checkEligibility } from '../../lib/qualifications/qualification.service.js';

export const schemas = { body: checkEligibilityBody };

export const makeHandler = endpoint(checkEligibilityRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toQualificationReply(await checkEligibility(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
