import { getWebhookRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toWebhookReply } from '../../lib/webhooks/webhook.mapper.js';
import { webhookParams } from '../../lib/webhooks/webhook.schema.js';
import { getWebhook } from '../../lib/webhooks/webhook.service.js';

export const schemas = { params: webhookParams };

export const makeHandler = managementEndpoint(getWebhookRoute, schemas, async ({ runtime, params }) =>
  ok(toWebhookReply(await getWebhook(runtime, params.projectId, params.webhookId))),
);

export const handler = makeHandler();
