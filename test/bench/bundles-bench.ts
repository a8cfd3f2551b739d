import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Bundle, bundleAll, bundledPackages, bundleEntry, bundleLimitOf, packageBytes, writePackage } from '../../scripts/bundles.js';
import type { BenchContext } from './context.js';
import { check, type Check, type Section } from './report.js';
import { kib, median, ms, ratio } from './stats.js';

const run = promisify(execFile);

const S3_CLIENT = '@aws-sdk/client-s3';
const SQS_CLIENT = '@aws-sdk/client-sqs';

/** What a function's environment holds in AWS, enough for every handler module to load (nothing is called). */
export const LAMBDA_LIKE_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  AWS_REGION: 'eu-central-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SESSION_TOKEN: 'bench',
  TABLE_NAME: 'promo-engine',
  CLUSTER: 'api',
  LOG_LEVEL: 'error',
  BUCKET_NAME: 'promo-engine-exports',
  JOBS_QUEUE_URL: 'https://sqs.eu-central-1.amazonaws.com/000000000000/promo-engine-jobs',
  DOWNLOAD_BASE_URL: 'https://download.example.com/',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/** Loads one module in a fresh Node process and reports how long `import()` took there. */
export async function importMs(file: string): Promise<number> {
  const script = `const t = performance.now(); await import(${JSON.stringify(`file://${file}`)}); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { env: LAMBDA_LIKE_ENV, timeout: 60_000 });
  return Number(stdout);
}

/** Items 1 and 2: bundle sizes and contents, and the cold-start proxy. */
export async function benchBundles(ctx: Pick<BenchContext, 'options' | 'progress'>): Promise<Section[]> {
  const started = Date.now();
  ctx.progress('1. bundling every function with the deployed esbuild settings');
  const bundles = await bundleAll();
  const baseline = await bundleEntry('test/bench/fixtures/baseline-handler.ts');

  const sizeChecks: Check[] = [];
  const contentNotes: string[] = [];
  for (const b of bundles) {
    const limit = bundleLimitOf(b);
    sizeChecks.push(
      check({
        name: `${b.kind} ${b.handler.replace(/^functions\//, '')}`,
        // The whole package against the limit: lazy chunks too (scripts/bundle-sizes.ts holds the cold part to 85 %).
        measured: packageBytes(b),
        unit: 'bytes',
        target: `≤ ${kib(limit)}`,
        bound: limit,
        format: kib,
      }),
    );
  }
  const contentChecks: Check[] = bundles.map((b) => {
    const packages = bundledPackages(b.metafile);
    const stray = [...(!b.usesS3 && packages.has(S3_CLIENT) ? [S3_CLIENT] : []), ...(!b.usesSqs && packages.has(SQS_CLIENT) ? [SQS_CLIENT] : [])];
    const carried = [S3_CLIENT, SQS_CLIENT].filter((p) => packages.has(p));
    if (carried.length > 0) contentNotes.push(`${b.handler} carries ${carried.join(', ')} (uses S3: ${b.usesS3}, SQS: ${b.usesSqs})`);
    return check({
      name: `no unused S3/SQS client: ${b.handler.replace(/^functions\//, '')}`,
      measured: stray.length,
      unit: 'packages',
      target: '0 stray clients',
      bound: 0,
      format: (n) => String(n),
      ...(stray.length > 0 ? { note: `contains ${stray.join(', ')}` } : {}),
    });
  });
  const sizes: Section = {
    item: 1,
    title: 'Bundles (minified, deployed esbuild settings)',
    checks: [...sizeChecks, ...contentChecks.filter((c) => c.pass === false)],
    details: {
      functions: bundles.map((b) => ({
        handler: b.handler,
        kind: b.kind,
        label: b.label,
        bytes: b.bytes,
        lazyBytes: b.lazyBytes,
        mapBytes: b.mapBytes,
        usesS3: b.usesS3,
        usesSqs: b.usesSqs,
      })),
      baselineBytes: baseline.bytes,
      clientContents: contentChecks.map((c) => ({ name: c.name, strayClients: c.measured, pass: c.pass })),
    },
    notes: [
      `S3/SQS client check on the esbuild metafile: ${contentChecks.filter((c) => c.pass).length}/${contentChecks.length} functions carry no client they do not use`,
      ...contentNotes,
    ],
    seconds: (Date.now() - started) / 1000,
  };

  const coldStarted = Date.now();
  const runs = ctx.options.quick ? 3 : 15;
  const dir = mkdtempSync(join(tmpdir(), 'promo-bench-bundles-'));
  try {
    const files = new Map<string, string>();
    // Each package in its own folder (with its chunks, for a handler with lazy chunks), as in Lambda: no node_modules beside it.
    const write = (name: string, bundle: Pick<Bundle, 'js' | 'chunks'>): string => writePackage(join(dir, name.replace(/[^A-Za-z0-9]+/g, '_')), bundle);
    files.set('baseline', write('baseline', baseline));
    for (const b of bundles) files.set(b.handler, write(b.handler, b));
    const samples = new Map<string, number[]>([...files.keys()].map((k) => [k, []]));
    for (let round = 0; round < runs; round += 1) {
      ctx.progress(`2. cold-start proxy: round ${round + 1}/${runs} (${files.size} fresh node processes)`);
      // Shuffled per round so that a burst of load from elsewhere does not always hit the same bundle.
      const order = [...files.keys()].sort(() => Math.random() - 0.5);
      for (const key of order) samples.get(key)?.push(await importMs(files.get(key) ?? ''));
    }
    const base = median(samples.get('baseline') ?? []);
    const checks = bundles.map((b) =>
      check({
        name: `${b.kind} ${b.handler.replace(/^functions\//, '')}`,
        measured: median(samples.get(b.handler) ?? []),
        floor: base,
        unit: 'ms',
        target: '≤ 1.3 × baseline',
        bound: 1.3 * base,
        format: ms,
      }),
    );
    const cold: Section = {
      item: 2,
      title: `Cold-start proxy: median import() in a fresh node process (${runs} runs each)`,
      checks,
      details: {
        runs,
        baselineMs: base,
        baselineBytes: baseline.bytes,
        medians: Object.fromEntries([...samples].map(([k, v]) => [k, median(v)])),
        worstRatio: Math.max(...checks.map((c) => c.measured / base)),
      },
      notes: [
        `baseline = DynamoDB client + lib-dynamodb + middy only (${kib(baseline.bytes)}): ${ms(base)}; worst ratio ${ratio(Math.max(...checks.map((c) => c.measured / base)))}`,
      ],
      seconds: (Date.now() - coldStarted) / 1000,
    };
    return [sizes, cold];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
