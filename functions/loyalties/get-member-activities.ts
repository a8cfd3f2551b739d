import { toActivityListReply } from '../../lib/activity/activity.mapper.js';
import { memberActivityQuery } from '../../lib/activity/activity.schema.js';
import { getMemberActivitiesRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { cardParams } from '../../lib/loyalties/loyalty.schema.js';
import { getMemberActivities } from '../../lib/loyalties/member-activity.service.js';

export const schemas = { params: cardParams, query: memberActivityQuery };

export const makeHandler = endpoint(getMemberActivitiesRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toActivityListReply(await getMemberActivities(runtime, principal.projectId, null, params.memberId, query))),
);

export const handler = makeHandler();
