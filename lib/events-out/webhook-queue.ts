import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { WEBHOOKS_QUEUE } from '../api/resources.js';
import type { Config } from '../config.js';
import type { DeliveryMessage } from './out-event.js';

/** SQS's longest message delay: a retry due later is re-delayed in steps of this (lib/events-out/delivery.ts). */
export const MAX_SQS_DELAY_SECONDS = 900;

/** The webhooks queue, as the stream consumer and the delivery worker use it. */
export interface WebhookQueue {
  /** Sends each message with its delay (0..900 s). @throws Error when SQS refuses any of them. */
  send(messages: { body: DeliveryMessage; delaySeconds: number }[]): Promise<void>;
  /** Puts a delivery that was given up on its dead-letter queue, with the reason as a message attribute. */
  deadLetter(body: DeliveryMessage, reason: string): Promise<void>;
}

/** The webhooks queue on SQS; `deadLetterUrl` only where the delivery worker gives up (the stream consumer never does). */
export function createSqsWebhookQueue(sqs: SQSClient, urls: { queueUrl: string; deadLetterUrl?: string | undefined }): WebhookQueue {
  return {
    async send(messages) {
      for (let i = 0; i < messages.length; i += 10) {
        const chunk = messages.slice(i, i + 10);
        const reply = await sqs.send(
          new SendMessageBatchCommand({
            QueueUrl: urls.queueUrl,
            Entries: chunk.map((m, n) => ({
              Id: String(n),
              MessageBody: JSON.stringify(m.body),
              DelaySeconds: Math.max(0, Math.min(MAX_SQS_DELAY_SECONDS, Math.ceil(m.delaySeconds))),
            })),
          }),
        );
        if ((reply.Failed ?? []).length > 0) throw new Error(`SQS refused ${reply.Failed?.length} webhook messages: ${reply.Failed?.[0]?.Message ?? ''}`);
      }
    },
    async deadLetter(body, reason) {
      if (!urls.deadLetterUrl) throw new Error('Invalid configuration: WEBHOOKS_DLQ_URL is required by the webhook delivery worker');
      await sqs.send(
        new SendMessageCommand({
          QueueUrl: urls.deadLetterUrl,
          MessageBody: JSON.stringify(body),
          MessageAttributes: { reason: { DataType: 'String', StringValue: reason.slice(0, 1000) } },
        }),
      );
    },
  };
}

let containerQueue: WebhookQueue | undefined;

/**
 * The webhooks queue of this container (config WEBHOOKS_QUEUE_URL, and WEBHOOKS_DLQ_URL on the
 * delivery worker), built on first use.
 * @throws Error when the function was deployed without the queue's URL.
 */
export function containerWebhookQueue(config: Pick<Config, 'region' | 'sqsEndpoint' | 'queueUrls' | 'webhooksDeadLetterUrl'>): WebhookQueue {
  if (containerQueue) return containerQueue;
  const queueUrl = config.queueUrls?.[WEBHOOKS_QUEUE];
  if (!queueUrl) throw new Error('Invalid configuration: WEBHOOKS_QUEUE_URL is required by the outbox consumer and the webhook delivery worker');
  const sqs = new SQSClient({
    region: config.region,
    ...(config.sqsEndpoint ? { endpoint: config.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: 4,
  });
  containerQueue = createSqsWebhookQueue(sqs, { queueUrl, deadLetterUrl: config.webhooksDeadLetterUrl });
  return containerQueue;
}
