/**
 * Cold start of the job workers per job kind (issue 15 item 6): each worker bundle (deployed
 * esbuild settings, the bundle alone in a folder) is loaded in a fresh `node` process, which then
 * hands it one SQS message of a kind, as Lambda's first invocation does. Two figures per sample:
 * `import()` alone (the bench's item 2 proxy) and `import()` + the first message handled (what
 * a lazily loaded path pays on the first job of its kind). The message names a job that does not
 * exist, against a stub DynamoDB endpoint in this process that answers at once, so the first
 * message costs code loading plus one SDK round trip, the same in every variant.
 *
 * Variants, interleaved round by round (shuffled) so that load from elsewhere falls on all alike:
 *   split     one queue and worker per lane: functions/workers/jobs-worker.ts (generation),
 *             functions/workers/export-jobs-worker.ts (exports, with the S3 client)
 *   lazy      one worker for every kind, export path `await import()`ed
 *             (test/bench/fixtures/lazy-jobs-worker.ts), one file as NodejsFunction deploys it
 *   lazy-chunks  the same with esbuild's code splitting (the export path in its own chunk files):
 *             what the lazy design would give if the deploy bundled with `splitting`, which
 *             NodejsFunction (one `--outfile`) does not
 *   before    (with `--before <tree>`) that tree's functions/workers/jobs-worker.ts, e.g. main
 *             before the change, checked out beside this one with its node_modules
 *   baseline  test/bench/fixtures/baseline-handler.ts (import only)
 *
 *   npx tsx scripts/worker-cold-start.ts [--rounds 15] [--before ../main] [--out results.json]
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { build } from 'esbuild';
import { houseBundling, lambdaExternalModulesFor } from '../infra/constructs/bundling-settings.js';
import { LAMBDA_LIKE_ENV } from '../test/bench/bundles-bench.js';
import { median } from '../test/bench/stats.js';
import { bundleEntry, repoRoot } from './bundles.js';

const run = promisify(execFile);

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '15' }, before: { type: 'string' }, out: { type: 'string' } },
});
const rounds = Number(values.rounds);

const messages = {
  'generate-vouchers': { type: 'generate-vouchers', projectId: 'proj_bench', asyncActionId: 'aa_bench1' },
  'export-points-expiration': { type: 'export-points-expiration', projectId: 'proj_bench', exportId: 'exp_bench1' },
} as const;
type Kind = keyof typeof messages;

/** The lazy fixture with code splitting: the entry and its chunks, written to `folder`; returns the entry's path and all bytes. */
async function writeChunked(entry: string, folder: string): Promise<{ file: string; bytes: number; entryBytes: number }> {
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: { index: join(repoRoot, entry) },
    bundle: true,
    write: false,
    splitting: true,
    outdir: folder,
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    target: houseBundling.target,
    format: houseBundling.format,
    minify: houseBundling.minify,
    mainFields: [...houseBundling.mainFields],
    banner: { js: houseBundling.banner },
    // Either kind: the export worker calls S3.
    external: lambdaExternalModulesFor({ usesS3: true }),
    logLevel: 'silent',
  });
  mkdirSync(folder, { recursive: true });
  let bytes = 0;
  let entryBytes = 0;
  for (const out of result.outputFiles) {
    writeFileSync(out.path, out.contents);
    bytes += out.contents.byteLength;
    if (out.path.endsWith('index.mjs')) entryBytes = out.contents.byteLength;
  }
  return { file: join(folder, 'index.mjs'), bytes, entryBytes };
}

/** A DynamoDB that knows no item: GetItem answers `{}`, a conditional UpdateItem fails its condition. */
async function stubDynamoDb(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      res.setHeader('content-type', 'application/x-amz-json-1.0');
      if (target.endsWith('.UpdateItem')) {
        res.statusCode = 400;
        res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'The conditional request failed' }));
        return;
      }
      res.end('{}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => server.close(() => ok())) };
}

