import { listValidationRulesRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toValidationRuleListReply } from '../../lib/validation-rules/validation-rule.mapper.js';
import { listValidationRulesQuery } from '../../lib/validation-rules/validation-rule.schema.js';
import { listValidationRules } from '../../lib/validation-rules/validation-rule.service.js';

export const schemas = { query: listValidationRulesQuery };

export const makeHandler = endpoint(listValidationRulesRoute, schemas, async ({ runtime, principal, query }) => {
  const { rules, total } = await listValidationRules(runtime, principal.projectId, query);
  return ok(toValidationRuleListReply(rules, total));
});

export const handler = makeHandler();
