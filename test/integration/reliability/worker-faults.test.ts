import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '../../../lib/api/resources.js';
import { toSqsRecord } from '../../../infra/local/sqs-poller.js';
import { startLocal } from '../../../infra/local/start-local.js';
import {
  addVouchersToCampaignRoute,
  createCampaignRoute,
  createPointsExpirationExportRoute,
  getAsyncActionRoute,
  getCampaignRoute,
  getExportRoute,
} from '../../../lib/api/routes.js';
import { systemClock } from '../../../lib/clock.js';
import type { ExportFiles } from '../../../lib/exports/export-files.js';
import { createS3ExportFiles } from '../../../lib/exports/s3-export-files.js';
import { createSqsJobQueue } from '../../../lib/jobs/sqs-job-queue.js';
import { silentLogger } from '../../../lib/logger.js';
import type { PointsBucket } from '../../../lib/loyalties/points-bucket.js';
import { bucketItem } from '../../../lib/loyalties/points-bucket.repo.js';
import type { Runtime } from '../../../lib/runtime.js';
import { listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { defaultExtras, routeClient } from '../../support/hostile/route-harness.js';
import { createQueueWithDlq, deleteQueues } from '../../support/queues.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord as record } from '../../support/sqs-record.js';
import { makeJobWorkers as makeWorker } from '../../support/job-workers.js';
import { workers } from '../../../lib/api/workers.js';

/**
 * Faults in the worker and the local runtime. Covered elsewhere: a poison message reaching the
 * DLQ after three receives and the export marked ERROR with its reason, a failing upload aborted
 * and ERROR on the last delivery (exports/points-expiration-export), a job delivered twice at once
 * (vouchers/bulk-generation).
 */

let runtime: Runtime;
let sqs: SQSClient;
let s3: S3Client;
const queueUrls: string[] = [];

beforeAll(() => {
  const e = engines();
  runtime = testRuntime({ clock: systemClock });
  sqs = new SQSClient({ region: e.region, endpoint: e.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  s3 = new S3Client({ region: e.region, endpoint: e.s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
});

afterAll(async () => {
  await deleteQueues(sqs, queueUrls);
  sqs.destroy();
  s3.destroy();
});

/** A promise that never settles: the process holding it is gone. */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** Files whose upload dies after `parts` writes: no abort, no completion, as when the process is killed. */
function dyingFiles(real: ExportFiles, writes: number): { files: ExportFiles; written: () => number } {
  let count = 0;
  return {
    written: () => count,
    files: {
      delete: (key) => real.delete(key),
      upload: async (key, options) => {
        const upload = await real.upload(key, options);
        return {
          write: async (chunk) => {
            count += 1;
            if (count > writes) return never();
            return upload.write(chunk);
          },
          complete: () => never(),
          abort: () => never(),
        };
      },
      presignGet: (key, seconds, now) => real.presignGet(key, seconds, now),
    },
  };
}

/** The runtime's table client, dying (never answering again) after `writes` transactions: a killed worker process. */
function dyingDdb(ddb: DynamoDBDocumentClient, writes: number): { ddb: DynamoDBDocumentClient; transactions: () => number } {
  let count = 0;
  const proxy = new Proxy(ddb, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
      return (command: { constructor: { name: string } }) => {
        if (command.constructor.name === 'TransactWriteCommand') {
          count += 1;
          if (count > writes) return never();
        }
        return (target.send as (c: unknown) => Promise<unknown>)(command);
      };
    },
  });
  return { ddb: proxy, transactions: () => count };
}

async function seedBuckets(projectId: string, campaignId: string, n: number): Promise<PointsBucket[]> {
  const buckets: PointsBucket[] = Array.from({ length: n }, (_, i) => ({
    id: `lopb_${String(i).padStart(6, '0')}`,
    projectId,
    campaignId,
    voucherId: `v_card${String(i % 50).padStart(3, '0')}`,
    points: 1 + (i % 97),
    status: 'ACTIVE',
    expiresAt: new Date(Date.UTC(2099, 0, 1 + (i % 300))).toISOString().slice(0, 10),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }));
  for (let i = 0; i < buckets.length; i += 25) {
    let items: Record<string, unknown>[] | undefined = buckets.slice(i, i + 25).map((b) => ({ PutRequest: { Item: bucketItem(b) } }));
    while (items && items.length > 0) {
      const res = await runtime.ddb.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: items as never } }));
      items = res.UnprocessedItems?.[runtime.tableName] as Record<string, unknown>[] | undefined;
    }
  }
  return buckets;
}

