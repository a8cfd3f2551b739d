/**
 * Cold start of the job workers per job kind (issue 15 item 6; issue 34 for the export worker's lazy chunks): each
 * worker's package as it deploys (infra/constructs/handler-bundles.ts: `index.mjs` and its chunk files, alone in a
 * folder) is loaded in a fresh `node` process, which then hands it one SQS message of a kind, as Lambda's first
 * invocation does. Two figures per sample: `import()` alone (the bench's item 2 proxy) and `import()` + the first
 * message handled (what a lazily loaded path pays on the first job of its kind).
 *
 * The messages run against a stub in this process that plays DynamoDB and S3 (`--latency` ms before each answer, 0 by
 * default; AWS in-region is a few ms): `export` names a SCHEDULED export with no rows, so the job moves it to
 * IN_PROGRESS, queries its source, uploads the CSV header (S3 PutObject, through the export worker's S3 chunk) and
 * finishes it; `erase-customer` names an erasure past its table walk with no export files (the erasure's file-stage
 * chunk, no S3 call); `generate-vouchers` names no action (the jobs worker's first message: code loading plus one
 * round trip).
 *
 * Variants, interleaved round by round (shuffled) so that load from elsewhere falls on all alike:
 *   baseline            test/bench/fixtures/baseline-handler.ts (import only)
 *   jobs-worker         functions/workers/jobs-worker.ts (generate-vouchers)
 *   export-jobs-worker  functions/workers/export-jobs-worker.ts as deployed (lazy chunks: LAZY_CHUNK_HANDLERS)
 *   before              (with `--before <tree>`) that tree's export-jobs-worker.ts in one file, without lazy chunks,
 *                       e.g. main before a change, checked out beside this one with its node_modules
 *
 *   npx tsx scripts/worker-cold-start.ts [--rounds 15] [--latency 0] [--before ../main] [--out results.json]
 *
 * Issue 15's one-worker fixtures (test/bench/fixtures/lazy-jobs-worker.ts, with and without splitting) are no longer
 * measured here: docs/decisions.md "Worker cold start" keeps their figures.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { marshall } from '@aws-sdk/util-dynamodb';
import { customerErasure, exportRecord } from '../lib/db/entities.js';
import type { Item } from '../lib/db/entity.js';
import { LAMBDA_LIKE_ENV } from '../test/bench/bundles-bench.js';
import { median } from '../test/bench/stats.js';
import { bundleEntry, repoRoot, writePackage } from './bundles.js';

const run = promisify(execFile);

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    latency: { type: 'string', default: '0' },
    before: { type: 'string' },
    out: { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const latencyMs = Number(values.latency);

const PROJECT = 'proj_bench';
const EXPORT_ID = 'exp_bench1';
const CUSTOMER_ID = 'cust_bench1';
const BUCKET = 'bench-bucket';
const AT = '2026-01-01T00:00:00.000Z';

const messages = {
  'generate-vouchers': { type: 'generate-vouchers', projectId: PROJECT, asyncActionId: 'aa_bench1' },
  export: { type: 'export', projectId: PROJECT, exportId: EXPORT_ID },
  'erase-customer': { type: 'erase-customer', projectId: PROJECT, customerId: CUSTOMER_ID },
} as const;
type Kind = keyof typeof messages;

/** The items the stub knows, by their key: an export with no rows to write, an erasure whose table walk has ended. */
function knownItems(): Map<string, Item> {
  const exported = exportRecord.toItem({
    id: EXPORT_ID,
    projectId: PROJECT,
    exportedObject: 'customer',
    channel: 'API',
    status: 'IN_PROGRESS',
    parameters: {},
    campaignId: null,
    voucherId: null,
    fields: ['id', 'source_id'],
    orderBy: '-created_at',
    ascending: false,
    filters: { junction: 'and', conditions: {} },
    createdByAppId: null,
    downloadSecret: 'bench',
    objectKey: `exports/${PROJECT}/${EXPORT_ID}.csv`,
    rowCount: null,
    failure: null,
    createdAt: AT,
    updatedAt: AT,
    finishedAt: null,
  });
  const erasure = customerErasure.toItem({
    id: 'del_bench1',
    projectId: PROJECT,
    customerId: CUSTOMER_ID,
    createdAt: AT,
    updatedAt: AT,
    status: 'IN_PROGRESS',
    counts: { events: 0, customerEvents: 0, dailyEvents: 0, segments: 0, orders: 0, orderEvents: 0, customer: 1 },
    personal: { customerId: CUSTOMER_ID, values: ['ann@bench.example'], identifying: ['ann@bench.example'] },
    walkEndedAt: AT,
  });
  return new Map([exported, erasure].map((item) => [`${String(item.PK)}|${String(item.SK)}`, item]));
}

/**
 * DynamoDB (by `x-amz-target`) and S3 (anything else) on one port. GetItem and UpdateItem find the known items (an
 * UpdateItem of another fails its condition, as for a subject that does not exist), a transaction succeeds, a Query
 * or Scan reads nothing; S3 accepts every object.
 */
