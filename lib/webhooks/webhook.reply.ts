import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { WEBHOOK_EVENTS } from './webhook.js';

/*
 * Reply schemas of a project's webhooks (the reference's ManagementProjectsWebhook and its list).
 * Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

export const webhookReplySchema = z.strictObject({
  id: z.string(),
  object: z.literal('webhook'),
  created_at: z.string(),
  target_url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  active: z.boolean(),
});
export type WebhookReply = z.input<typeof webhookReplySchema>;

export const webhookListReplySchema = listReply(webhookReplySchema, { dataRef: 'data', total: 'Every webhook of the project' });
export type WebhookListReply = z.input<typeof webhookListReplySchema>;
