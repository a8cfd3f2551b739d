import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { batchReads, deliverMessage, type DeliveryPorts, settles } from '../../lib/events-out/delivery.js';
import { deliveryKey } from '../../lib/events-out/outbox.js';
import type { DeliveryMessage } from '../../lib/events-out/out-event.js';
import { containerWebhookQueue } from '../../lib/events-out/webhook-queue.js';
import type { Ports } from '../../lib/http/endpoint.js';
import { defaultConfig, defaultRuntime } from '../../lib/runtime.js';
import { containerWebhookTargets, systemResolve } from '../../lib/webhooks/target-policy.js';

/** What the local runtime and the tests pass besides the house ports. */
export interface DeliveryWorkerPorts extends Ports {
  delivery?: Partial<DeliveryPorts>;
  /** Told when a delivery ends (delivered, dead-lettered or dropped): the local stream poller's checkpoint waits for it. */
  onSettled?: (key: string) => void;
}

/**
 * The webhooks queue's worker: one delivery attempt per message, side by side, the batch's webhooks
 * and projects read once each (lib/events-out/delivery.ts `batchReads`).
 * A message that cannot be read is dropped (logged); one whose attempt threw (the table or queue
 * failed) is reported failed and received again.
 */
export const makeHandler = ({ runtime, delivery, onSettled }: DeliveryWorkerPorts = {}) =>
  middy<SQSEvent, SQSBatchResponse>({ timeoutEarlyInMillis: 0 }).handler(async (event) => {
    const rt = runtime ?? defaultRuntime();
    const ports: DeliveryPorts = {
      queue: delivery?.queue ?? containerWebhookQueue(defaultConfig()),
      policy: delivery?.policy ?? containerWebhookTargets(),
      resolve: delivery?.resolve ?? systemResolve,
      ...(delivery?.limits ? { limits: delivery.limits } : {}),
      ...(delivery?.schedule ? { schedule: delivery.schedule } : {}),
    };
    const failures: { itemIdentifier: string }[] = [];
    const reads = batchReads(rt);
    await Promise.all(
      event.Records.map(async (record) => {
        let message: DeliveryMessage;
        try {
          message = JSON.parse(record.body) as DeliveryMessage;
          if (message.v !== 1 || typeof message.webhookId !== 'string' || typeof message.event?.id !== 'string') throw new Error('not a delivery message');
        } catch (error) {
          rt.logger.warn('webhook message unreadable; dropped', { messageId: record.messageId, error: (error as Error).message });
          return;
        }
        try {
          const result = await deliverMessage(rt, ports, message, reads);
          if (settles(result)) onSettled?.(deliveryKey(message.event.id, message.webhookId));
        } catch (error) {
          rt.logger.warn('webhook delivery threw', { messageId: record.messageId, error: (error as Error).message });
          failures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    return { batchItemFailures: failures };
  });

export const handler = makeHandler();
