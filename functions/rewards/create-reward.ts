import { createRewardRoute } from '../../lib/api/routes.js';
import { endpoint } from '../../lib/http/endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toRewardReply } from '../../lib/rewards/reward.mapper.js';
import { createRewardBody } from '../../lib/rewards/reward.schema.js';
import { createReward } from '../../lib/rewards/reward.service.js';

export const schemas = { body: createRewardBody };

export const makeHandler = endpoint(createRewardRoute, schemas, async ({ runtime, principal, body }) =>
  ok(toRewardReply(await createReward(runtime, principal.projectId, body))),
);

export const handler = makeHandler();
