/**
 * Item 22 in a process of its own, so its memory is the delivery worker's alone: `worker` invokes the
 * webhook delivery worker's handler (functions/workers/webhook-delivery-worker.ts) with SQS events of
 * 10 delivery messages, `lanes` batches at a time, until `events` are delivered to the receiver at
 * `url` (an http server in the bench process), sampling the heap; `floor` sends, per batch, the two
 * reads a delivery cannot do without (the webhook, the project's token) and, per event, one POST of a
 * body of the same size (on the agent's kept-alive connections). Messages are made as they are sent, so the input holds no memory. Prints one JSON line.
 */
import { request } from 'node:http';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { makeHandler } from '../../functions/workers/webhook-delivery-worker.js';
import { project as projectEntity, webhook as webhookEntity } from '../../lib/db/entities.js';
import type { DeliveryMessage } from '../../lib/events-out/out-event.js';
import { webhookPayload } from '../../lib/events-out/out-event.js';
import { silentLogger } from '../../lib/logger.js';
import { createRuntime } from '../../lib/runtime.js';
import { LOCAL_TARGET_POLICY } from '../../lib/webhooks/target-policy.js';

export interface WebhookChildArgs {
  mode: 'worker' | 'floor';
  region: string;
  tableName: string;
  dynamoEndpoint: string;
  projectId: string;
  webhookId: string;
  url: string;
  events: number;
  lanes: number;
  /** The event's `data.object` (a redemption as the API shows it). */
  object: Record<string, unknown>;
}

const BATCH = 10;
const args = JSON.parse(process.argv[2] ?? '{}') as WebhookChildArgs;
const runtime = createRuntime(
  { tableName: args.tableName, region: args.region, dynamoDbEndpoint: args.dynamoEndpoint, cluster: 'api', logLevel: 'error' },
  { logger: silentLogger },
);

let peakRss = process.memoryUsage().rss;
let peakHeap = process.memoryUsage().heapUsed;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 5);
/** A full collection where the child was started with --expose-gc: the heap it leaves is what the run keeps. */
const collect = (): void => (globalThis as { gc?: () => void }).gc?.();
collect();
const heapBefore = process.memoryUsage().heapUsed;

const createdAt = new Date().toISOString();
const messageOf = (i: number): DeliveryMessage => ({
  v: 1,
  event: { id: `evt_bench${String(i).padStart(8, '0')}`, type: 'redemption.succeeded', projectId: args.projectId, createdAt, data: { object: args.object } },
  webhookId: args.webhookId,
  attempts: 0,
});
const recordOf = (i: number): SQSRecord => ({ messageId: `m${i}`, body: JSON.stringify(messageOf(i)) }) as SQSRecord;

/** Runs `work(batchIndex)` for every batch, `lanes` at a time. */
async function lanes(work: (batch: number) => Promise<void>): Promise<void> {
  const batches = Math.ceil(args.events / BATCH);
  let next = 0;
  await Promise.all(
    Array.from({ length: args.lanes }, async () => {
      while (next < batches) await work(next++);
    }),
  );
}

let settled = 0;
let failed = 0;
const t = performance.now();
if (args.mode === 'worker') {
  const handler = makeHandler({
    runtime,
    delivery: {
      queue: {
        send: async () => {
          throw new Error('a delivery was retried: the receiver answers 200 to every one');
        },
        deadLetter: async () => {
          throw new Error('a delivery was dead-lettered');
        },
      },
      policy: LOCAL_TARGET_POLICY,
      resolve: async () => ['127.0.0.1'],
    },
    onSettled: () => {
      settled += 1;
    },
  });
  await lanes(async (batch) => {
    const records = Array.from({ length: Math.min(BATCH, args.events - batch * BATCH) }, (_, k) => recordOf(batch * BATCH + k));
    const result = await handler({ Records: records } as SQSEvent, { awsRequestId: `bench-${batch}` } as never);
    failed += result?.batchItemFailures.length ?? 0;
  });
} else {
  const { ddb, tableName } = runtime;
  const post = (body: Buffer): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request(args.url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength) } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
  await lanes(async (batch) => {
    const n = Math.min(BATCH, args.events - batch * BATCH);
    const reads = Promise.all([
      ddb.send(new GetCommand({ TableName: tableName, Key: webhookEntity.key(args.projectId, args.webhookId), ConsistentRead: true })),
      ddb.send(new GetCommand({ TableName: tableName, Key: projectEntity.key(args.projectId) })),
    ]);
    await Promise.all(
      Array.from({ length: n }, async (_, k) => {
        const m = messageOf(batch * BATCH + k);
        await reads;
        const status = await post(Buffer.from(JSON.stringify(webhookPayload(m.event, m.webhookId))));
        if (status === 200) settled += 1;
        else failed += 1;
      }),
    );
  });
}
const ms = performance.now() - t;
clearInterval(sampler);
collect();
process.stdout.write(`${JSON.stringify({ ms, settled, failed, heapBefore, heapAfter: process.memoryUsage().heapUsed, peakHeap, peakRss })}\n`);
runtime.ddb.destroy();
