import { updateProjectStackingRulesRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { updateProjectStackingRulesBody } from '../../lib/validations/stacking-rules.schema.js';
import { updateProjectStackingRules } from '../../lib/validations/stacking-rules.service.js';
import { toProjectStackingRulesReply } from '../../lib/validations/validation.mapper.js';

export const schemas = { body: updateProjectStackingRulesBody };

export const makeHandler = endpoint(updateProjectStackingRulesRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toProjectStackingRulesReply(await updateProjectStackingRules(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
