import { disableEarningRuleRoute } from '../../lib/api/routes.js';
import { toEarningRuleReply } from '../../lib/earning-rules/earning-rule.mapper.js';
import { earningRuleParams } from '../../lib/earning-rules/earning-rule.schema.js';
import { disableEarningRule } from '../../lib/earning-rules/earning-rule.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: earningRuleParams };

export const makeHandler = endpoint(disableEarningRuleRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toEarningRuleReply(await disableEarningRule(runtime, principal.projectId, params.campaignId, params.earningRuleId))),
);

export const handler = makeHandler();