async function stubAws(): Promise<{ url: string; close: () => Promise<void> }> {
  const items = knownItems();
  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (b: Buffer) => body.push(b));
    req.on('end', () => {
      setTimeout(() => {
        const target = String(req.headers['x-amz-target'] ?? '');
        if (!target) {
          res.setHeader('etag', '"bench"');
          res.end();
          return;
        }
        res.setHeader('content-type', 'application/x-amz-json-1.0');
        const input = body.length ? (JSON.parse(Buffer.concat(body).toString('utf8')) as { Key?: { PK?: { S?: string }; SK?: { S?: string } } }) : {};
        const item = items.get(`${input.Key?.PK?.S ?? ''}|${input.Key?.SK?.S ?? ''}`);
        if (target.endsWith('.GetItem')) {
          res.end(JSON.stringify(item ? { Item: marshall(item, { removeUndefinedValues: true }) } : {}));
        } else if (target.endsWith('.UpdateItem')) {
          if (item) res.end(JSON.stringify({ Attributes: marshall(item, { removeUndefinedValues: true }) }));
          else {
            res.statusCode = 400;
            res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'The conditional request failed' }));
          }
        } else if (target.endsWith('.Query') || target.endsWith('.Scan')) {
          res.end(JSON.stringify({ Items: [], Count: 0, ScannedCount: 0 }));
        } else res.end('{}');
      }, latencyMs);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(() => ok())) };
}

/** One fresh process: ms to import the package, and to have handled one message of `kind` (undefined: import only). */
async function coldStart(file: string, kind: Kind | undefined, awsUrl: string): Promise<{ importMs: number; firstMs: number; failures: number }> {
  const record = kind && {
    messageId: 'm1',
    receiptHandle: 'r1',
    body: JSON.stringify(messages[kind]),
    attributes: { ApproximateReceiveCount: '1' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-central-1:000000000000:bench',
    awsRegion: 'eu-central-1',
  };
  const script = [
    'const t = performance.now();',
    `const m = await import(${JSON.stringify(`file://${file}`)});`,
    'const imported = performance.now() - t;',
    'let failures = 0;',
    record
      ? `failures = (await m.handler({ Records: [${JSON.stringify(record)}] }, { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 300000 })).batchItemFailures.length;`
      : '',
    'process.stdout.write(JSON.stringify({ importMs: imported, firstMs: performance.now() - t, failures }));',
  ].join('\n');
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...LAMBDA_LIKE_ENV, DYNAMODB_ENDPOINT: awsUrl, S3_ENDPOINT: awsUrl, BUCKET_NAME: BUCKET, LOG_LEVEL: 'error' },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as { importMs: number; firstMs: number; failures: number };
}

interface Case {
  variant: string;
  kind: Kind | 'none';
  file: string;
  /** What a cold start loads (the entry and the chunks it imports statically). */
  bytes: number;
  lazyBytes: number;
}

const dir = mkdtempSync(join(tmpdir(), 'worker-cold-'));
const stub = await stubAws();
try {
  const pack = async (name: string, entry: string, root: string, fn: { usesS3: boolean; lazyChunks?: boolean }) => {
    const built = await bundleEntry(entry, root, fn);
    return { file: writePackage(join(dir, name), built), bytes: built.bytes, lazyBytes: built.lazyBytes };
  };
  const exportWorker = 'functions/workers/export-jobs-worker.ts';
  const exportKinds: Kind[] = ['export', 'erase-customer'];
  const baseline = await pack('baseline', 'test/bench/fixtures/baseline-handler.ts', repoRoot, { usesS3: false });
  const jobs = await pack('jobs-worker', 'functions/workers/jobs-worker.ts', repoRoot, { usesS3: false });
  const exports = await pack('export-jobs-worker', exportWorker, repoRoot, { usesS3: true });
  const before = values.before ? await pack('before', exportWorker, resolve(values.before), { usesS3: true, lazyChunks: false }) : undefined;
  const cases: Case[] = [
    { variant: 'baseline', kind: 'none', ...baseline },
    { variant: 'jobs-worker', kind: 'none', ...jobs },
    { variant: 'jobs-worker', kind: 'generate-vouchers', ...jobs },
    ...(['none', ...exportKinds] as const).map((kind) => ({ variant: 'export-jobs-worker', kind, ...exports })),
    ...(before ? (['none', ...exportKinds] as const).map((kind) => ({ variant: 'before', kind, ...before })) : []),
  ];
  const samples = cases.map(() => ({ importMs: [] as number[], firstMs: [] as number[] }));
  for (let round = 0; round < rounds; round += 1) {
    process.stderr.write(`round ${round + 1}/${rounds}\n`);
    const order = cases.map((_, i) => i).sort(() => Math.random() - 0.5);
    for (const i of order) {
      const c = cases[i] as Case;
      const s = await coldStart(c.file, c.kind === 'none' ? undefined : c.kind, stub.url);
      // generate-vouchers names no action: its message is reported failed, as a job for an unknown subject is.
      if (s.failures > 0 && c.kind !== 'generate-vouchers') throw new Error(`${c.variant} ${c.kind}: the first message failed`);
      samples[i]?.importMs.push(s.importMs);
      samples[i]?.firstMs.push(s.firstMs);
    }
  }
  const base = median(samples[0]?.importMs ?? []);
  const rows = cases.map((c, i) => ({
    ...c,
    file: undefined,
    importMs: median(samples[i]?.importMs ?? []),
    firstMs: median(samples[i]?.firstMs ?? []),
  }));
  console.log(`${rounds} rounds, stub latency ${latencyMs} ms`);
  console.log(`| Variant | Job kind | Cold start (+ lazy) | import() median | × baseline | import() + first message median |`);
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    const size = `${(r.bytes / 1024).toFixed(1)} KiB${r.lazyBytes ? ` (+ ${(r.lazyBytes / 1024).toFixed(1)})` : ''}`;
    console.log(
      `| ${r.variant} | ${r.kind} | ${size} | ${r.importMs.toFixed(1)} ms | ${(r.importMs / base).toFixed(2)} × | ${r.kind === 'none' ? '—' : `${r.firstMs.toFixed(1)} ms`} |`,
    );
  }
  if (values.out)
    writeFileSync(values.out, JSON.stringify({ rounds, latencyMs, baselineMs: base, rows, samples: cases.map((c, i) => ({ ...c, ...samples[i] })) }, null, 2));
} finally {
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
}
