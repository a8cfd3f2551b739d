/**
 * buildAllSync's worker: CDK builds constructs synchronously, and esbuild runs plugins (pure-schemas.ts)
 * only in its asynchronous API, so synth runs buildAll here, in a child process it waits for. Reads
 * `{ requests, root, outdir }` as JSON on stdin, writes each bundle and map (and its chunks') under `outdir`, and
 * prints a manifest of where (plus each bundle's metafile) as JSON on stdout.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BundleRequest, buildAll, type ChildManifest } from './handler-bundles.js';

const { requests, root, outdir } = JSON.parse(readFileSync(0, 'utf8')) as { requests: BundleRequest[]; root: string; outdir: string };
const built = await buildAll(requests, root);
const manifest: ChildManifest = built.map(({ js, map, chunks, ...b }, i) => {
  const dir = join(outdir, String(i));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'js'), js);
  writeFileSync(join(dir, 'map'), map);
  chunks.forEach((c, j) => {
    writeFileSync(join(dir, `${j}.js`), c.js);
    writeFileSync(join(dir, `${j}.map`), c.map);
  });
  return { ...b, dir, chunks: chunks.map((c) => ({ file: c.file, lazy: c.lazy })) };
});
process.stdout.write(JSON.stringify(manifest));