/** One fresh process: ms to import the bundle, and to have handled one message of `kind` (undefined: import only). */
async function coldStart(file: string, kind: Kind | undefined, dynamoUrl: string): Promise<{ importMs: number; firstMs: number }> {
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
    record
      ? `await m.handler({ Records: [${JSON.stringify(record)}] }, { awsRequestId: 'bench', functionName: 'bench', getRemainingTimeInMillis: () => 300000 });`
      : '',
    'process.stdout.write(JSON.stringify({ importMs: imported, firstMs: performance.now() - t }));',
  ].join('\n');
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...LAMBDA_LIKE_ENV, DYNAMODB_ENDPOINT: dynamoUrl },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as { importMs: number; firstMs: number };
}

interface Case {
  variant: string;
  kind: Kind | 'none';
  file: string;
  bytes: number;
}

const dir = mkdtempSync(join(tmpdir(), 'worker-cold-'));
const stub = await stubDynamoDb();
try {
  const write = (name: string, js: Uint8Array): { file: string; bytes: number } => {
    const folder = join(dir, name);
    mkdirSync(folder, { recursive: true });
    const file = join(folder, 'index.mjs');
    writeFileSync(file, js);
    return { file, bytes: js.byteLength };
  };
  const split = {
    'generate-vouchers': write('split-jobs', (await bundleEntry('functions/workers/jobs-worker.ts')).js),
    'export-points-expiration': write('split-export', (await bundleEntry('functions/workers/export-jobs-worker.ts', repoRoot, { usesS3: true })).js),
  };
  const lazy = write('lazy', (await bundleEntry('test/bench/fixtures/lazy-jobs-worker.ts', repoRoot, { usesS3: true })).js);
  const chunked = await writeChunked('test/bench/fixtures/lazy-jobs-worker.ts', join(dir, 'lazy-chunks'));
  process.stderr.write(`lazy-chunks: entry ${(chunked.entryBytes / 1024).toFixed(1)} KiB of ${(chunked.bytes / 1024).toFixed(1)} KiB in all\n`);
  const baseline = write('baseline', (await bundleEntry('test/bench/fixtures/baseline-handler.ts')).js);
  const before = values.before ? write('before', (await bundleEntry('functions/workers/jobs-worker.ts', resolve(values.before))).js) : undefined;
  const kinds = Object.keys(messages) as Kind[];
  const cases: Case[] = [
    { variant: 'baseline', kind: 'none', ...baseline },
    ...kinds.map((kind) => ({ variant: 'split', kind, ...split[kind] })),
    ...kinds.map((kind) => ({ variant: 'lazy', kind, ...lazy })),
    ...kinds.map((kind) => ({ variant: 'lazy-chunks', kind, file: chunked.file, bytes: chunked.bytes })),
    ...(before ? kinds.map((kind) => ({ variant: 'before', kind, ...before })) : []),
  ];
  const samples = cases.map(() => ({ importMs: [] as number[], firstMs: [] as number[] }));
  for (let round = 0; round < rounds; round += 1) {
    process.stderr.write(`round ${round + 1}/${rounds}\n`);
    const order = cases.map((_, i) => i).sort(() => Math.random() - 0.5);
    for (const i of order) {
      const c = cases[i] as Case;
      const s = await coldStart(c.file, c.kind === 'none' ? undefined : c.kind, stub.url);
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
  console.log(`| Variant | Job kind | Bundle | import() median | × baseline | import() + first message median |`);
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.variant} | ${r.kind} | ${(r.bytes / 1024).toFixed(1)} KiB | ${r.importMs.toFixed(1)} ms | ${(r.importMs / base).toFixed(2)} × | ${r.kind === 'none' ? '—' : `${r.firstMs.toFixed(1)} ms`} |`,
    );
  }
  if (values.out)
    writeFileSync(values.out, JSON.stringify({ rounds, baselineMs: base, rows, samples: cases.map((c, i) => ({ ...c, ...samples[i] })) }, null, 2));
} finally {
  await stub.close();
  rmSync(dir, { recursive: true, force: true });
}
