import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type MessageAttributeValue,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttribute, SQSRecord } from 'aws-lambda';
import type { Logger } from '../../lib/logger.js';
import { lambdaContext } from './api-gateway-event.js';

/** A worker's `handler` export, as Lambda's SQS event source calls it. */
export type SqsWorkerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void | null | undefined>;

export interface SqsPollerOptions {
  sqsClient: SQSClient;
  queueUrl: string;
  handler: SqsWorkerHandler;
  /** Messages per invocation, 1..10 (default 10, like Lambda's). */
  batchSize?: number;
  /**
   * `WaitTimeSeconds` of each receive, 0..20 (default 0). The local SQS holds a long poll open
   * until the batch is full or the wait is over (AWS returns on the first message), so locally
   * short polls with `idleDelayMs` between empty ones deliver sooner. `stop()` aborts a poll.
   */
  waitTimeSeconds?: number;
  /** Pause after an empty receive (default 250 ms). */
  idleDelayMs?: number;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** The function's name in logs and its Lambda context. */
  functionName?: string;
  /** The function's time limit: a batch still running then counts as failed (default 30 s). */
  timeoutSeconds?: number;
}

export interface SqsPoller {
  /** Stops receiving and resolves once the batch in hand (if any) is handled and its successes deleted. */
  stop(): Promise<void>;
}

const RETRY_AFTER_ERROR_MS = 1000;

/**
 * Decides which messages of a batch failed, from what the handler returned (ReportBatchItemFailures):
 * nothing, `null`, `{}` or an empty list means all succeeded; an identifier that is empty, not a
 * string or not in the batch makes Lambda fail the whole batch, and so does this.
 */
export function failedMessageIds(messageIds: readonly string[], response: unknown): Set<string> {
  const all = new Set(messageIds);
  if (response === undefined || response === null || typeof response !== 'object') return new Set();
  const failures = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) return all;
  const failed = new Set<string>();
  for (const failure of failures as unknown[]) {
    const id = typeof failure === 'object' && failure !== null ? (failure as { itemIdentifier?: unknown }).itemIdentifier : undefined;
    if (typeof id !== 'string' || !all.has(id)) return all;
    failed.add(id);
  }
  return failed;
}

