import { releaseValidationSessionRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { releaseValidationSessionParams } from '../../lib/redemptions/session.schema.js';
import { releaseValidationSession } from '../../lib/redemptions/session.service.js';

export const schemas = { params: releaseValidationSessionParams };

export const makeHandler = endpoint(releaseValidationSessionRoute, schemas, async ({ runtime, principal, params }) => {
  await releaseValidationSession(runtime, principal.projectId, params.code, params.sessionKey);
  return noContent();
});

export const handler = makeHandler();
