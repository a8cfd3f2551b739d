import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHandler as makeDownload } from '../../../functions/exports/download-export.js';
import { makeHandler as makeGetExport } from '../../../functions/exports/get-export.js';
import { makeHandler as makeCreateExport } from '../../../functions/exports/create-points-expiration-export.js';
import { makeHandler as makeWorker } from '../../../functions/workers/export-jobs-worker.js';
import { startSqsPoller, type SqsPoller } from '../../../infra/local/sqs-poller.js';
import { EXPORT_JOBS_QUEUE } from '../../../lib/api/resources.js';
import { createPointsExpirationExportRoute, downloadExportRoute, getExportRoute } from '../../../lib/api/routes.js';
import type { IssuedKeyPair } from '../../../lib/app-keys/app-key.service.js';
import { ManualClock, systemClock } from '../../../lib/clock.js';
import { csvRow } from '../../../lib/exports/csv.js';
import type { ExportFiles } from '../../../lib/exports/export-files.js';
import { exportReplySchema } from '../../../lib/exports/export.reply.js';
import { runPointsExpirationExport } from '../../../lib/exports/points-expiration-export.js';
import { createS3ExportFiles } from '../../../lib/exports/s3-export-files.js';
import { createS3Presigner } from '../../../lib/exports/s3-presigner.js';
import { createSqsJobQueue } from '../../../lib/jobs/sqs-job-queue.js';
import type { JobQueue } from '../../../lib/jobs/job.js';
import { silentLogger } from '../../../lib/logger.js';
import { expiresKeyOf, type PointsBucket } from '../../../lib/loyalties/points-bucket.js';
import { bucketItem } from '../../../lib/loyalties/points-bucket.repo.js';
import type { Runtime } from '../../../lib/runtime.js';
import { callRoute, campaignApi, campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { createQueueWithDlq, deleteQueues } from '../../support/queues.js';
import { sqsRecord as record } from '../../support/sqs-record.js';

const DOWNLOAD_BASE = 'http://download.test';
const BUCKETS = 10_000;
const TODAY = new Date().toISOString().slice(0, 10);
const enc = encodeURIComponent;

let runtime: Runtime;
let sqs: SQSClient;
let s3: S3Client;
let files: ExportFiles;
let queueUrl: string;
let dlqUrl: string;
const queueUrls: string[] = [];
const pollers: SqsPoller[] = [];

/** The seeded loyalty campaign: 10,000 buckets on 100 cards, some expired, some used, some never expiring. */
let seeded: { pair: IssuedKeyPair; campaignId: string; campaignName: string; buckets: PointsBucket[] };

async function createQueue(name: string, visibility: number): Promise<{ url: string; dlq: string }> {
  const queue = await createQueueWithDlq(sqs, name, { visibilityTimeoutSeconds: visibility });
  queueUrls.push(queue.url, queue.dlqUrl);
  return { url: queue.url, dlq: queue.dlqUrl };
}

function bucketsFor(projectId: string, campaignId: string): PointsBucket[] {
  const out: PointsBucket[] = [];
  for (let i = 0; i < BUCKETS; i += 1) {
    const day = 1 + ((i * 7919) % 1500);
    const expiresAt = i % 50 === 0 ? null : new Date(Date.UTC(2024, 0, day)).toISOString().slice(0, 10);
    out.push({
      id: `lopb_${String(i).padStart(6, '0')}`,
      projectId,
      campaignId,
      voucherId: `v_card${String(i % 100).padStart(3, '0')}`,
      points: 1 + (i % 997),
      status: i % 31 === 0 ? 'USED' : i % 37 === 0 ? 'EXPIRED' : 'ACTIVE',
      expiresAt,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
    });
  }
  return out;
}

async function seedBuckets(buckets: PointsBucket[]): Promise<void> {
  const batches: PointsBucket[][] = [];
  for (let i = 0; i < buckets.length; i += 25) batches.push(buckets.slice(i, i + 25));
  let next = 0;
  const lane = async () => {
    while (next < batches.length) {
      const batch = batches[next++] ?? [];
      let items: Record<string, unknown>[] | undefined = batch.map((b) => ({ PutRequest: { Item: bucketItem(b) } }));
      while (items && items.length > 0) {
        const res = await runtime.ddb.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: items as never } }));
        items = res.UnprocessedItems?.[runtime.tableName] as Record<string, unknown>[] | undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
}

