import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { HANDLER_METADATA_KEY, HouseFunction, functionLogGroup } from '../../infra/constructs/house-function.js';
import { type BundleRequest, buildAllSync, HandlerBundles } from '../../infra/constructs/handler-bundles.js';
import { cdkJsonContext } from './infra-support.js';

// Handlers of their own, in a folder of their own: tiny, so the esbuild builds here take milliseconds.
const root = mkdtempSync(join(tmpdir(), 'promo-handler-bundles-'));
const handlerA = 'functions/a.ts';
const handlerB = 'functions/b.ts';
const writeHandler = (file: string, reply: string): void => {
  writeFileSync(join(root, file), `export const handler = async () => ${JSON.stringify(reply)};\n`);
};
writeFileSync(join(root, 'package.json'), '{"type":"module"}');
mkdirSync(join(root, 'functions'));
writeHandler(handlerA, 'a');
writeHandler(handlerB, 'b');
// A handler with a path taken only sometimes, `import()`ed: built with lazy chunks, that path is a file of its own.
const handlerLazy = 'functions/lazy.ts';
writeFileSync(join(root, handlerLazy), `export const handler = async (event) => (event.rare ? (await import('./rare.js')).rare(event.rare) : 'common');\n`);
writeFileSync(join(root, 'functions/rare.ts'), `export const rare = (n: number): string => 'rare path '.concat(String(n * 2));\n`);

afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Synthesized {
  bundles: HandlerBundles;
  outdir: string;
  /** Per stack, handler → S3 key of its function's asset. */
  keys: Map<string, Map<string, string>>;
  templates: Map<string, Template>;
}

/** Two regions' stacks, each with a function per handler, all fed by one HandlerBundles, synthesized to a fresh folder. */
function synth(handlers: readonly BundleRequest[], options: { bundling?: boolean } = {}): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'promo-handler-bundles-out-'));
  const context = { ...cdkJsonContext(), ...(options.bundling === false ? { 'aws:cdk:bundling-stacks': [] } : {}) };
  const app = new App({ outdir, context, builtinCloudFormationValidation: false });
  const bundles = new HandlerBundles(root, () => handlers);
  const stacks = ['eu-central-1', 'us-east-1'].map((region) => {
    const stack = new Stack(app, `Functions-${region}`, { env: { account: '111111111111', region } });
    const logGroup = functionLogGroup(stack, 'Logs', 7);
    handlers.forEach((h, i) => {
      new HouseFunction(stack, `Fn${i}`, {
        handlerFile: h.handler,
        usesS3: h.usesS3,
        description: h.handler,
        environment: {},
        timeout: Duration.seconds(10),
        memorySize: 1024,
        logGroup,
        bundles,
        ...(h.lazyChunks === undefined ? {} : { lazyChunks: h.lazyChunks }),
      });
    });
    return stack;
  });
  app.synth();
  const keys = new Map<string, Map<string, string>>();
  const templates = new Map<string, Template>();
  for (const stack of stacks) {
    const template = Template.fromStack(stack);
    templates.set(stack.stackName, template);
    const functions = Object.values(template.findResources('AWS::Lambda::Function')) as {
      Properties: { Code: { S3Key: string } };
      Metadata: Record<string, string>;
    }[];
    keys.set(stack.stackName, new Map(functions.map((f) => [f.Metadata[HANDLER_METADATA_KEY] as string, f.Properties.Code.S3Key])));
  }
  return { bundles, outdir, keys, templates };
}

const assetDirOf = (outdir: string, s3Key: string): string => join(outdir, `asset.${s3Key.replace(/\.zip$/, '')}`);

