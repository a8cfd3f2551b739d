import { deleteStackingRulesRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { stackingRulesParams } from '../../lib/management-stacking-rules/stacking-rules.schema.js';
import { deleteStackingRules } from '../../lib/management-stacking-rules/stacking-rules.service.js';

export const schemas = { params: stackingRulesParams };

export const makeHandler = managementEndpoint(deleteStackingRulesRoute, schemas, async ({ runtime, params }) => {
  await deleteStackingRules(runtime, params.projectId, params.stackingRulesId);
  return noContent();
});

export const handler = makeHandler();