/** The CSV the export must produce, computed independently of the worker. */
function expectedCsv(buckets: PointsBucket[], fields: string[], descending: boolean, keep: (b: PointsBucket) => boolean = () => true): string {
  const rows = buckets
    .filter((b) => b.status !== 'USED' && keep(b))
    .map((b) => ({ b, key: `${expiresKeyOf(b.expiresAt)}#${b.id}` }))
    .sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  if (descending) rows.reverse();
  const cell = (b: PointsBucket, f: string): string | number => {
    switch (f) {
      case 'status':
        return b.status === 'EXPIRED' || (b.expiresAt !== null && b.expiresAt < TODAY) ? 'EXPIRED' : 'ACTIVE';
      case 'expires_at':
        return b.expiresAt ?? '';
      case 'campaign_id':
        return b.campaignId;
      case 'voucher_id':
        return b.voucherId;
      case 'points':
        return b.points;
      default:
        return b.id;
    }
  };
  return csvRow(fields) + rows.map(({ b }) => csvRow(fields.map((f) => cell(b, f)))).join('');
}

function exportApi(pair: IssuedKeyPair, jobs: JobQueue, options: { downloadRuntime?: Runtime } = {}) {
  const create = makeCreateExport({ runtime, jobs });
  const get = makeGetExport({ runtime, downloadBaseUrl: () => DOWNLOAD_BASE });
  const e = engines();
  const download = makeDownload({
    runtime: options.downloadRuntime ?? runtime,
    links: createS3Presigner({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint }),
  });
  const auth = keyPairHeaders(pair);
  return {
    create: (campaign: string, json: unknown, headers = auth) =>
      callRoute(create, createPointsExpirationExportRoute, { path: `/v1/loyalties/${enc(campaign)}/points-expiration/export`, json, headers }),
    get: (id: string, headers = auth) => callRoute(get, getExportRoute, { path: `/v1/exports/${enc(id)}`, headers }),
    download: (id: string, query: string) => callRoute(download, downloadExportRoute, { path: `/v1/exports/${enc(id)}`, query }),
  };
}

async function waitFinal(api: ReturnType<typeof exportApi>, id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 600; i += 1) {
    const reply = await api.get(id);
    if (reply.json.status === 'DONE' || reply.json.status === 'ERROR') return reply.json;
    await sleep(100);
  }
  throw new Error(`export ${id} did not finish`);
}

/** Reads result.url on the download cluster: files under 5 MiB come in its reply (redirects: download-export.test.ts). */
async function downloadCsv(api: ReturnType<typeof exportApi>, url: string): Promise<string> {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(DOWNLOAD_BASE);
  const id = decodeURIComponent(parsed.pathname.split('/').pop() ?? '');
  const reply = await api.download(id, parsed.search.slice(1));
  expect(reply.status).toBe(200);
  expect(reply.headers['Content-Type']).toBe('text/csv; charset=utf-8');
  return reply.text;
}

async function objectKeys(projectId: string): Promise<string[]> {
  const res = await s3.send(new ListObjectsV2Command({ Bucket: engines().bucketName, Prefix: `exports/${projectId}/` }));
  return (res.Contents ?? []).map((c) => c.Key ?? '');
}

