import { deleteValidationRulesRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { validationRuleParams } from '../../lib/validation-rules/validation-rule.schema.js';
import { deleteValidationRules } from '../../lib/validation-rules/validation-rule.service.js';

export const schemas = { params: validationRuleParams };

export const makeHandler = endpoint(deleteValidationRulesRoute, schemas, async ({ runtime, principal, params }) => {
  await deleteValidationRules(runtime, principal.projectId, params.validationRuleId);
  return noContent();
});

export const handler = makeHandler();
