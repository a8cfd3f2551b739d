import { createValidationRuleAssignmentRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toAssignmentReply } from '../../lib/validation-rules/validation-rule.mapper.js';
import { createAssignmentBody, createAssignmentQuery, validationRuleParams } from '../../lib/validation-rules/validation-rule.schema.js';
import { createValidationRuleAssignment } from '../../lib/validation-rules/validation-rule.service.js';

export const schemas = { params: validationRuleParams, query: createAssignmentQuery, body: createAssignmentBody };

export const makeHandler = endpoint(createValidationRuleAssignmentRoute, schemas, async ({ runtime, principal, params, body }) =>
  ok(toAssignmentReply(await createValidationRuleAssignment(runtime, principal.projectId, params.validationRuleId, body))),
);

export const handler = makeHandler();
