import { getProjectStackingRulesRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { getProjectStackingRules } from '../../lib/validations/stacking-rules.service.js';
import { toProjectStackingRulesReply } from '../../lib/validations/validation.mapper.js';

export const schemas = {};

export const makeHandler = endpoint(getProjectStackingRulesRoute, schemas, async ({ runtime, principal }) =>
  ok(toProjectStackingRulesReply(await getProjectStackingRules(runtime, principal.projectId))),
);

export const handler = makeHandler();
