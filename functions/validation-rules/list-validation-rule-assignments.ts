import { listValidationRuleAssignmentsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toAssignmentListReply } from '../../lib/validation-rules/validation-rule.mapper.js';
import { listRuleAssignmentsQuery, validationRuleParams } from '../../lib/validation-rules/validation-rule.schema.js';
import { listValidationRuleAssignments } from '../../lib/validation-rules/validation-rule.service.js';

export const schemas = { params: validationRuleParams, query: listRuleAssignmentsQuery };

export const makeHandler = endpoint(listValidationRuleAssignmentsRoute, schemas, async ({ runtime, principal, params, query }) => {
  const { assignments, total } = await listValidationRuleAssignments(runtime, principal.projectId, params.validationRuleId, query);
  return ok(toAssignmentListReply(assignments, total));
});

export const handler = makeHandler();
