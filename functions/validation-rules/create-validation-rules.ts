import { createValidationRulesRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toValidationRuleReply } from '../../lib/validation-rules/validation-rule.mapper.js';
import { createValidationRuleBody } from '../../lib/validation-rules/validation-rule.schema.js';
import { createValidationRules } from '../../lib/validation-rules/validation-rule.service.js';

export const schemas = { body: createValidationRuleBody };

export const makeHandler = endpoint(createValidationRulesRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toValidationRuleReply(await createValidationRules(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
