import * as z from '../zod.js';
import { projectParams } from '../projects/project.schema.js';
import { MAX_WEBHOOKS_PER_PROJECT, WEBHOOK_EVENTS } from './webhook.js';

/*
 * Request schemas of a project's webhooks (POST/PUT /management/v1/projects/{projectId}/webhooks[/{webhookId}]),
 * after the reference's ManagementProjectsWebhooksCreateRequestBody / UpdateRequestBody. The target
 * URL's safety (scheme, addresses) is checked by the service with the runtime's target policy.
 */

export { projectParams };

/** `{webhookId}`: a webhook id (`wh_…`); any other string finds nothing. */
export const webhookParams = z.strictObject({
  projectId: z.string().check(z.minLength(1), z.maxLength(100)),
  webhookId: z.string().check(z.minLength(1), z.maxLength(100)),
});

const webhookFields = {
  target_url: z.string().check(z.minLength(1), z.maxLength(2000)),
  events: z.array(z.enum(WEBHOOK_EVENTS)).check(z.minLength(1), z.maxLength(WEBHOOK_EVENTS.length)),
  active: z.optional(z.nullable(z.boolean())),
};

export const createWebhookBody = z.object(webhookFields);
export type CreateWebhookBody = z.output<typeof createWebhookBody>;

/** The reference's update body requires target_url and events, as create does: a PUT replaces the configuration. */
export const updateWebhookBody = z.object(webhookFields);
export type UpdateWebhookBody = z.output<typeof updateWebhookBody>;

export { MAX_WEBHOOKS_PER_PROJECT };
