import { listEarningRulesRoute } from '../../lib/api/routes.js';
import { toEarningRuleListReply } from '../../lib/earning-rules/earning-rule.mapper.js';
import { campaignParams, listEarningRulesQuery } from '../../lib/earning-rules/earning-rule.schema.js';
import { listEarningRules } from '../../lib/earning-rules/earning-rule.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: campaignParams, query: listEarningRulesQuery };

export const makeHandler = endpoint(listEarningRulesRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toEarningRuleListReply(await listEarningRules(runtime, principal.projectId, params.campaignId, query))),
);

export const handler = makeHandler();
