import type { WebhookEvent } from '../webhooks/webhook.js';

/** One change of an item of the single table, as its stream record carries it (images unmarshalled). */
export interface ItemChange {
  kind: 'INSERT' | 'MODIFY' | 'REMOVE';
  newItem: Record<string, unknown> | null;
  oldItem: Record<string, unknown> | null;
  /** When the change was made (the stream record's approximate creation time, ISO), where the item does not say (a removal). */
  at?: string;
}

/**
 * An event of the reference's webhooks, derived from one item change. `id` is a function of the
 * item (and of the change, for updates), so a stream record read twice, or delivered twice, carries
 * the same id: receivers de-duplicate by it (`x-voucherify-event-id`, the payload's `id`).
 */
export interface OutEvent {
  id: string;
  type: WebhookEvent;
  projectId: string;
  createdAt: string;
  /** The payload's `data`: `object`, the resource as the API shows it. */
  data: Record<string, unknown>;
}

/** What the webhooks queue carries: one event for one webhook, and how often its delivery failed. */
export interface DeliveryMessage {
  v: 1;
  event: OutEvent;
  webhookId: string;
  /** Attempts made so far (0 on the first enqueue). */
  attempts: number;
  /** When the next attempt is due (ISO), when it is further away than one SQS delay (15 min): the worker re-delays until then. */
  dueAt?: string;
}

/** The body POSTed to a webhook's target: Voucherify's webhook event (v2024-01-01 payloads). */
export const webhookPayload = (event: OutEvent, webhookId: string) => ({
  id: event.id,
  object: 'event' as const,
  webhook_id: webhookId,
  project_id: event.projectId,
  created_at: event.createdAt,
  type: event.type,
  data: event.data,
  metadata: { source: 'API' },
});