describe('HouseFunction packages (one esbuild build per synthesis)', () => {
  const requests: BundleRequest[] = [
    { handler: handlerA, usesS3: false },
    { handler: handlerB, usesS3: true },
  ];

  it('builds every bundle once for all stacks, and packages exactly the bytes buildAll makes (bundle-sizes measures the same)', () => {
    const { bundles, outdir, keys, templates } = synth(requests);
    expect(bundles.builds).toBe(1);
    const [eu, us] = [...keys.values()];
    expect(eu).toEqual(us);
    expect(eu?.get(handlerA)).not.toBe(eu?.get(handlerB));
    const expected = buildAllSync(requests, root);
    for (const built of expected) {
      const dir = assetDirOf(outdir, eu?.get(built.handler) ?? '');
      expect(readFileSync(join(dir, 'index.mjs')).equals(Buffer.from(built.js)), built.handler).toBe(true);
      expect(readFileSync(join(dir, 'index.mjs.map')).equals(Buffer.from(built.map)), built.handler).toBe(true);
    }
    for (const template of templates.values()) {
      for (const fn of Object.values(template.findResources('AWS::Lambda::Function'))) {
        expect(fn.Properties).toMatchObject({
          Handler: 'index.handler',
          Runtime: 'nodejs22.x',
          Architectures: ['arm64'],
          TracingConfig: { Mode: 'Active' },
          Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } },
        });
      }
    }
    rmSync(outdir, { recursive: true, force: true });
  });

  it("changes a function's asset exactly when its bundle changes", () => {
    const before = synth(requests);
    writeHandler(handlerA, 'a, changed');
    const changed = synth(requests);
    writeHandler(handlerA, 'a');
    const back = synth(requests);
    const key = (s: Synthesized, handler: string): string | undefined => [...s.keys.values()][0]?.get(handler);
    expect(key(changed, handlerA)).not.toBe(key(before, handlerA));
    expect(key(changed, handlerB)).toBe(key(before, handlerB));
    expect(key(back, handlerA)).toBe(key(before, handlerA));
    for (const s of [before, changed, back]) rmSync(s.outdir, { recursive: true, force: true });
  });

  it('runs no build when CDK skips bundling (the infra tests)', () => {
    const { bundles, outdir } = synth(requests, { bundling: false });
    expect(bundles.builds).toBe(0);
    rmSync(outdir, { recursive: true, force: true });
  });

  it('builds a handler outside the plan when a function asks for it', () => {
    const bundles = new HandlerBundles(root, () => [requests[0] as BundleRequest]);
    expect(bundles.get({ handler: handlerB, usesS3: false }).js.byteLength).toBeGreaterThan(0);
    expect(bundles.get({ handler: handlerA, usesS3: false }).js.byteLength).toBeGreaterThan(0);
    expect(bundles.builds).toBe(1);
  });

  it('builds more than 16 MiB of bundles without worker threads (ESBUILD_WORKER_THREADS=0): the bundles travel as files, not through a pipe', () => {
    writeFileSync(join(root, 'functions/large.ts'), `export const handler = async () => ${JSON.stringify('x'.repeat(17 * 1024 * 1024))};\n`);
    const script = `import { buildAllSync } from ${JSON.stringify(join(import.meta.dirname, '../../infra/constructs/handler-bundles.ts'))};
      const [b] = buildAllSync([{ handler: 'functions/large.ts', usesS3: false }], ${JSON.stringify(root)});
      process.stdout.write(String(b.js.byteLength));`;
    const { ESBUILD_MAX_BUFFER: _unset, ...env } = process.env;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...env, ESBUILD_WORKER_THREADS: '0' },
      encoding: 'utf8',
    });
    expect(Number(out)).toBeGreaterThan(17 * 1024 * 1024);
  }, 120_000);

  it('packages a handler with lazy chunks with its chunk files, and the built entry loads the lazy path from beside it', () => {
    const lazy: BundleRequest = { handler: handlerLazy, usesS3: false, lazyChunks: true };
    const { bundles, outdir, keys } = synth([...requests, lazy]);
    // Still one esbuild process for the whole app: the handler with lazy chunks is one more build in it.
    expect(bundles.builds).toBe(1);
    const [eu, us] = [...keys.values()];
    expect(eu).toEqual(us);
    const dir = assetDirOf(outdir, eu?.get(handlerLazy) ?? '');
    const files = readdirSync(dir).sort();
    const chunk = files.find((f) => /^rare-\w+\.mjs$/.test(f));
    expect(chunk, files.join(', ')).toBeDefined();
    expect(files).toEqual(['index.mjs', 'index.mjs.map', chunk, `${chunk}.map`].sort());
    const built = bundles.get(lazy);
    expect(built.chunks.map((c) => ({ file: c.file, lazy: c.lazy }))).toEqual([{ file: chunk, lazy: true }]);
    expect(readFileSync(join(dir, chunk ?? '')).equals(Buffer.from(built.chunks[0]?.js ?? new Uint8Array()))).toBe(true);
    // The other functions' packages hold no chunk: their builds did not split.
    for (const h of requests) expect(readdirSync(assetDirOf(outdir, eu?.get(h.handler) ?? '')).sort()).toEqual(['index.mjs', 'index.mjs.map']);

    // The built files, not the source: the asset folder is copied where nothing else is, and run in a fresh Node.
    const alone = mkdtempSync(join(tmpdir(), 'promo-handler-bundles-lazy-'));
    for (const f of files) writeFileSync(join(alone, f), readFileSync(join(dir, f)));
    const script = `const { handler } = await import(${JSON.stringify(`file://${join(alone, 'index.mjs')}`)});
      process.stdout.write(JSON.stringify([await handler({}), await handler({ rare: 21 })]));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: alone, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(['common', 'rare path 42']);
    // Without its chunk, the entry still loads and serves the common path; the rare one needs the file.
    rmSync(join(alone, chunk ?? ''));
    const without = `const { handler } = await import(${JSON.stringify(`file://${join(alone, 'index.mjs')}`)});
      process.stdout.write(await handler({}));
      await handler({ rare: 1 }).then(() => process.stdout.write(' rare'), () => process.stdout.write(' no rare'));`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', without], { cwd: alone, encoding: 'utf8' })).toBe('common no rare');
    rmSync(alone, { recursive: true, force: true });
    rmSync(outdir, { recursive: true, force: true });
  });
});
