import { toActivitiesListReply } from '../../lib/activity/activity.mapper.js';
import { customerActivitiesQuery } from '../../lib/activity/activity.schema.js';
import { listCustomerActivitiesRoute } from '../../lib/api/routes.js';
import { listCustomerActivities } from '../../lib/customers/customer-activity.service.js';
import { customerParams } from '../../lib/customers/customer.schema.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';

export const schemas = { params: customerParams, query: customerActivitiesQuery };

export const makeHandler = endpoint(listCustomerActivitiesRoute, schemas, async ({ runtime, principal, params, query }) =>
  ok(toActivitiesListReply(await listCustomerActivities(runtime, principal.projectId, params.customerId, query))),
);

export const handler = makeHandler();
