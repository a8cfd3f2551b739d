/**
 * One export measurement in a process of its own, so its memory is the worker's alone:
 * `worker` runs the points-expiration export job as the jobs worker does, sampling RSS;
 * `floor` times the same paginated Query and one upload of the file the worker wrote.
 * Prints one JSON line. Started by export-bench.ts with `node --import tsx`.
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { systemClock } from '../../lib/clock.js';
import { createDocumentClient } from '../../lib/db/client.js';
import { keys } from '../../lib/db/keys.js';
import { runPointsExpirationExport } from '../../lib/exports/points-expiration-export.js';
import { createS3ExportFiles } from '../../lib/exports/s3-export-files.js';
import { LOCAL_S3_CREDENTIALS } from '../../lib/exports/s3-presigner.js';
import { silentLogger } from '../../lib/logger.js';
// The export worker's lazy chunk, loaded before the clock starts as it was when these modules were static imports: the
// deployed worker loads it (a few ms, compiled JS) during the job's first round trip; here it would be tsx compiling TS
// inside the timed run.
import '../../lib/exports/export-lane.lazy.js';

interface ChildArgs {
  mode: 'worker' | 'floor';
  region: string;
  tableName: string;
  bucketName: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
  projectId: string;
  campaignId: string;
  exportId: string;
  objectKey: string;
}

const args = JSON.parse(process.argv[2] ?? '{}') as ChildArgs;
const ddb = createDocumentClient({ region: args.region, endpoint: args.dynamoEndpoint });

let peakRss = process.memoryUsage().rss;
let peakHeap = process.memoryUsage().heapUsed;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 5);
const rssBefore = process.memoryUsage().rss;

if (args.mode === 'worker') {
  const files = createS3ExportFiles({ region: args.region, bucketName: args.bucketName, s3Endpoint: args.s3Endpoint });
  const t = performance.now();
  const result = await runPointsExpirationExport(
    { ddb, tableName: args.tableName, clock: systemClock, logger: silentLogger, files },
    args.projectId,
    args.exportId,
  );
  const ms = performance.now() - t;
  clearInterval(sampler);
  process.stdout.write(`${JSON.stringify({ ms, rows: result?.rowCount ?? null, status: result?.status ?? null, rssBefore, peakRss, peakHeap })}\n`);
} else {
  const s3 = new S3Client({ region: args.region, endpoint: args.s3Endpoint, forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS });
  const file = await s3.send(new GetObjectCommand({ Bucket: args.bucketName, Key: args.objectKey }));
  const bytes = await file.Body?.transformToByteArray();
  if (!bytes) throw new Error(`no file at ${args.objectKey}`);
  const t = performance.now();
  let items = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await ddb.send(
      new QueryCommand({
        TableName: args.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.campaignBucketsPartition(args.projectId, args.campaignId) },
        Limit: 1000,
        ExclusiveStartKey: start,
      }),
    );
    items += res.Items?.length ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
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
