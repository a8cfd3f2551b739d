import { listStackingRulesRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toManagementStackingRulesListReply } from '../../lib/management-stacking-rules/stacking-rules.mapper.js';
import { stackingRulesListParams } from '../../lib/management-stacking-rules/stacking-rules.schema.js';
import { listStackingRules } from '../../lib/management-stacking-rules/stacking-rules.service.js';

export const schemas = { params: stackingRulesListParams };

export const makeHandler = managementEndpoint(listStackingRulesRoute, schemas, async ({ runtime, params }) =>
  ok(toManagementStackingRulesListReply(await listStackingRules(runtime, params.projectId))),
);

export const handler = makeHandler();
