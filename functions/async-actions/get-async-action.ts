import { getAsyncActionRoute } from '../../lib/api/routes.js';
import { toAsyncActionReply } from '../../lib/async-actions/async-action.mapper.js';
import { asyncActionParams } from '../../lib/async-actions/async-action.schema.js';
import { getAsyncAction } from '../../lib/async-actions/async-action.service.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: asyncActionParams };

export const makeHandler = endpoint(getAsyncActionRoute, schemas, async ({ runtime, principal, params }) =>
  ok(toAsyncActionReply(await getAsyncAction(runtime, principal.projectId, params.asyncActionId))),
);

export const handler = makeHandler();
