import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetQueueAttributesCommand, ReceiveMessageCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqsPoller, type SqsPoller } from '../../../infra/local/sqs-poller.js';
import { createLogger } from '../../../lib/logger.js';
import { engines } from '../../support/runtime.js';
import { createQueueWithDlq, deleteQueues } from '../../support/queues.js';

interface TestQueue {
  url: string;
  arn: string;
  dlqUrl: string;
}

let sqs: SQSClient;
const queues: string[] = [];
const pollers: SqsPoller[] = [];
const logLines: string[] = [];
const logger = createLogger('info', (line) => logLines.push(line));

beforeAll(() => {
  const e = engines();
  sqs = new SQSClient({ region: e.region, endpoint: e.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});

afterAll(async () => {
  await Promise.all(pollers.map((p) => p.stop()));
  await deleteQueues(sqs, queues);
  sqs.destroy();
});

/** A queue of this test's own, with a dead-letter queue after `maxReceiveCount` receives and a 1 s visibility timeout. */
async function newQueue(maxReceiveCount = 2): Promise<TestQueue> {
  const queue = await createQueueWithDlq(sqs, `test-${randomUUID().slice(0, 8)}`, { visibilityTimeoutSeconds: 1, maxReceiveCount });
  queues.push(queue.url, queue.dlqUrl);
  return queue;
}

async function send(queueUrl: string, bodies: string[]): Promise<void> {
  await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: bodies.map((body, i) => ({
        Id: String(i),
        MessageBody: body,
        MessageAttributes: { kind: { DataType: 'String', StringValue: `kind-${body}` } },
      })),
    }),
  );
}

/** Messages still in the queue, visible or in flight. */
async function messagesIn(queueUrl: string): Promise<number> {
  const attrs = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
  );
  return Number(attrs.Attributes?.ApproximateNumberOfMessages ?? 0) + Number(attrs.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(100);
  }
}

function poll(queue: TestQueue, handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>, batchSize = 10): SqsPoller {
  const poller = startSqsPoller({ sqsClient: sqs, queueUrl: queue.url, handler, batchSize, idleDelayMs: 100, logger, functionName: 'test-worker' });
  pollers.push(poller);
  return poller;
}

const deliveriesOf = (records: SQSRecord[], body: string): string[] => records.filter((r) => r.body === body).map((r) => r.attributes.ApproximateReceiveCount);

describe('SQS poller (Lambda event source emulation)', () => {
  it('deletes successes, redelivers a reported failure until it succeeds, and dead-letters a poison message after maxReceiveCount', async () => {
    const queue = await newQueue(2);
    const batches: SQSRecord[][] = [];
    const poller = poll(
      queue,
      async (event) => {
        batches.push(event.Records);
        const failures = event.Records.filter((r) => r.body === 'poison' || (r.body === 'flaky' && r.attributes.ApproximateReceiveCount === '1'));
        return { batchItemFailures: failures.map((r) => ({ itemIdentifier: r.messageId })) };
      },
      3,
    );
    await send(queue.url, ['ok-a', 'ok-b', 'flaky', 'poison']);

    const dead: string[] = [];
    await waitFor(async () => {
      const got = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      dead.push(...(got.Messages ?? []).map((m) => m.Body ?? ''));
      return dead.length > 0;
    });
    await sleep(1500); // past another visibility timeout: anything not deleted would come back
    await poller.stop();

    const records = batches.flat();
    expect(dead).toEqual(['poison']);
    expect(deliveriesOf(records, 'ok-a')).toEqual(['1']);
    expect(deliveriesOf(records, 'ok-b')).toEqual(['1']);
    expect(deliveriesOf(records, 'flaky')).toEqual(['1', '2']);
    expect(deliveriesOf(records, 'poison')).toEqual(['1', '2']);
    expect(batches.every((b) => b.length <= 3)).toBe(true);
    expect(await messagesIn(queue.url)).toBe(0);

    const record = records.find((r) => r.body === 'ok-a');
    expect(record).toMatchObject({
      messageId: expect.any(String),
      receiptHandle: expect.stringMatching(/.+/),
      body: 'ok-a',
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: expect.stringMatching(/^\d+$/),
        ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d+$/),
      },
      messageAttributes: { kind: { stringValue: 'kind-ok-a', dataType: 'String', stringListValues: [], binaryListValues: [] } },
      md5OfBody: createHash('md5').update('ok-a').digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: queue.arn,
      awsRegion: engines().region,
    });
    expect(queue.arn).toMatch(/^arn:aws:sqs:/);
  });

  it('fails the whole batch when the handler throws, and the messages come back', async () => {
    const queue = await newQueue(3);
    const batches: SQSRecord[][] = [];
    poll(queue, async (event) => {
      batches.push(event.Records);
      if (batches.length === 1) throw new Error('worker crashed');
    });
    await send(queue.url, ['m1', 'm2', 'm3']);

    await waitFor(async () => batches.length >= 2 && (await messagesIn(queue.url)) === 0);

    const [first = [], ...later] = batches;
    expect(first.length).toBeGreaterThan(0);
    for (const record of first) {
      expect(later.flat().find((r) => r.messageId === record.messageId)?.attributes.ApproximateReceiveCount).toBe('2');
    }
    expect(new Set(batches.flat().map((r) => r.body))).toEqual(new Set(['m1', 'm2', 'm3']));
    const logged = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.message === 'worker batch threw');
    expect(logged).toMatchObject({ function: 'test-worker', error: 'Error', detail: 'worker crashed' });
  });

  it('treats an unknown item identifier as a failure of the whole batch, as Lambda does', async () => {
    const queue = await newQueue(3);
    const batches: SQSRecord[][] = [];
    poll(queue, async (event) => {
      batches.push(event.Records);
      return batches.length === 1 ? { batchItemFailures: [{ itemIdentifier: 'not-in-this-batch' }] } : undefined;
    });
    await send(queue.url, ['x']);

    await waitFor(async () => batches.length >= 2 && (await messagesIn(queue.url)) === 0);
    expect(batches.flat().map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['1', '2']);
  });

  it('waits for the batch in hand on stop, deletes it, and does not wait out a long poll', async () => {
    const queue = await newQueue(3);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((res) => {
      release = res;
    });
    let calls = 0;
    const poller = poll(queue, async () => {
      calls += 1;
      await gate;
    });
    await send(queue.url, ['slow']);
    await waitFor(() => calls === 1);

    let stopped = false;
    const stopping = poller.stop().then(() => {
      stopped = true;
    });
    await sleep(300);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(calls).toBe(1);
    expect(await messagesIn(queue.url)).toBe(0);

    const idle = startSqsPoller({ sqsClient: sqs, queueUrl: queue.url, handler: async () => undefined, waitTimeSeconds: 20, logger });
    await sleep(200);
    const t0 = Date.now();
    await idle.stop();
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
