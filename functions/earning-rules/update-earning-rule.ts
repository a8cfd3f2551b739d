import { updateEarningRuleRoute } from '../../lib/api/routes.js';
import { toEarningRuleReply } from '../../lib/earning-rules/earning-rule.mapper.js';
import { earningRuleParams, updateEarningRuleBody } from '../../lib/earning-rules/earning-rule.schema.js';
import { updateEarningRule } from '../../lib/earning-rules/earning-rule.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: earningRuleParams, body: updateEarningRuleBody };

export const makeHandler = endpoint(updateEarningRuleRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toEarningRuleReply(await updateEarningRule(runtime, principal.projectId, params.campaignId, params.earningRuleId, body))),
);

export const handler = makeHandler();
