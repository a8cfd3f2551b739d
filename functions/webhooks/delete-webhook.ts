import { deleteWebhookRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { noContent } from '../../lib/http/reply.js';
import { webhookParams } from '../../lib/webhooks/webhook.schema.js';
import { deleteWebhook } from '../../lib/webhooks/webhook.service.js';

export const schemas = { params: webhookParams };

export const makeHandler = managementEndpoint(deleteWebhookRoute, schemas, async ({ runtime, params }) => {
  await deleteWebhook(runtime, params.projectId, params.webhookId);
  return noContent();
});

export const handler = makeHandler();
