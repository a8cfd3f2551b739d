/**
 * Bundles every handler of the route table (and every queue worker) with the settings the
 * deployed functions use, prints the size of each, and fails when a function's package is over its
 * limit (API handlers 400 KiB, workers 600 KiB, lazy chunks included), or an API handler's cold start (its entry and
 * the chunks the entry imports statically) is over the 85 % target (340 KiB): no handler is exempt. A handler with
 * lazy chunks (LAZY_CHUNK_HANDLERS) is printed with them apart, and fails if it has none.
 * Usage: `npm run bundle-sizes` (add `--json` for machine output).
 */
import { API_BUNDLE_LIMIT_BYTES, API_BUNDLE_TARGET_BYTES, WORKER_BUNDLE_LIMIT_BYTES } from '../infra/constructs/bundling-settings.js';
import { bundleAll, bundleLimitOf, lazyChunkBreach, packageBytes, staticExternalImports, targetBreach } from './bundles.js';

const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

const bundles = await bundleAll();
// A module left out of a bundle must only be import()ed when reached: a static import would fail the function's cold start.
const loadsMissing = bundles.flatMap((b) =>
  [{ file: 'index.mjs', js: b.js }, ...b.chunks].flatMap((f) =>
    staticExternalImports(f.js, b.external).map((m) => `${b.handler} (${f.file}) imports ${m}, which its bundle leaves out`),
  ),
);
const results = bundles.map(({ js: _js, metafile: _m, usesS3: _s3, usesSqs: _sqs, external: _e, chunks, ...r }) => ({
  ...r,
  chunks: chunks.map((c) => ({ file: c.file, lazy: c.lazy, bytes: c.js.byteLength })),
}));
const tooBig = results.filter((r) => packageBytes(r) > bundleLimitOf(r));
const breaches = results.flatMap((r) => [targetBreach(r), lazyChunkBreach(r)].flatMap((m) => m ?? []));

if (process.argv.includes('--json')) {
  console.log(
    JSON.stringify(
      { limits: { api: API_BUNDLE_LIMIT_BYTES, apiTarget: API_BUNDLE_TARGET_BYTES, worker: WORKER_BUNDLE_LIMIT_BYTES }, functions: results },
      null,
      2,
    ),
  );
} else {
  const width = Math.max(...results.map((r) => r.label.length));
  for (const r of results) {
    const flag = packageBytes(r) > bundleLimitOf(r) ? `  OVER LIMIT (${kib(bundleLimitOf(r))})` : '';
    const lazy = r.lazyBytes > 0 ? `  + lazy ${kib(r.lazyBytes)} in ${r.chunks.filter((c) => c.lazy).length} chunks` : '';
    console.log(
      `${r.label.padEnd(width)}  ${String(r.bytes).padStart(9)} B  ${kib(r.bytes).padStart(10)}  (map ${kib(r.mapBytes)})  ${r.handler}${lazy}${flag}`,
    );
  }
  console.log(
    `Limits (minified): API handler ${kib(API_BUNDLE_LIMIT_BYTES)} (cold start within ${kib(API_BUNDLE_TARGET_BYTES)}), worker ${kib(WORKER_BUNDLE_LIMIT_BYTES)}; ` +
      'a handler with lazy chunks shows its entry with the chunks it imports statically, then the lazy chunks',
  );
}
if (tooBig.length > 0) {
  console.error(`Over the limit: ${tooBig.map((r) => r.handler).join(', ')}`);
  process.exitCode = 1;
}
if (breaches.length > 0) {
  console.error(breaches.join('\n'));
  process.exitCode = 1;
}
if (loadsMissing.length > 0) {
  console.error(loadsMissing.join('\n'));
  process.exitCode = 1;
}
