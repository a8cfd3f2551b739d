/**
 * Bundles every handler of the route table (and every queue worker) with the settings the
 * deployed functions use, prints the size of each, and fails when a minified bundle is over its
 * limit (API handlers 400 KiB, workers 600 KiB), or an API handler over the 85 % target (340 KiB) that is not named
 * in API_BUNDLES_OVER_TARGET (or named there and back under it). Usage: `npm run bundle-sizes` (add `--json` for machine output).
 */
import { API_BUNDLE_LIMIT_BYTES, WORKER_BUNDLE_LIMIT_BYTES } from '../infra/constructs/bundling-settings.js';
import { bundleAll, bundleLimitOf, staticExternalImports, targetBreach } from './bundles.js';

const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

const bundles = await bundleAll();
// A module left out of a bundle must only be import()ed when reached: a static import would fail the function's cold start.
const loadsMissing = bundles.flatMap((b) => staticExternalImports(b.js, b.external).map((m) => `${b.handler} imports ${m}, which its bundle leaves out`));
const results = bundles.map(({ js: _js, metafile: _m, usesS3: _s3, usesSqs: _sqs, external: _e, ...r }) => r);
const tooBig = results.filter((r) => r.bytes > bundleLimitOf(r));
const breaches = results.flatMap((r) => targetBreach(r) ?? []);

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ limits: { api: API_BUNDLE_LIMIT_BYTES, worker: WORKER_BUNDLE_LIMIT_BYTES }, functions: results }, null, 2));
} else {
  const width = Math.max(...results.map((r) => r.label.length));
  for (const r of results) {
    const flag = r.bytes > bundleLimitOf(r) ? `  OVER LIMIT (${kib(bundleLimitOf(r))})` : '';
    console.log(`${r.label.padEnd(width)}  ${String(r.bytes).padStart(9)} B  ${kib(r.bytes).padStart(10)}  (map ${kib(r.mapBytes)})  ${r.handler}${flag}`);
  }
  console.log(`Limits (minified): API handler ${kib(API_BUNDLE_LIMIT_BYTES)}, worker ${kib(WORKER_BUNDLE_LIMIT_BYTES)}`);
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
