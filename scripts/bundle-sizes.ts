/**
 * Bundles every handler of the route table (and every queue worker) with the settings the
 * deployed functions use, prints the size of each, and fails when a minified bundle is over its
 * limit (API handlers 400 KiB, workers 600 KiB). Usage: `npm run bundle-sizes` (add `--json` for machine output).
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import { API_BUNDLE_LIMIT_BYTES, houseBundling, lambdaExternalModules, WORKER_BUNDLE_LIMIT_BYTES } from '../infra/constructs/bundling-settings.js';
import { fallbackRoute, routes } from '../infra/routes.js';
import { workers } from '../infra/workers.js';

const root = join(import.meta.dirname, '..');

interface Target {
  kind: 'api' | 'worker';
  label: string;
  handler: string;
}

interface Measured extends Target {
  bytes: number;
  mapBytes: number;
}

function targets(): Target[] {
  const byHandler = new Map<string, Target>();
  for (const route of [...routes, fallbackRoute]) {
    const label = route === fallbackRoute ? '$default' : `${route.method} ${route.path}`;
    byHandler.set(route.handler, { kind: 'api', label, handler: route.handler });
  }
  for (const worker of workers) byHandler.set(worker.handler, { kind: 'worker', label: `worker ${worker.name}`, handler: worker.handler });
  return [...byHandler.values()];
}

async function measure(target: Target): Promise<Measured> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, target.handler)],
    bundle: true,
    write: false,
    outfile: join(root, 'cdk.out', 'bundle-sizes', 'index.mjs'),
    platform: 'node',
    target: houseBundling.target,
    format: houseBundling.format,
    minify: houseBundling.minify,
    sourcemap: houseBundling.sourceMap,
    sourcesContent: houseBundling.sourcesContent,
    mainFields: [...houseBundling.mainFields],
    banner: { js: houseBundling.banner },
    external: [...lambdaExternalModules],
    logLevel: 'silent',
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.mjs'));
  const map = result.outputFiles.find((f) => f.path.endsWith('.map'));
  if (!js) throw new Error(`esbuild produced no bundle for ${target.handler}`);
  return { ...target, bytes: js.contents.byteLength, mapBytes: map?.contents.byteLength ?? 0 };
}

const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

const results = await Promise.all(targets().map(measure));
const limitOf = (r: Target): number => (r.kind === 'api' ? API_BUNDLE_LIMIT_BYTES : WORKER_BUNDLE_LIMIT_BYTES);
const tooBig = results.filter((r) => r.bytes > limitOf(r));

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ limits: { api: API_BUNDLE_LIMIT_BYTES, worker: WORKER_BUNDLE_LIMIT_BYTES }, functions: results }, null, 2));
} else {
  const width = Math.max(...results.map((r) => r.label.length));
  for (const r of results) {
    const flag = r.bytes > limitOf(r) ? `  OVER LIMIT (${kib(limitOf(r))})` : '';
    console.log(`${r.label.padEnd(width)}  ${String(r.bytes).padStart(9)} B  ${kib(r.bytes).padStart(10)}  (map ${kib(r.mapBytes)})  ${r.handler}${flag}`);
  }
  console.log(`Limits (minified): API handler ${kib(API_BUNDLE_LIMIT_BYTES)}, worker ${kib(WORKER_BUNDLE_LIMIT_BYTES)}`);
}
if (tooBig.length > 0) {
  console.error(`Over the limit: ${tooBig.map((r) => r.handler).join(', ')}`);
  process.exitCode = 1;
}
