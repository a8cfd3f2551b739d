import { updateStackingRulesRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toManagementStackingRulesReply } from '../../lib/management-stacking-rules/stacking-rules.mapper.js';
import { stackingRulesParams, updateStackingRulesBody } from '../../lib/management-stacking-rules/stacking-rules.schema.js';
import { updateStackingRules } from '../../lib/management-stacking-rules/stacking-rules.service.js';

export const schemas = { params: stackingRulesParams, body: updateStackingRulesBody };

export const makeHandler = managementEndpoint(updateStackingRulesRoute, schemas, async ({ runtime, params, body }) =>
  ok(toManagementStackingRulesReply(await updateStackingRules(runtime, params.projectId, params.stackingRulesId, body))),
);

export const handler = makeHandler();