beforeAll(async () => {
  const e = engines();
  runtime = testRuntime({ clock: systemClock });
  sqs = new SQSClient({ region: e.region, endpoint: e.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  s3 = new S3Client({ region: e.region, endpoint: e.s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  // Small parts, so the 10,000-row file is assembled from many parts (s3rver does not enforce S3's 5 MiB minimum).
  files = createS3ExportFiles({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint }, { partBytes: 64 * 1024 });
  const q = await createQueue(`exports-${randomUUID().slice(0, 8)}`, 60);
  queueUrl = q.url;
  pollers.push(
    startSqsPoller({
      sqsClient: sqs,
      queueUrl,
      handler: makeWorker({ runtime, files }),
      batchSize: 1,
      idleDelayMs: 50,
      logger: silentLogger,
      timeoutSeconds: 60,
    }),
  );
  const poison = await createQueue(`exports-poison-${randomUUID().slice(0, 8)}`, 1);
  dlqUrl = poison.dlq;
  pollers.push(
    startSqsPoller({
      sqsClient: sqs,
      queueUrl: poison.url,
      handler: makeWorker({ runtime, files }),
      batchSize: 1,
      idleDelayMs: 50,
      logger: silentLogger,
      timeoutSeconds: 60,
    }),
  );
  queueUrls.push(poison.url);

  const pair = await newProject(runtime);
  const campaign = await campaignApi(runtime, pair).createCampaign(campaignBodies.LOYALTY_PROGRAM('Points'));
  expect(campaign.status).toBe(200);
  const campaignId = campaign.json.id as string;
  const buckets = bucketsFor(pair.project_id, campaignId);
  await seedBuckets(buckets);
  seeded = { pair, campaignId, campaignName: 'Points', buckets };
}, 60_000);

afterAll(async () => {
  await Promise.all(pollers.map((p) => p.stop()));
  await deleteQueues(sqs, [...new Set(queueUrls)]);
  sqs.destroy();
  s3.destroy();
});

const sqsJobs = (): JobQueue =>
  createSqsJobQueue({ region: engines().region, sqsEndpoint: engines().sqsEndpoint, queueUrls: { [EXPORT_JOBS_QUEUE]: queueUrl } });

describe('points-expiration export', () => {
  it('exports all 10,000 buckets through the queue: SCHEDULED reply, DONE with a download URL, every row, column and the expiry order checked line by line', async () => {
    const api = exportApi(seeded.pair, sqsJobs());
    const reply = await api.create(seeded.campaignId, {});
    expect(reply.status).toBe(200);
    expect(exportReplySchema.parse(reply.json)).toMatchObject({
      object: 'export',
      status: 'SCHEDULED',
      channel: 'API',
      exported_object: 'points_expiration',
      parameters: {},
      result: null,
      user_id: null,
    });
    const id = reply.json.id as string;
    expect(id).toMatch(/^exp_/);
    const done = await waitFinal(api, id);
    expect(exportReplySchema.parse(done)).toMatchObject({ id, status: 'DONE', created_at: reply.json.created_at });
    const url = (done.result as { url: string }).url;
    expect(url).toMatch(new RegExp(`^${DOWNLOAD_BASE}/v1/exports/${id}\\?token=`));
    const csv = await downloadCsv(api, url);
    const expected = expectedCsv(seeded.buckets, ['id', 'campaign_id', 'voucher_id', 'status', 'expires_at', 'points'], false);
    const lines = csv.split('\r\n');
    const expectedLines = expected.split('\r\n');
    expect(lines.length).toBe(expectedLines.length);
    expect(lines.length).toBeGreaterThan(9000);
    for (let i = 0; i < expectedLines.length; i += 1) if (lines[i] !== expectedLines[i]) expect(`${i}: ${lines[i]}`).toBe(`${i}: ${expectedLines[i]}`);
    expect(lines.at(-2)?.split(',')[4]).toBe('');
    expect(await objectKeys(seeded.pair.project_id)).toContain(`exports/${seeded.pair.project_id}/${id}.csv`);
  }, 50_000);

  it('writes only the requested columns in the requested order, newest expiry first, and only the filtered cards (campaign named by its name)', async () => {
    const api = exportApi(seeded.pair, sqsJobs());
    const cards = ['v_card003', 'v_card050', 'v_card077'];
    const parameters = {
      fields: ['points', 'voucher_id', 'expires_at', 'status'],
      order: '-expires_at',
      filters: { junction: 'and', voucher_id: { conditions: { $in: cards } } },
    };
    const reply = await api.create(seeded.campaignName, { parameters });
    expect(reply.status).toBe(200);
    expect(reply.json.parameters).toEqual(parameters);
    const done = await waitFinal(api, reply.json.id as string);
    expect(done.parameters).toEqual(parameters);
    const csv = await downloadCsv(api, (done.result as { url: string }).url);
    expect(csv).toBe(expectedCsv(seeded.buckets, parameters.fields, true, (b) => cards.includes(b.voucherId)));
    expect(csv.split('\r\n')[1]?.split(',')[2]).toBe('');
  }, 30_000);

  it('sorts by points and by -voucher_id through the external sort (500-row chunks, ~20 merged), checked line by line, leaving no temp files', async () => {
    const jobs = new RecordingJobQueue();
    const api = exportApi(seeded.pair, jobs);
    const sortDir = await mkdtemp(join(tmpdir(), 'export-sort-it-'));
    const today = TODAY;
    const status = (b: PointsBucket) => (b.status === 'EXPIRED' || (b.expiresAt !== null && b.expiresAt < today) ? 'EXPIRED' : 'ACTIVE');
    const cell = (b: PointsBucket, f: string): string | number =>
      f === 'points'
        ? b.points
        : f === 'voucher_id'
          ? b.voucherId
          : f === 'status'
            ? status(b)
            : f === 'expires_at'
              ? (b.expiresAt ?? '')
              : f === 'campaign_id'
                ? b.campaignId
                : b.id;
    const byId = (x: PointsBucket, y: PointsBucket) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
    const cases: Array<{
      parameters: Record<string, unknown>;
      fields: string[];
      keep: (b: PointsBucket) => boolean;
      sort: (x: PointsBucket, y: PointsBucket) => number;
    }> = [
      {
        parameters: { fields: ['points', 'id', 'voucher_id'], order: 'points' },
        fields: ['points', 'id', 'voucher_id'],
        keep: () => true,
        sort: (x, y) => x.points - y.points || byId(x, y),
      },
      {
        parameters: { order: '-voucher_id', filters: { status: { conditions: { $is: 'ACTIVE' } } } },
        fields: ['id', 'campaign_id', 'voucher_id', 'status', 'expires_at', 'points'],
        keep: (b) => status(b) === 'ACTIVE',
        sort: (x, y) => -((x.voucherId < y.voucherId ? -1 : x.voucherId > y.voucherId ? 1 : 0) || byId(x, y)),
      },
    ];
    try {
      for (const c of cases) {
        const reply = await api.create(seeded.campaignId, { parameters: c.parameters });
        expect(reply.status).toBe(200);
        const id = reply.json.id as string;
        const done = await runPointsExpirationExport({ ...runtime, files, sort: { chunkRows: 500, tmpDir: sortDir } }, seeded.pair.project_id, id);
        expect(done?.status).toBe('DONE');
        const kept = seeded.buckets.filter((b) => b.status !== 'USED' && c.keep(b)).sort(c.sort);
        expect(kept.length).toBeGreaterThan(2000);
        expect(done?.rowCount).toBe(kept.length);
        const expectedLines = (csvRow(c.fields) + kept.map((b) => csvRow(c.fields.map((f) => cell(b, f)))).join('')).split('\r\n');
        const final = await api.get(id);
        expect(final.json.parameters).toEqual(c.parameters);
        const lines = (await downloadCsv(api, (final.json.result as { url: string }).url)).split('\r\n');
        expect(lines.length).toBe(expectedLines.length);
        for (let i = 0; i < expectedLines.length; i += 1) if (lines[i] !== expectedLines[i]) expect(`${i}: ${lines[i]}`).toBe(`${i}: ${expectedLines[i]}`);
        expect(await readdir(sortDir)).toEqual([]);
      }
    } finally {
      await rm(sortDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('sorts by -points through the queue with the default chunk size (one chunk, in memory)', async () => {
    const api = exportApi(seeded.pair, sqsJobs());
    const reply = await api.create(seeded.campaignId, { parameters: { fields: ['id', 'points'], order: '-points' } });
    expect(reply.status).toBe(200);
    const done = await waitFinal(api, reply.json.id as string);
    expect(done.status).toBe('DONE');
    const kept = seeded.buckets.filter((b) => b.status !== 'USED').sort((x, y) => y.points - x.points || (x.id < y.id ? 1 : x.id > y.id ? -1 : 0));
    const csv = await downloadCsv(api, (done.result as { url: string }).url);
    expect(csv).toBe(csvRow(['id', 'points']) + kept.map((b) => csvRow([b.id, b.points])).join(''));
  }, 30_000);

  it('combines filters with or and with $not_in / $is', async () => {
    const api = exportApi(seeded.pair, sqsJobs());
    const parameters = {
      fields: ['id', 'status'],
      filters: {
        junction: 'or',
        voucher_id: { conditions: { $is: 'v_card001' } },
        status: { conditions: { $in: ['EXPIRED'] } },
        id: { conditions: { $not_in: ['lopb_000001'] } },
      },
    };
    const reply = await api.create(seeded.campaignId, { parameters });
    const done = await waitFinal(api, reply.json.id as string);
    const csv = await downloadCsv(api, (done.result as { url: string }).url);
    expect(csv).toBe(
      expectedCsv(
        seeded.buckets,
        ['id', 'status'],
        false,
        (b) => b.voucherId === 'v_card001' || b.id !== 'lopb_000001' || b.status === 'EXPIRED' || (b.expiresAt !== null && b.expiresAt < TODAY),
      ),
    );
  }, 30_000);

  it('takes the empty lists the reference allows: `$in: []` matches nothing (header-only file), `$not_in: []` excludes nothing, `fields: []` means every field', async () => {
    const api = exportApi(seeded.pair, sqsJobs());
    const card = 'v_card042';
    const keep = (b: PointsBucket): boolean => b.voucherId === card;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ fields: ['id', 'points'], filters: { voucher_id: { conditions: { $in: [] } } } }, csvRow(['id', 'points'])],
      [
        { fields: ['id', 'points'], filters: { voucher_id: { conditions: { $in: [card], $not_in: [] } } } },
        expectedCsv(seeded.buckets, ['id', 'points'], false, keep),
      ],
      [
        { fields: [], filters: { voucher_id: { conditions: { $is: card } } } },
        expectedCsv(seeded.buckets, ['id', 'campaign_id', 'voucher_id', 'status', 'expires_at', 'points'], false, keep),
      ],
    ];
    for (const [parameters, expected] of cases) {
      const reply = await api.create(seeded.campaignId, { parameters });
      expect(reply.status, JSON.stringify(parameters)).toBe(200);
      expect(reply.json.parameters).toEqual(parameters);
      const done = await waitFinal(api, reply.json.id as string);
      expect(done.status).toBe('DONE');
      expect(await downloadCsv(api, (done.result as { url: string }).url), JSON.stringify(parameters)).toBe(expected);
    }
  }, 30_000);

  it('handles the same job twice (at once, then again after DONE): one file, DONE, and the second delivery changes nothing', async () => {
    const jobs = new RecordingJobQueue();
    const api = exportApi(seeded.pair, jobs);
    const reply = await api.create(seeded.campaignId, { parameters: { fields: ['id'], filters: { voucher_id: { conditions: { $in: ['v_card010'] } } } } });
    const id = reply.json.id as string;
    expect(jobs.sent).toEqual([{ type: 'export-points-expiration', projectId: seeded.pair.project_id, exportId: id }]);
    const body = JSON.stringify(jobs.sent[0]);
    const worker = makeWorker({ runtime, files });
    const both = await Promise.all([worker({ Records: [record(body)] }, {} as never), worker({ Records: [record(body)] }, {} as never)]);
    expect(both).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    const first = await api.get(id);
    expect(first.json.status).toBe('DONE');
    const key = `exports/${seeded.pair.project_id}/${id}.csv`;
    const head = await s3.send(new HeadObjectCommand({ Bucket: engines().bucketName, Key: key }));
    await sleep(1100);
    expect(await worker({ Records: [record(body, 2)] }, {} as never)).toEqual({ batchItemFailures: [] });
    const again = await api.get(id);
    expect(again.json).toMatchObject({ status: 'DONE', created_at: first.json.created_at });
    const headAgain = await s3.send(new HeadObjectCommand({ Bucket: engines().bucketName, Key: key }));
    expect(headAgain.LastModified).toEqual(head.LastModified);
    expect((await objectKeys(seeded.pair.project_id)).filter((k) => k.includes(id))).toEqual([key]);
    const csv = await downloadCsv(api, (again.json.result as { url: string }).url);
    expect(csv).toBe(expectedCsv(seeded.buckets, ['id'], false, (b) => b.voucherId === 'v_card010'));
  }, 30_000);

  it('sends a malformed message back (batch failure) and marks the export it names ERROR; a body that is not JSON fails too', async () => {
    const jobs = new RecordingJobQueue();
    const api = exportApi(seeded.pair, jobs);
    const id = (await api.create(seeded.campaignId, {})).json.id as string;
    const poison = record(JSON.stringify({ type: 'export-points-expiration', projectId: seeded.pair.project_id, exportId: id, fields: ['hack'] }));
    const junk = record('{not json');
    const result = await makeWorker({ runtime, files })({ Records: [poison, junk] }, {} as never);
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual([poison.messageId, junk.messageId].sort());
    const failed = await api.get(id);
    expect(failed.json).toMatchObject({ status: 'ERROR', result: { message: expect.stringMatching(/^Malformed job message/) } });
    // A later good delivery cannot move it back.
    await makeWorker({ runtime, files })({ Records: [record(JSON.stringify(jobs.sent[0]))] }, {} as never);
    expect((await api.get(id)).json.status).toBe('ERROR');
  });

  it('moves a poison message to the dead-letter queue after three receives', async () => {
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queueUrls.at(-1) ?? '',
        MessageBody: JSON.stringify({ type: 'export-points-expiration', projectId: 'p', exportId: 'bad id' }),
      }),
    );
    for (let i = 0; i < 100; i += 1) {
      const attrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['ApproximateNumberOfMessages'] }));
      if (Number(attrs.Attributes?.ApproximateNumberOfMessages) > 0) return;
      await sleep(200);
    }
    throw new Error('poison message never reached the dead-letter queue');
  }, 30_000);

  it('aborts the upload when writing fails, retries, and marks the export ERROR with the reason on the last delivery', async () => {
    const jobs = new RecordingJobQueue();
    const api = exportApi(seeded.pair, jobs);
    const id = (await api.create(seeded.campaignId, {})).json.id as string;
    let aborts = 0;
    const failing: ExportFiles = {
      delete: (key) => files.delete(key),
      upload: async (key, options) => {
        const real = await files.upload(key, options);
        return {
          write: async () => Promise.reject(new Error('disk on fire')),
          complete: () => real.complete(),
          abort: async () => {
            aborts += 1;
            await real.abort();
          },
        };
      },
      presignGet: (key, s, now) => files.presignGet(key, s, now),
    };
    const body = JSON.stringify(jobs.sent[0]);
    const early = await makeWorker({ runtime, files: failing })({ Records: [record(body, 1)] }, {} as never);
    expect(early.batchItemFailures).toHaveLength(1);
    expect((await api.get(id)).json.status).toBe('IN_PROGRESS');
    const last = await makeWorker({ runtime, files: failing })({ Records: [record(body, 3)] }, {} as never);
    expect(last.batchItemFailures).toHaveLength(1);
    expect(aborts).toBe(2);
    expect((await api.get(id)).json).toMatchObject({ status: 'ERROR', result: { message: expect.stringContaining('disk on fire') } });
    expect((await objectKeys(seeded.pair.project_id)).filter((k) => k.includes(id))).toEqual([]);
  });

  it('refuses a wrong, tampered, foreign, missing or expired token with 401', async () => {
    const clock = new ManualClock();
    const api = exportApi(seeded.pair, sqsJobs(), { downloadRuntime: testRuntime({ clock }) });
    const id = (await api.create(seeded.campaignId, { parameters: { fields: ['id'], filters: { voucher_id: { conditions: { $in: ['v_card020'] } } } } })).json
      .id as string;
    const url = new URL(((await waitFinal(api, id)).result as { url: string }).url);
    const token = url.searchParams.get('token') ?? '';
    expect((await api.download(id, `token=${enc(token)}`)).status).toBe(200);
    const other = (await api.create(seeded.campaignId, { parameters: { fields: ['id'] } })).json.id as string;
    await waitFinal(api, other);
    const [p, exp, mac] = token.split('.');
    for (const query of ['', 'token=', 'token=nonsense', `token=${enc(`${p}.${Number(exp) + 60}.${mac}`)}`, `token=${enc(`${p}.${exp}.${'A'.repeat(43)}`)}`]) {
      const reply = await api.download(id, query);
      expect(reply.status, query).toBe(401);
      expect(reply.json).toMatchObject({ code: 401, key: 'unauthorized', message: 'Unauthorized' });
    }
    expect((await api.download(other, `token=${enc(token)}`)).status).toBe(401);
    const stranger = await newProject(runtime);
    const foreignProject = `${Buffer.from(stranger.project_id).toString('base64url')}.${exp}.${mac}`;
    expect((await api.download(id, `token=${enc(foreignProject)}`)).status).toBe(401);
    clock.advance(3600 * 1000 + 60_000);
    const expired = await api.download(id, `token=${enc(token)}`);
    expect(expired.status).toBe(401);
    expect(expired.json).toMatchObject({ code: 401, key: 'unauthorized' });
  }, 30_000);

  it('refuses campaigns that are not loyalty programs (400) and unknown campaigns (404), enqueuing nothing', async () => {
    const jobs = new RecordingJobQueue();
    const pair = await newProject(runtime);
    const coupons = await campaignApi(runtime, pair).createCampaign(campaignBodies.DISCOUNT_COUPONS('Coupons'));
    const api = exportApi(pair, jobs);
    const wrong = await api.create(coupons.json.id as string, {});
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ key: 'invalid_campaign', details: expect.stringContaining('DISCOUNT_COUPONS') });
    const missing = await api.create('camp_nope', {});
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ key: 'not_found', resource_type: 'campaign', resource_id: 'camp_nope' });
    // Another project's loyalty campaign is unknown here.
    expect((await api.create(seeded.campaignId, {})).status).toBe(404);
    expect(jobs.sent).toEqual([]);
  });

  it('refuses unknown fields, orders, filter fields, operators and junctions with 400 invalid_payload naming them', async () => {
    const jobs = new RecordingJobQueue();
    const api = exportApi(seeded.pair, jobs);
    const cases: Array<[unknown, RegExp]> = [
      [{ parameters: { fields: ['id', 'code'] } }, /parameters\.fields\.1.*"code"/],
      [{ parameters: { fields: ['id', 'id'] } }, /parameters\.fields must not name a field twice/],
      [{ parameters: { order: 'created_at' } }, /parameters\.order.*"created_at"/],
      [{ parameters: { order: '--points' } }, /parameters\.order.*"--points"/],
      [{ parameters: { order: '-created_at' } }, /parameters\.order/],
      [{ parameters: { filters: { points: { conditions: { $in: ['1'] } } } } }, /parameters\.filters.*points/],
      [{ parameters: { filters: { voucher_id: { conditions: { $like: 'v' } } } } }, /parameters\.filters\.voucher_id\.conditions.*\$like/],
      [{ parameters: { filters: { voucher_id: { conditions: { $in: 'v_1' } } } } }, /parameters\.filters\.voucher_id\.conditions\.\$in/],
      [{ parameters: { filters: { junction: 'xor' } } }, /parameters\.filters\.junction/],
    ];
    for (const [body, details] of cases) {
      const reply = await api.create(seeded.campaignId, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json.key).toBe('invalid_payload');
      expect(reply.json.details, JSON.stringify(body)).toMatch(details);
    }
    expect(jobs.sent).toEqual([]);
  });

  it("answers 404 for an unknown export or another project's", async () => {
    const jobs = new RecordingJobQueue();
    const api = exportApi(seeded.pair, jobs);
    const id = (await api.create(seeded.campaignId, {})).json.id as string;
    expect((await api.get(id)).json).toMatchObject({ id, status: 'SCHEDULED', result: null });
    const missing = await api.get('exp_doesnotexist');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ key: 'not_found', resource_type: 'export', resource_id: 'exp_doesnotexist' });
    const stranger = await newProject(runtime);
    expect((await api.get(id, keyPairHeaders(stranger))).status).toBe(404);
  });
});
