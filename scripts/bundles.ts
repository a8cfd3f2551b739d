/**
 * Bundles handlers exactly as they deploy: with infra/constructs/handler-bundles.ts, the build
 * `cdk synth` packages (HouseFunction), for `scripts/bundle-sizes.ts`, `bundle-contents` and the
 * benchmark (`test/bench`), so all of them measure the bytes that deploy.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { type BundleTarget, bundleTargets } from '../infra/constructs/bundle-targets.js';
import { API_BUNDLE_LIMIT_BYTES, API_BUNDLE_TARGET_BYTES, WORKER_BUNDLE_LIMIT_BYTES } from '../infra/constructs/bundling-settings.js';
import { BUNDLE_FILE, type BundleChunk, type BuiltBundle, buildAll, hasLazyChunks } from '../infra/constructs/handler-bundles.js';

export { type BundleTarget, bundleTargets };

export const repoRoot = join(import.meta.dirname, '..');

export interface Bundle extends BundleTarget {
  /**
   * What a cold start loads: the minified entry (`index.mjs`) and the chunks it imports statically. The whole
   * package for a handler without lazy chunks.
   */
  bytes: number;
  /** The lazy chunks, loaded only when a path that `import()`s them is taken (0 without lazy chunks). */
  lazyBytes: number;
  /** The source maps of all its files. */
  mapBytes: number;
  /** The minified entry module itself. */
  js: Uint8Array;
  /** Its source map (`index.mjs.map` beside it). */
  map: Uint8Array;
  /** The chunk files beside it (infra/constructs/handler-bundles.ts), none unless built with lazy chunks. */
  chunks: BundleChunk[];
  metafile: Metafile;
  /** The modules it was bundled without (infra/constructs/bundling-settings.ts lambdaExternalModulesFor). */
  external: string[];
}

/**
 * Why a bundle breaks the 85 % target (issue 34), or null: an API handler whose cold start loads more than
 * API_BUNDLE_TARGET_BYTES (its entry and the chunks the entry imports statically). No handler is exempt.
 */
export function targetBreach(bundle: Pick<BundleTarget, 'kind' | 'handler'> & { bytes: number }): string | null {
  if (bundle.kind !== 'api' || bundle.bytes <= API_BUNDLE_TARGET_BYTES) return null;
  return `${bundle.handler} is over the ${(API_BUNDLE_TARGET_BYTES / 1024).toFixed(0)} KiB target (85 % of the limit): bring it under, see docs/adding-an-endpoint.md "Bundle and cold start"`;
}

/** Why a handler named in LAZY_CHUNK_HANDLERS should not be, or null: its build made no lazy chunk. */
export function lazyChunkBreach(bundle: Pick<BundleTarget, 'handler'> & { lazyChunks?: boolean; lazyBytes: number }): string | null {
  if (!hasLazyChunks(bundle) || bundle.lazyBytes > 0) return null;
  return `${bundle.handler} has no lazy chunk: remove it from LAZY_CHUNK_HANDLERS (infra/constructs/bundling-settings.ts)`;
}

/** Everything a function's package holds, lazy chunks too: the whole of it is held to the limit. */
export const packageBytes = (bundle: { bytes: number; lazyBytes: number }): number => bundle.bytes + bundle.lazyBytes;

export const bundleLimitOf = (target: Pick<BundleTarget, 'kind'>): number => (target.kind === 'api' ? API_BUNDLE_LIMIT_BYTES : WORKER_BUNDLE_LIMIT_BYTES);

type Measured = Pick<Bundle, 'bytes' | 'lazyBytes' | 'mapBytes' | 'js' | 'map' | 'chunks' | 'metafile' | 'external'>;

const sum = (ns: number[]): number => ns.reduce((a, b) => a + b, 0);

const measured = (b: BuiltBundle): Measured => ({
  bytes: b.js.byteLength + sum(b.chunks.filter((c) => !c.lazy).map((c) => c.js.byteLength)),
  lazyBytes: sum(b.chunks.filter((c) => c.lazy).map((c) => c.js.byteLength)),
  mapBytes: b.map.byteLength + sum(b.chunks.map((c) => c.map.byteLength)),
  js: b.js,
  map: b.map,
  chunks: b.chunks,
  metafile: b.metafile,
  external: b.external,
});

/**
 * Writes a function's package (`index.mjs` and its chunks) into `folder`, as Lambda holds it, and returns the entry's
 * path: importing it loads the chunks beside it.
 */
export function writePackage(folder: string, bundle: Pick<Bundle, 'js' | 'chunks'>): string {
  mkdirSync(folder, { recursive: true });
  const entry = join(folder, BUNDLE_FILE);
  writeFileSync(entry, bundle.js);
  for (const chunk of bundle.chunks) writeFileSync(join(folder, chunk.file), chunk.js);
  return entry;
}

/** Bundles one entry point (a handler, or any module such as the benchmark's baseline) with the house settings. */
export async function bundleEntry(entryPoint: string, root = repoRoot, fn: { usesS3: boolean; lazyChunks?: boolean } = { usesS3: false }): Promise<Measured> {
  const [built] = await buildAll([{ handler: entryPoint, usesS3: fn.usesS3, ...(fn.lazyChunks === undefined ? {} : { lazyChunks: fn.lazyChunks }) }], root);
  if (!built) throw new Error(`esbuild produced no bundle for ${entryPoint}`);
  return measured(built);
}

export async function bundleTarget(target: BundleTarget): Promise<Bundle> {
  return { ...target, ...(await bundleEntry(target.handler, repoRoot, target)) };
}

/** Every target bundled by the one build that `cdk synth` runs, in the targets' order. */
export async function bundleAll(targets: readonly BundleTarget[] = bundleTargets()): Promise<Bundle[]> {
  const built = await buildAll(targets, repoRoot);
  return targets.map((t) => {
    const b = built.find((x) => x.handler === t.handler && x.usesS3 === t.usesS3);
    if (!b) throw new Error(`esbuild produced no bundle for ${t.handler}`);
    return { ...t, ...measured(b) };
  });
}

/** The npm packages whose files went into a bundle (from its metafile), e.g. `@aws-sdk/client-s3`. */
export function bundledPackages(metafile: Metafile): Set<string> {
  const packages = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input.slice(input.lastIndexOf('node_modules/')));
    if (match?.[1]) packages.add(match[1]);
  }
  return packages;
}

/**
 * The modules left out of a bundle that it imports statically (`import … from "m"` or `import "m"`):
 * they would be loaded with the bundle, where Lambda has no copy of ours. Only `import("m")`,
 * which runs when reached, may name one (infra/constructs/bundling-settings.ts). Give it each file of a package
 * (its chunks too: a lazy chunk's static import fails the path that loads it).
 */
export function staticExternalImports(js: Uint8Array | string, external: readonly string[]): string[] {
  const text = typeof js === 'string' ? js : new TextDecoder().decode(js);
  return external.filter((m) => {
    const quoted = JSON.stringify(m).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    return new RegExp(`(?:\\bfrom\\s*|\\bimport\\s*)${quoted}`).test(text);
  });
}
