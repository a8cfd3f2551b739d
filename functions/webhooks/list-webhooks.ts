import { listWebhooksRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toWebhookListReply } from '../../lib/webhooks/webhook.mapper.js';
import { projectParams } from '../../lib/webhooks/webhook.schema.js';
import { listWebhooks } from '../../lib/webhooks/webhook.service.js';

export const schemas = { params: projectParams };

export const makeHandler = managementEndpoint(listWebhooksRoute, schemas, async ({ runtime, params }) =>
  ok(toWebhookListReply(await listWebhooks(runtime, params.projectId))),
);

export const handler = makeHandler();
