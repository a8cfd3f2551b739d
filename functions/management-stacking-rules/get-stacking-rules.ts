import { getStackingRulesRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toManagementStackingRulesReply } from '../../lib/management-stacking-rules/stacking-rules.mapper.js';
import { stackingRulesParams } from '../../lib/management-stacking-rules/stacking-rules.schema.js';
import { getStackingRules } from '../../lib/management-stacking-rules/stacking-rules.service.js';

export const schemas = { params: stackingRulesParams };

export const makeHandler = managementEndpoint(getStackingRulesRoute, schemas, async ({ runtime, params }) =>
  ok(toManagementStackingRulesReply(await getStackingRules(runtime, params.projectId, params.stackingRulesId))),
);

export const handler = makeHandler();
