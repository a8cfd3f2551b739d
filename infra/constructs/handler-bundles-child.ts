/**
 * buildAllSync's worker: CDK builds constructs synchronously, and esbuild runs plugins (pure-schemas.ts)
 * only in its asynchronous API, so synth runs buildAll here, in a child process it waits for. Reads
 * `{ requests, root, outdir }` as JSON on stdin, writes each bundle and map under `outdir`, and prints a
 * manifest of where (plus each bundle's metafile) as JSON on stdout.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BundleRequest, buildAll } from './handler-bundles.js';

const { requests, root, outdir } = JSON.parse(readFileSync(0, 'utf8')) as { requests: BundleRequest[]; root: string; outdir: string };
const built = await buildAll(requests, root);
const manifest = built.map((b, i) => {
  const dir = join(outdir, String(i));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'js'), b.js);
  writeFileSync(join(dir, 'map'), b.map);
  return { handler: b.handler, usesS3: b.usesS3, external: b.external, metafile: b.metafile, dir };
});
process.stdout.write(JSON.stringify(manifest));
