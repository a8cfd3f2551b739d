import { updateWebhookRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toWebhookReply } from '../../lib/webhooks/webhook.mapper.js';
import { updateWebhookBody, webhookParams } from '../../lib/webhooks/webhook.schema.js';
import { updateWebhook } from '../../lib/webhooks/webhook.service.js';
import { containerWebhookTargets, systemResolve } from '../../lib/webhooks/target-policy.js';

export const schemas = { params: webhookParams, body: updateWebhookBody };

export const makeHandler = managementEndpoint(
  updateWebhookRoute,
  schemas,
  async ({ runtime, params, body, ports }) =>
    ok(toWebhookReply(await updateWebhook(runtime, { policy: ports.webhookTargets(), resolve: systemResolve }, params.projectId, params.webhookId, body))),
  { webhookTargets: containerWebhookTargets },
);

export const handler = makeHandler();
