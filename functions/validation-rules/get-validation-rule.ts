import { getValidationRuleRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toValidationRuleReply } from '../../lib/validation-rules/validation-rule.mapper.js';
import { validationRuleParams } from '../../lib/validation-rules/validation-rule.schema.js';
import { getValidationRule } from '../../lib/validation-rules/validation-rule.service.js';

export const schemas = { params: validationRuleParams };

export const makeHandler = endpoint(getValidationRuleRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toValidationRuleReply(await getValidationRule(runtime, principal.projectId, params.validationRuleId))),
);

export const handler = makeHandler();
