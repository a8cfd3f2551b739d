import { listValidationRulesAssignmentsRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toAssignmentListReply } from '../../lib/validation-rules/validation-rule.mapper.js';
import { listAssignmentsQuery } from '../../lib/validation-rules/validation-rule.schema.js';
import { listValidationRulesAssignments } from '../../lib/validation-rules/validation-rule.service.js';

export const schemas = { query: listAssignmentsQuery };

export const makeHandler = endpoint(listValidationRulesAssignmentsRoute, schemas, async ({ runtime, principal, query }) => {
  const { assignments, total } = await listValidationRulesAssignments(runtime, principal.projectId, query);
  return ok(toAssignmentListReply(assignments, total));
});

export const handler = makeHandler();
