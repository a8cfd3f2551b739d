import { toActivityListReply } from '../../lib/activity/activity.mapper.js';
import { memberActivityQuery } from '../../lib/activity/activity.schema.js';
import { getMemberActivities1Route } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { memberParams } from '../../lib/loyalties/loyalty.schema.js';
import { getMemberActivities } from '../../lib/loyalties/member-activity.service.js';

export const schemas = { params: memberParams, query: memberActivityQuery };

export const makeHandler = endpoint(getMemberActivities1Route, schemas, async ({ runtime, principal, params, query }) =>
  ok(toActivityListReply(await getMemberActivities(runtime, principal.projectId, params.campaignId, params.memberId, query))),
);

export const handler = makeHandler();
