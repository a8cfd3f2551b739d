import { createStackingRulesRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toManagementStackingRulesReply } from '../../lib/management-stacking-rules/stacking-rules.mapper.js';
import { createStackingRulesBody, stackingRulesListParams } from '../../lib/management-stacking-rules/stacking-rules.schema.js';
import { createStackingRules } from '../../lib/management-stacking-rules/stacking-rules.service.js';

export const schemas = { params: stackingRulesListParams, body: createStackingRulesBody };

export const makeHandler = managementEndpoint(createStackingRulesRoute, schemas, async ({ runtime, params, body }) =>
  ok(toManagementStackingRulesReply(await createStackingRules(runtime, params.projectId, body))),
);

export const handler = makeHandler();