describe('faults in the worker and the local runtime', () => {
  it('finishes an export whose worker was killed mid-upload once the message is redelivered: one complete CSV, status DONE', async () => {
    const e = engines();
    const pair = await newProject(runtime);
    const jobs = new RecordingJobQueue();
    const api = routeClient(runtime, { ...defaultExtras(), jobs });
    const headers = keyPairHeaders(pair);
    const campaign = await api(createCampaignRoute, { json: campaignBodies.LOYALTY_PROGRAM('Killed export'), headers });
    const campaignId = (campaign.body as { id: string }).id;
    const buckets = await seedBuckets(pair.project_id, campaignId, 3_000);
    const created = await api(createPointsExpirationExportRoute, { params: { campaignId }, json: { parameters: { fields: ['id', 'points'] } }, headers });
    expect(created.status).toBe(200);
    const exportId = (created.body as { id: string }).id;
    const body = JSON.stringify(jobs.sent[0]);
    // 8 KiB parts: the 3,000-row file takes several, and the first worker dies after the third write.
    const real = createS3ExportFiles({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint }, { partBytes: 8 * 1024 });
    const dying = dyingFiles(real, 3);
    const killed = makeWorker({ runtime, files: dying.files })({ Records: [record(body, 1)] }, {} as never);
    for (let i = 0; i < 100 && dying.written() <= 3; i += 1) await sleep(50);
    expect(dying.written()).toBeGreaterThan(3);
    void killed;
    expect(((await api(getExportRoute, { params: { exportId }, headers })).body as { status: string }).status).toBe('IN_PROGRESS');

    const again = await makeWorker({ runtime, files: real })({ Records: [record(body, 2)] }, {} as never);
    expect(again.batchItemFailures).toEqual([]);
    const done = (await api(getExportRoute, { params: { exportId }, headers })).body as { status: string; result: { url: string } | null };
    expect(done.status).toBe('DONE');
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: e.bucketName, Prefix: `exports/${pair.project_id}/` }));
    const keys = (listed.Contents ?? []).map((c) => c.Key);
    expect(keys).toEqual([`exports/${pair.project_id}/${exportId}.csv`]);
    const object = await s3.send(new GetObjectCommand({ Bucket: e.bucketName, Key: keys[0] }));
    const lines = (await object.Body?.transformToString())?.split('\r\n').filter((l) => l !== '') ?? [];
    expect(lines[0]).toBe('id,points');
    expect(lines).toHaveLength(buckets.length + 1);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(buckets.length);
  }, 60_000);

  it('resumes a bulk generation after the local runtime dies mid-job and starts again: DONE, the exact count, no duplicate codes', async () => {
    const e = engines();
    const queue = await createQueueWithDlq(sqs, `restart-${randomUUID().slice(0, 8)}`, { visibilityTimeoutSeconds: 2 });
    queueUrls.push(queue.url, queue.dlqUrl);
    const pair = await newProject(runtime);
    const jobs = createSqsJobQueue({ region: e.region, sqsEndpoint: e.sqsEndpoint, jobsQueueUrl: queue.url });
    const api = routeClient(runtime, { ...defaultExtras(), jobs });
    const headers = keyPairHeaders(pair);
    const campaign = await api(createCampaignRoute, { json: campaignBodies.DISCOUNT_COUPONS('Restarted'), headers });
    const campaignId = (campaign.body as { id: string }).id;
    const accepted = await api(addVouchersToCampaignRoute, { params: { campaignId }, query: 'vouchers_count=500', headers });
    expect(accepted.status).toBe(202);
    const actionId = (accepted.body as { async_action_id: string }).async_action_id;

    // The first runtime takes the message and dies after four batches: nothing acknowledges it.
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 1, WaitTimeSeconds: 5, AttributeNames: ['All'] }));
    const message = received.Messages?.[0];
    if (!message) throw new Error('the job never reached the queue');
    const dying = dyingDdb(runtime.ddb, 4);
    void makeWorker({ runtime: { ...runtime, ddb: dying.ddb } })({ Records: [toSqsRecord(message, queue.arn)] }, {} as never);
    for (let i = 0; i < 100 && dying.transactions() <= 4; i += 1) await sleep(50);
    const mid = (await api(getAsyncActionRoute, { params: { asyncActionId: actionId }, headers })).body as { status: string; progress: number };
    expect(mid.status).toBe('IN_PROGRESS');
    expect(mid.progress).toBeGreaterThan(0);
    expect(mid.progress).toBeLessThan(100);

    // The second runtime (the whole local runtime, real poller and worker) gets the message back after the visibility timeout.
    const [jobsQueue] = resources.queues;
    const local = await startLocal({
      dataDir: null,
      port: 0,
      downloadPort: 0,
      logger: silentLogger,
      logLevel: 'error',
      engines: { ...e, queueUrls: { [jobsQueue.name]: queue.url, [jobsQueue.deadLetter]: queue.dlqUrl } },
      // The jobs queue's workers only: this test gives the runtime no export jobs queue.
      workers: workers.filter((w) => w.queue === jobsQueue.name),
    });
    try {
      let final: { status: string; progress: number } = mid;
      for (let i = 0; i < 300 && final.status !== 'DONE' && final.status !== 'FAILED'; i += 1) {
        await sleep(100);
        final = (await api(getAsyncActionRoute, { params: { asyncActionId: actionId }, headers })).body as typeof final;
      }
      expect(final).toMatchObject({ status: 'DONE', progress: 100 });
    } finally {
      await local.stop();
    }
    const codes = await listCampaignVoucherCodes(runtime, pair.project_id, campaignId);
    expect(codes).toHaveLength(500);
    expect(new Set(codes).size).toBe(500);
    expect(((await api(getCampaignRoute, { params: { campaignId }, headers })).body as { vouchers_count: number }).vouchers_count).toBe(500);
  }, 90_000);
});
