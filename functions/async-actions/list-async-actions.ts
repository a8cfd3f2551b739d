import { listAsyncActionsRoute } from '../../lib/api/routes.js';
import { toAsyncActionListReply } from '../../lib/async-actions/async-action.mapper.js';
import { listAsyncActionsQuery } from '../../lib/async-actions/async-action.schema.js';
import { listAsyncActions } from '../../lib/async-actions/async-action.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { query: listAsyncActionsQuery };

export const makeHandler = endpoint(listAsyncActionsRoute, schemas, async ({ runtime, principal, query }) =>
  ok(toAsyncActionListReply(await listAsyncActions(runtime, principal.projectId, query))),
);

export const handler = makeHandler();
