import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../lib/clock.js';
import { getCustomerErasure } from '../../../lib/customers/customer-erasure.service.js';
import { csvRow } from '../../../lib/exports/csv.js';
import { exportObjectKey } from '../../../lib/exports/export.js';
import { getExport } from '../../../lib/exports/export.repo.js';
import { createS3ExportFiles } from '../../../lib/exports/s3-export-files.js';
import type { Runtime } from '../../../lib/runtime.js';
import { bundleEntry, staticExternalImports, writePackage } from '../../../scripts/bundles.js';
import { apiClient } from '../../support/api-client.js';
import { RecordingJobQueue } from '../../support/api.js';
import { createOwnTable, type OwnTable } from '../../support/hostile/route-harness.js';
import { invokeBuiltPackage } from '../../support/built-package.js';
import { engines, keyPairHeaders, newProject } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';

const run = promisify(execFile);

/**
 * The export jobs worker as it deploys (LAZY_CHUNK_HANDLERS): `index.mjs` and the chunks it imports statically load at
 * cold start; the S3 client with lib/exports/s3-export-files.ts, an export's rows and the erasure are the lazy chunk
 * (lib/exports/export-lane.lazy.ts) the first job loads (docs/decisions.md "Worker cold start"). The package runs from a folder with no node_modules above
 * it, so a chunk missing from it, or a left-out module it imports, fails the job.
 */
const worker = 'functions/workers/export-jobs-worker.ts';
const folder = mkdtempSync(join(tmpdir(), 'export-worker-bundle-'));
type Built = Awaited<ReturnType<typeof bundleEntry>>;
let bundle: Built;
let table: OwnTable;
let runtime: Runtime;

/** Modules of the lazy paths only (the S3 client, an export's rows, the erasure): none may be in what a cold start loads. */
const LAZY_PATHS =
  /node_modules\/@aws-sdk\/(?:client-s3|middleware-sdk-s3|xml-builder|signature-v4-multi-region)\/|lib\/exports\/(?:s3-export-files|s3-presigner|export-rows|export-sources|external-sort)\.ts$|lib\/customers\/customer-erasure(?:-files|\.job)\.ts$/;

beforeAll(async () => {
  bundle = await bundleEntry(worker, undefined, { usesS3: true });
  table = await createOwnTable('export-worker-bundle');
  // The API's clock a minute behind: the erasure the test asks for has settled by the bundled worker's system clock.
  const behind: Clock = { now: () => new Date(Date.now() - 60_000) };
  runtime = table.runtime({ clock: behind });
}, 120_000);

afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await table?.drop();
});

/** The metafile's outputs of the package's JavaScript files, split by whether a cold start loads them. */
function outputsByLoad(b: Built): { cold: string[]; lazy: string[] } {
  const lazyFiles = new Set(b.chunks.filter((c) => c.lazy).map((c) => c.file));
  const cold: string[] = [];
  const lazy: string[] = [];
  for (const key of Object.keys(b.metafile.outputs)) {
    if (!key.endsWith('.mjs')) continue;
    (lazyFiles.has(key.slice(key.lastIndexOf('/') + 1)) ? lazy : cold).push(key);
  }
  return { cold, lazy };
}

/** Runs the built package's handler once, in a fresh Node process, on an SQS batch of `jobs`. */
async function invoke(jobs: unknown[]): Promise<{ batchItemFailures: unknown[] }> {
  const file = writePackage(join(folder, 'package'), bundle);
  const e = engines();
  return invokeBuiltPackage(
    file,
    { Records: jobs.map((j) => sqsRecord(JSON.stringify(j))) },
    { folder, remainingMs: 60_000, env: { TABLE_NAME: table.tableName, BUCKET_NAME: e.bucketName, S3_ENDPOINT: e.s3Endpoint } },
  );
}

