import { toActivityListReply } from '../../lib/activity/activity.mapper.js';
import { memberActivityQuery } from '../../lib/activity/activity.schema.js';
import { listMemberActivityRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { cardParams } from '../../lib/loyalties/loyalty.schema.js';
import { listMemberActivity } from '../../lib/loyalties/member-activity.service.js';

export const schemas = { params: cardParams, query: memberActivityQuery };

export const makeHandler = endpoint(listMemberActivityRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toActivityListReply(await listMemberActivity(runtime, principal.projectId, null, params.memberId, query))),
);

export const handler = makeHandler();
