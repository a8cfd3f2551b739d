import { createEarningRuleRoute } from '../../lib/api/routes.js';
import { toEarningRuleReply } from '../../lib/earning-rules/earning-rule.mapper.js';
import { campaignParams, createEarningRulesBody } from '../../lib/earning-rules/earning-rule.schema.js';
import { createEarningRule } from '../../lib/earning-rules/earning-rule.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { okCommitted } from '../../lib/http/reply.js';

export const schemas = { params: campaignParams, body: createEarningRulesBody };

export const makeHandler = endpoint(createEarningRuleRoute, schemas, async ({ runtime, principal, params, body, idempotency }) =>
  okCommitted(await createEarningRule(runtime, principal.projectId, params.campaignId, body, idempotency), (rules) => rules.map(toEarningRuleReply)),
);

export const handler = makeHandler();
