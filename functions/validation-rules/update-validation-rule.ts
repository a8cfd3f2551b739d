import { updateValidationRuleRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toValidationRuleReply } from '../../lib/validation-rules/validation-rule.mapper.js';
import { updateValidationRuleBody, validationRuleParams } from '../../lib/validation-rules/validation-rule.schema.js';
import { updateValidationRule } from '../../lib/validation-rules/validation-rule.service.js';

export const schemas = { params: validationRuleParams, body: updateValidationRuleBody };

export const makeHandler = endpoint(updateValidationRuleRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toValidationRuleReply(await updateValidationRule(runtime, principal.projectId, params.validationRuleId, body))),
);

export const handler = makeHandler();
