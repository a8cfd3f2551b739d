/**
 * One measurement of item 20 in a process of its own, so its memory is the worker's alone:
 * `worker` runs an export job (any exported object) as the export jobs worker does, sampling RSS and heap;
 * `floor` sends the reads the rows cannot be had without (a `FloorPlan`: the same partition or index
 * in Query pages of 1000, and where that index holds keys only, a BatchGetItem of each 100 keys, side by side),
 * then one upload of the file the worker wrote. Prints one JSON line. Started by exports-all-bench.ts.
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { systemClock } from '../../lib/clock.js';
import { createDocumentClient } from '../../lib/db/client.js';
import { customer, order, publication } from '../../lib/db/entities.js';
import { runExport } from '../../lib/exports/points-expiration-export.js';
import { createS3ExportFiles } from '../../lib/exports/s3-export-files.js';
import { LOCAL_S3_CREDENTIALS } from '../../lib/exports/s3-presigner.js';
import { silentLogger } from '../../lib/logger.js';
// The export worker's lazy chunk, loaded before the clock starts as it was when these modules were static imports: the
// deployed worker loads it (a few ms, compiled JS) during the job's first round trip; here it would be tsx compiling TS
// inside the timed run.
import '../../lib/exports/export-lane.lazy.js';
import { chunked } from './flow-helpers.js';

/** What the floor reads: a partition's items, or keys (an index of keys, a list of entries) then the items they name. */
export type FloorPlan =
  | { kind: 'items'; index: string | null; pkName: string; pk: string }
  | { kind: 'keys'; index: string; pkName: string; pk: string }
  | { kind: 'entries'; pk: string; follow: 'customer' | 'publication' | 'order' };

export interface ExportChildArgs {
  mode: 'worker' | 'floor';
  region: string;
  tableName: string;
  bucketName: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  projectId: string;
  exportId: string;
  objectKey: string;
  plan: FloorPlan;
}

const args = JSON.parse(process.argv[2] ?? '{}') as ExportChildArgs;
const ddb = createDocumentClient({ region: args.region, endpoint: args.dynamoEndpoint });

let peakRss = process.memoryUsage().rss;
let peakHeap = process.memoryUsage().heapUsed;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 5);
const rssBefore = process.memoryUsage().rss;

type Key = { PK: string; SK: string };

const followKey = (follow: 'customer' | 'publication' | 'order', item: Record<string, unknown>): Key => {
  if (follow === 'customer') return customer.key(args.projectId, String(item.customerId)) as Key;
  if (follow === 'publication') return publication.key(args.projectId, String(item.publicationId)) as Key;
  return order.key(args.projectId, String(item.orderId)) as Key;
};

/** The items at `keys`, 100 keys a BatchGetItem, a page's BatchGetItems side by side. */
async function batchGet(keys: Key[]): Promise<number> {
  const counts = await Promise.all(
    chunked(keys, 100).map(async (batch) => {
      let items = 0;
      let pending: Key[] = batch;
      while (pending.length > 0) {
        const res = await ddb.send(new BatchGetCommand({ RequestItems: { [args.tableName]: { Keys: pending, ConsistentRead: true } } }));
        items += res.Responses?.[args.tableName]?.length ?? 0;
        pending = (res.UnprocessedKeys?.[args.tableName]?.Keys ?? []) as Key[];
      }
      return items;
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

async function floorReads(plan: FloorPlan): Promise<number> {
  let items = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb.send(
      new QueryCommand({
        TableName: args.tableName,
        ...(plan.kind !== 'entries' && plan.index ? { IndexName: plan.index } : {}),
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': plan.kind === 'entries' ? 'PK' : plan.pkName },
        ExpressionAttributeValues: { ':pk': plan.pk },
        ScanIndexForward: false,
        Limit: 1000,
        ExclusiveStartKey: start,
      }),
    );
    const page = res.Items ?? [];
    if (plan.kind === 'items') items += page.length;
    else if (plan.kind === 'keys') items += await batchGet(page.map((i) => ({ PK: String(i.PK), SK: String(i.SK) })));
    else items += await batchGet(page.map((i) => followKey(plan.follow, i)));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

if (args.mode === 'worker') {
  const files = createS3ExportFiles({ region: args.region, bucketName: args.bucketName, s3Endpoint: args.s3Endpoint });
  const t = performance.now();
  const result = await runExport({ ddb, tableName: args.tableName, clock: systemClock, logger: silentLogger, files }, args.projectId, args.exportId);
  const ms = performance.now() - t;
  clearInterval(sampler);
  // What the run keeps, where the child was started with --expose-gc: a full collection first.
  (globalThis as { gc?: () => void }).gc?.();
  const heapKept = process.memoryUsage().heapUsed;
  process.stdout.write(`${JSON.stringify({ ms, rows: result?.rowCount ?? null, status: result?.status ?? null, rssBefore, peakRss, peakHeap, heapKept })}\n`);
} else {
  const s3 = new S3Client({ region: args.region, endpoint: args.s3Endpoint, forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS });
  const file = await s3.send(new GetObjectCommand({ Bucket: args.bucketName, Key: args.objectKey }));
  const bytes = await file.Body?.transformToByteArray();
  if (!bytes) throw new Error(`no file at ${args.objectKey}`);
  const t = performance.now();
  const items = await floorReads(args.plan);
  const queryMs = performance.now() - t;
  // A client of its own, as cold as the worker's: the one above has been warmed by the download.
  const uploader = new S3Client({ region: args.region, endpoint: args.s3Endpoint, forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS });
  const u = performance.now();
  await uploader.send(new PutObjectCommand({ Bucket: args.bucketName, Key: `${args.objectKey}.floor`, Body: bytes, ContentType: 'text/csv' }));
  const uploadMs = performance.now() - u;
  clearInterval(sampler);
  process.stdout.write(`${JSON.stringify({ ms: queryMs + uploadMs, queryMs, uploadMs, items, bytes: bytes.byteLength, rssBefore, peakRss, peakHeap })}\n`);
}
ddb.destroy();