function toRecordAttribute(value: MessageAttributeValue): SQSMessageAttribute {
  return {
    ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
    ...(value.BinaryValue !== undefined ? { binaryValue: Buffer.from(value.BinaryValue).toString('base64') } : {}),
    stringListValues: value.StringListValues ?? [],
    binaryListValues: (value.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
    dataType: value.DataType ?? 'String',
  };
}

/** The record Lambda's SQS event source builds for a received message. */
export function toSqsRecord(message: Message, queueArn: string): SQSRecord {
  const body = message.Body ?? '';
  const attributes: Record<string, string> = { ...message.Attributes };
  const messageAttributes: Record<string, SQSMessageAttribute> = {};
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) messageAttributes[name] = toRecordAttribute(value);
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body,
    attributes: {
      ...attributes,
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes,
    md5OfBody: message.MD5OfBody ?? createHash('md5').update(body).digest('hex'),
    ...(message.MD5OfMessageAttributes ? { md5OfMessageAttributes: message.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: queueArn.split(':')[3] ?? '',
  };
}

/**
 * One entry per message, its latest receipt. The local SQS can return a message twice in one
 * receive when its visibility timeout ends during a long poll; AWS never does.
 */
function latestReceipts(messages: Message[]): Message[] {
  const byId = new Map<string, Message>();
  for (const m of messages) byId.set(m.MessageId ?? m.ReceiptHandle ?? '', m);
  return [...byId.values()];
}

const describe = (error: unknown): { error: string; detail: string } => ({
  error: error instanceof Error ? error.name : typeof error,
  detail: error instanceof Error ? error.message : String(error),
});

/**
 * Feeds a queue to a worker handler the way Lambda's SQS event source does: long-polls batches,
 * calls the handler with an `SQSEvent`, deletes the messages that succeeded and leaves the rest
 * to reappear after the visibility timeout, where the queue's redrive policy moves a message to
 * its dead-letter queue after `maxReceiveCount` receives. A thrown error fails the whole batch.
 * One batch at a time per poller. Never logs message bodies (they may carry customer data).
 */
export function startSqsPoller(options: SqsPollerOptions): SqsPoller {
  const { sqsClient, queueUrl, handler, logger } = options;
  const batchSize = Math.min(10, Math.max(1, Math.trunc(options.batchSize ?? 10)));
  const waitTimeSeconds = Math.min(20, Math.max(0, Math.trunc(options.waitTimeSeconds ?? 0)));
  const idleDelayMs = options.idleDelayMs ?? 250;
  const timeoutMs = (options.timeoutSeconds ?? 30) * 1000;
  const queueName = queueUrl.split('/').pop() ?? queueUrl;
  const functionName = options.functionName ?? `${queueName}-worker`;
  const aborter = new AbortController();
  let stopping = false;

  const runHandler = async (event: SQSEvent): Promise<unknown> => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Task timed out after ${timeoutMs / 1000} seconds`)), timeoutMs);
    });
    try {
      return await Promise.race([handler(event, lambdaContext(functionName, timeoutMs)), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  };

  const handleBatch = async (messages: Message[], queueArn: string): Promise<void> => {
    const startedAt = Date.now();
    const event: SQSEvent = { Records: messages.map((m) => toSqsRecord(m, queueArn)) };
    const ids = event.Records.map((r) => r.messageId);
    let failed: Set<string>;
    try {
      failed = failedMessageIds(ids, await runHandler(event));
    } catch (error) {
      failed = new Set(ids);
      logger.error('worker batch threw', { function: functionName, queue: queueName, size: ids.length, ...describe(error) });
    }
    const done = event.Records.filter((r) => !failed.has(r.messageId));
    if (done.length > 0) {
      // Not aborted by stop(): a handled message must not be handled again.
      const result = await sqsClient.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
        }),
      );
      for (const f of result.Failed ?? []) {
        logger.warn('worker message not deleted', { function: functionName, queue: queueName, code: f.Code, detail: f.Message });
      }
    }
    logger.info('worker batch', {
      function: functionName,
      queue: queueName,
      size: ids.length,
      failed: failed.size,
      ms: Date.now() - startedAt,
    });
  };

  const loop = async (): Promise<void> => {
    let queueArn: string | undefined;
    let failing = false;
    while (!stopping) {
      try {
        if (!queueArn) {
          const attrs = await sqsClient.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }), {
            abortSignal: aborter.signal,
          });
          queueArn = attrs.Attributes?.QueueArn ?? `arn:aws:sqs:local:000000000000:${queueName}`;
        }
        const received = await sqsClient.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: waitTimeSeconds,
            MessageSystemAttributeNames: ['All'],
            // The local SQS reads only the older name of the same parameter.
            AttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: aborter.signal },
        );
        if (failing) logger.info('worker polling resumed', { function: functionName, queue: queueName });
        failing = false;
        const messages = latestReceipts(received.Messages ?? []);
        // Messages in hand are handled even when stop() came meanwhile: they are invisible now anyway.
        if (messages.length > 0) await handleBatch(messages, queueArn);
        else if (idleDelayMs > 0) await sleep(idleDelayMs, undefined, { signal: aborter.signal }).catch(() => undefined);
      } catch (error) {
        if (stopping) break;
        if (!failing) logger.warn('worker polling failed', { function: functionName, queue: queueName, ...describe(error) });
        failing = true;
        await sleep(RETRY_AFTER_ERROR_MS, undefined, { signal: aborter.signal }).catch(() => undefined);
      }
    }
  };

  const running = loop();
  return {
    stop: async () => {
      stopping = true;
      aborter.abort();
      await running;
    },
  };
}