describe('the export jobs worker’s package (LAZY_CHUNK_HANDLERS)', () => {
  it('keeps the S3 client, an export’s rows and the erasure in one lazy chunk, which index.mjs imports by relative URL', () => {
    const lazy = bundle.chunks.filter((c) => c.lazy).map((c) => c.file);
    const lane = lazy.find((f) => /^export-lane\.lazy-\w+\.mjs$/.test(f));
    expect(lane, lazy.join(', ')).toBeDefined();
    expect(new TextDecoder().decode(bundle.js)).toContain(`import("./${lane}")`);

    const outputs = outputsByLoad(bundle);
    const coldInputs = outputs.cold.flatMap((key) => Object.keys(bundle.metafile.outputs[key]?.inputs ?? {}));
    expect(coldInputs.length).toBeGreaterThan(0);
    expect(coldInputs.filter((input) => LAZY_PATHS.test(input))).toEqual([]);
    const laneInputs = Object.keys(bundle.metafile.outputs[outputs.lazy.find((key) => key.endsWith(`/${lane}`)) ?? '']?.inputs ?? {});
    expect(laneInputs.some((input) => input.includes('node_modules/@aws-sdk/client-s3/'))).toBe(true);
    expect(laneInputs).toEqual(
      expect.arrayContaining(['lib/exports/export-rows.ts', 'lib/customers/customer-erasure.job.ts', 'lib/customers/customer-erasure-files.ts']),
    );
    // What a cold start loads: well under the whole package (424 KiB in one file before), in few files (each costs).
    expect(bundle.bytes).toBeLessThan(250 * 1024);
    expect(outputs.cold.length).toBeLessThanOrEqual(4);
    for (const chunk of bundle.chunks) expect(staticExternalImports(chunk.js, bundle.external), chunk.file).toEqual([]);
  });

  it('is reached by no other worker: their job closers and message handling import none of the lazy module', async () => {
    // Built without splitting, a bundle that reached an `import()` of the lane would inline it, S3 client and all.
    for (const other of ['functions/workers/jobs-worker.ts', 'functions/workers/export-jobs-dead-letter-worker.ts']) {
      // What went into its output (the metafile's inputs also list modules reached and tree-shaken to nothing).
      const inputs = Object.values((await bundleEntry(other)).metafile.outputs).flatMap((o) =>
        Object.entries(o.inputs).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : [])),
      );
      expect(
        inputs.filter((input) => input.endsWith('lib/exports/export-lane.lazy.ts') || LAZY_PATHS.test(input)),
        other,
      ).toEqual([]);
    }
  }, 120_000);

  it('loads without its lazy chunks (cold start reads only the entry and its static chunks)', async () => {
    const file = writePackage(join(folder, 'cold-only'), { js: bundle.js, chunks: bundle.chunks.filter((c) => !c.lazy) });
    const script = `const m = await import(${JSON.stringify(`file://${file}`)}); process.stdout.write(typeof m.handler);`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: folder,
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1', TABLE_NAME: 'x', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    expect(stdout).toBe('function');
  });

  it('writes an export file through its lazy chunk, then erases a customer from it the same way', async () => {
    const pair = await newProject(runtime);
    const jobs = new RecordingJobQueue();
    const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
    const ann = await api.call('create-customer', { json: { source_id: 'bundle-ann', email: 'ann@bundle.example' } });
    expect(ann.status).toBe(200);
    expect((await api.call('create-customer', { json: { source_id: 'bundle-bob', email: 'bob@bundle.example' } })).status).toBe(200);
    // Ordered by a column the source does not read in: the external sort runs too.
    const created = await api.call('create-export', {
      json: { exported_object: 'customer', parameters: { fields: ['source_id', 'email'], order: '-source_id' } },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const exportId = created.json.id as string;

    expect(await invoke(jobs.sent.splice(0))).toEqual({ batchItemFailures: [] });

    expect(await getExport(runtime, pair.project_id, exportId)).toMatchObject({ status: 'DONE' });
    const files = createS3ExportFiles({ region: engines().region, bucketName: engines().bucketName, s3Endpoint: engines().s3Endpoint });
    const fileText = async (): Promise<string> => {
      const body = await files.read(exportObjectKey(pair.project_id, exportId));
      if (body === 'missing') return 'missing';
      const parts: Buffer[] = [];
      for await (const piece of body) parts.push(Buffer.from(piece));
      return Buffer.concat(parts).toString('utf8');
    };
    expect(await fileText()).toBe(csvRow(['source_id', 'email']) + csvRow(['bundle-bob', 'bob@bundle.example']) + csvRow(['bundle-ann', 'ann@bundle.example']));

    const customerId = ann.json.id as string;
    expect((await api.call('customer-permanently-deletion', { params: { customerId }, json: {} })).status).toBe(200);
    const erasure = jobs.sent.splice(0);
    expect(erasure).toMatchObject([{ type: 'erase-customer' }]);

    expect(await invoke(erasure)).toEqual({ batchItemFailures: [] });

    expect(await getCustomerErasure(runtime, pair.project_id, customerId)).toMatchObject({ status: 'DONE' });
    const erased = await fileText();
    expect(erased).toContain('bob@bundle.example');
    expect(erased).not.toContain('ann@bundle.example');
    expect(erased).not.toContain('bundle-ann');
  }, 120_000);
});
