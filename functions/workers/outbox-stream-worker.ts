import middy from '@middy/core';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { dispatchStreamRecords, type OnEnqueued } from '../../lib/events-out/outbox.js';
import { containerWebhookQueue, type WebhookQueue } from '../../lib/events-out/webhook-queue.js';
import type { Ports } from '../../lib/http/endpoint.js';
import { defaultConfig, defaultRuntime } from '../../lib/runtime.js';

/** What the local runtime and the tests pass besides the house ports. */
export interface OutboxWorkerPorts extends Ports {
  webhookQueue?: WebhookQueue;
  onEnqueued?: OnEnqueued;
}

/**
 * The outbox's consumer: a batch of the table's stream records (filtered to the entities that make
 * events) becomes webhook deliveries on the webhooks queue (lib/events-out/outbox.ts).
 */
export const makeHandler = ({ runtime, webhookQueue, onEnqueued }: OutboxWorkerPorts = {}) =>
  middy<DynamoDBStreamEvent, DynamoDBBatchResponse>({ timeoutEarlyInMillis: 0 }).handler(async (event) => {
    const rt = runtime ?? defaultRuntime();
    return dispatchStreamRecords(rt, webhookQueue ?? containerWebhookQueue(defaultConfig()), event.Records, onEnqueued);
  });

export const handler = makeHandler();
