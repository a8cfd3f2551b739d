import { deleteValidationRuleAssignmentRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { validationRuleAssignmentParams } from '../../lib/validation-rules/validation-rule.schema.js';
import { deleteValidationRuleAssignment } from '../../lib/validation-rules/validation-rule.service.js';

export const schemas = { params: validationRuleAssignmentParams };

export const makeHandler = endpoint(deleteValidationRuleAssignmentRoute, schemas, async ({ runtime, principal, params }) => {
  await deleteValidationRuleAssignment(runtime, principal.projectId, params.validationRuleId, params.assignmentId);
  return noContent();
});

export const handler = makeHandler();
