import { deleteEarningRuleRoute } from '../../lib/api/routes.js';
import { earningRuleParams } from '../../lib/earning-rules/earning-rule.schema.js';
import { deleteEarningRule } from '../../lib/earning-rules/earning-rule.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';

export const schemas = { params: earningRuleParams };

export const makeHandler = endpoint(deleteEarningRuleRoute, schemas, async ({ runtime, principal, params }) => {
  await deleteEarningRule(runtime, principal.projectId, params.campaignId, params.earningRuleId);
  return noContent();
});

export const handler = makeHandler();
