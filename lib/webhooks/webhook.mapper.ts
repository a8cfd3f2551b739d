import type { Webhook } from './webhook.js';
import type { WebhookListReply, WebhookReply } from './webhook.reply.js';

/** The reference's ManagementProjectsWebhook. */
export const toWebhookReply = (w: Webhook): WebhookReply => ({
  id: w.id,
  object: 'webhook',
  created_at: w.createdAt,
  target_url: w.targetUrl,
  events: w.events,
  active: w.active,
});

export const toWebhookListReply = (webhooks: Webhook[]): WebhookListReply => ({
  object: 'list',
  data_ref: 'data',
  data: webhooks.map(toWebhookReply),
  total: webhooks.length,
});
