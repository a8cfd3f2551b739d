import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateQueueCommand, GetQueueAttributesCommand, PurgeQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { makeHandler as makeDeliveryHandler } from '../../functions/workers/webhook-delivery-worker.js';
import { makeHandler as makeOutboxHandler } from '../../functions/workers/outbox-stream-worker.js';
import { startSqsPoller, type SqsPoller } from '../../infra/local/sqs-poller.js';
import { type StreamPoller, startStreamPoller } from '../../infra/local/stream-poller.js';
import { outboxStreamWorker } from '../../lib/api/workers.js';
import { systemClock } from '../../lib/clock.js';
import { createSqsWebhookQueue } from '../../lib/events-out/webhook-queue.js';
import { createLogger, silentLogger } from '../../lib/logger.js';

const pipelineLogger = process.env.WEBHOOK_TEST_LOG ? createLogger('debug') : silentLogger;
import type { Runtime } from '../../lib/runtime.js';
import type { RetrySchedule } from '../../lib/webhooks/retry-schedule.js';
import { LOCAL_TARGET_POLICY } from '../../lib/webhooks/target-policy.js';
import { afterAll, beforeAll } from 'vitest';
import type { WebhookEvent } from '../../lib/webhooks/webhook.js';
import { createWebhook } from '../../lib/webhooks/webhook.service.js';
import { engines, newProject, type ProjectKeys, streamedFileTableName, testRuntime } from './runtime.js';

/** One request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on loopback: records every request and answers with `answer` (200 by default);
 * with `answer.hold`, it records and never answers (a delivery in flight, for a runtime killed during it).
 */
export async function startReceiver(): Promise<{ url: string; received: Received[]; answer: { status: number; hold: boolean }; close(): Promise<void> }> {
  const received: Received[] = [];
  const answer = { status: 200, hold: false };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (answer.hold) return;
      res.statusCode = answer.status;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The webhooks pipeline of the local runtime on a table and queues of the test file's own: the
 * stream poller feeding the outbox worker, the webhooks queue pair, and the delivery worker on it
 * with a short retry schedule.
 */
export async function startWebhookPipeline(schedule: RetrySchedule) {
  const e = engines();
  const tableName = await streamedFileTableName();
  const runtime: Runtime = testRuntime({ tableName, clock: systemClock, logger: pipelineLogger });
  const sqs = new SQSClient({ region: e.region, endpoint: e.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const name = `webhooks-${randomUUID().slice(0, 8)}`;
  const deadLetterUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }))).QueueUrl as string;
  const dlqArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: deadLetterUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn;
  const queueUrl = (
    await sqs.send(
      new CreateQueueCommand({
        QueueName: name,
        Attributes: { VisibilityTimeout: '30', RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 5 }) },
      }),
    )
  ).QueueUrl as string;
  const queue = createSqsWebhookQueue(sqs, { queueUrl, deadLetterUrl });
  let stream: StreamPoller | undefined;
  const settled: string[] = [];
  const delivery: SqsPoller = startSqsPoller({
    sqsClient: sqs,
    queueUrl,
    handler: makeDeliveryHandler({
      runtime,
      delivery: { queue, policy: LOCAL_TARGET_POLICY, resolve: async () => ['127.0.0.1'], schedule },
      onSettled: (key) => {
        settled.push(key);
        stream?.settled(key);
      },
    }),
    batchSize: 10,
    idleDelayMs: 100,
    logger: pipelineLogger,
  });
  stream = startStreamPoller({
    dynamoEndpoint: e.dynamoEndpoint,
    region: e.region,
    tableName,
    entities: outboxStreamWorker.entities,
    batchSize: outboxStreamWorker.batchSize,
    handler: makeOutboxHandler({ runtime, webhookQueue: queue, onEnqueued: (seq, keys) => stream?.onEnqueued(seq, keys) }),
    checkpointFile: null,
    logger: pipelineLogger,
    idleDelayMs: 100,
  });
  const startedStream = stream;
  return {
    runtime,
    settled,
    stream: startedStream,
    /** The messages on the dead-letter queue now (received, so invisible for 30 s). */
    deadLetters: async () =>
      (await sqs.send(new ReceiveMessageCommand({ QueueUrl: deadLetterUrl, MaxNumberOfMessages: 10, MessageAttributeNames: ['All'] }))).Messages ?? [],
    stop: async () => {
      await startedStream.stop();
      await delivery.stop();
      await sqs.send(new PurgeQueueCommand({ QueueUrl: queueUrl })).catch(() => undefined);
      sqs.destroy();
    },
  };
}

/** Waits until `check` holds (polling every 100 ms), or throws after `ms`. */
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A test file's webhook scenario: the pipeline and a loopback receiver, started before its tests
 * and stopped after them; a new project whose webhook takes `events` to the receiver; and the
 * events one project got (those `match` keeps), once `count` are in and 1.5 s passed with no
 * more (so a test also sees an event that should not have been sent).
 */
export function webhookScenario<E extends { project_id: string }>(events: WebhookEvent[], schedule: RetrySchedule) {
  let pipeline: Awaited<ReturnType<typeof startWebhookPipeline>> | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  beforeAll(async () => {
    pipeline = await startWebhookPipeline(schedule);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await pipeline?.stop();
  });
  const started = () => {
    if (!pipeline || !receiver) throw new Error('the webhook scenario starts in beforeAll');
    return { pipeline, receiver };
  };
  const bodyOf = (r: Received) => JSON.parse(r.body) as E;
  return {
    get runtime(): Runtime {
      return started().pipeline.runtime;
    },
    async subscribedProject(): Promise<ProjectKeys> {
      const { pipeline: p, receiver: r } = started();
      const keys = await newProject(p.runtime);
      await createWebhook(p.runtime, { policy: LOCAL_TARGET_POLICY, resolve: async () => ['127.0.0.1'] }, keys.project_id, { target_url: r.url, events });
      return keys;
    },
    /** The requests the receiver got for one project's events, as they came (body, headers). */
    requestsOf(projectId: string): Received[] {
      return started().receiver.received.filter((x) => bodyOf(x).project_id === projectId);
    },
    async eventsOf(projectId: string, count: number, match: (event: E) => boolean = () => true): Promise<E[]> {
      const { receiver: r } = started();
      const mine = () => r.received.map(bodyOf).filter((e) => e.project_id === projectId && match(e));
      await eventually(() => mine().length >= count, 30_000, `${count} events`);
      await new Promise((done) => setTimeout(done, 1500));
      return mine();
    },
  };
}
