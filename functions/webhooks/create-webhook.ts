import { createWebhookRoute } from '../../lib/api/routes.js';
import { managementEndpoint } from '../../lib/http/management-endpoint.js';
import { ok } from '../../lib/http/reply.js';
import { toWebhookReply } from '../../lib/webhooks/webhook.mapper.js';
import { createWebhookBody, projectParams } from '../../lib/webhooks/webhook.schema.js';
import { createWebhook } from '../../lib/webhooks/webhook.service.js';
import { containerWebhookTargets, systemResolve } from '../../lib/webhooks/target-policy.js';

export const schemas = { params: projectParams, body: createWebhookBody };

export const makeHandler = managementEndpoint(
  createWebhookRoute,
  schemas,
  async ({ runtime, params, body, ports }) =>
    ok(toWebhookReply(await createWebhook(runtime, { policy: ports.webhookTargets(), resolve: systemResolve }, params.projectId, body))),
  { webhookTargets: containerWebhookTargets },
);

export const handler = makeHandler();
