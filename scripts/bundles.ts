/**
 * Bundles handlers exactly as they deploy: with infra/constructs/handler-bundles.ts, the build
 * `cdk synth` packages (HouseFunction), for `scripts/bundle-sizes.ts`, `bundle-contents` and the
 * benchmark (`test/bench`), so all of them measure the bytes that deploy.
 */
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { type BundleTarget, bundleTargets } from '../infra/constructs/bundle-targets.js';
import { API_BUNDLE_LIMIT_BYTES, API_BUNDLE_TARGET_BYTES, API_BUNDLES_OVER_TARGET, WORKER_BUNDLE_LIMIT_BYTES } from '../infra/constructs/bundling-settings.js';
import { type BuiltBundle, buildAll } from '../infra/constructs/handler-bundles.js';

export { type BundleTarget, bundleTargets };

export const repoRoot = join(import.meta.dirname, '..');

export interface Bundle extends BundleTarget {
  bytes: number;
  mapBytes: number;
  /** The minified module itself. */
  js: Uint8Array;
  metafile: Metafile;
  /** The modules it was bundled without (infra/constructs/bundling-settings.ts lambdaExternalModulesFor). */
  external: string[];
}

/**
 * Why a bundle breaks the 85 % target (issue 34), or null: an API handler over API_BUNDLE_TARGET_BYTES that is not
 * in `overTarget`, or one in `overTarget` that is back under it (the list only shrinks).
 */
export function targetBreach(
  bundle: Pick<BundleTarget, 'kind' | 'handler'> & { bytes: number },
  overTarget: readonly string[] = API_BUNDLES_OVER_TARGET,
): string | null {
  if (bundle.kind !== 'api') return null;
  const over = bundle.bytes > API_BUNDLE_TARGET_BYTES;
  const named = overTarget.includes(bundle.handler);
  const target = `${(API_BUNDLE_TARGET_BYTES / 1024).toFixed(0)} KiB`;
  if (over && !named)
    return `${bundle.handler} is over the ${target} target (85 % of the limit): bring it under, see docs/adding-an-endpoint.md "Bundle and cold start"`;
  if (!over && named) return `${bundle.handler} is under the ${target} target: remove it from API_BUNDLES_OVER_TARGET (infra/constructs/bundling-settings.ts)`;
  return null;
}

export const bundleLimitOf = (target: Pick<BundleTarget, 'kind'>): number => (target.kind === 'api' ? API_BUNDLE_LIMIT_BYTES : WORKER_BUNDLE_LIMIT_BYTES);

const measured = (b: BuiltBundle): Pick<Bundle, 'bytes' | 'mapBytes' | 'js' | 'metafile' | 'external'> => ({
  bytes: b.js.byteLength,
  mapBytes: b.map.byteLength,
  js: b.js,
  metafile: b.metafile,
  external: b.external,
});

/** Bundles one entry point (a handler, or any module such as the benchmark's baseline) with the house settings. */
export async function bundleEntry(
  entryPoint: string,
  root = repoRoot,
  fn: { usesS3: boolean } = { usesS3: false },
): Promise<Pick<Bundle, 'bytes' | 'mapBytes' | 'js' | 'metafile' | 'external'>> {
  const [built] = await buildAll([{ handler: entryPoint, usesS3: fn.usesS3 }], root);
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
 * which runs when reached, may name one (infra/constructs/bundling-settings.ts).
 */
export function staticExternalImports(js: Uint8Array | string, external: readonly string[]): string[] {
  const text = typeof js === 'string' ? js : new TextDecoder().decode(js);
  return external.filter((m) => {
    const quoted = JSON.stringify(m).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    return new RegExp(`(?:\\bfrom\\s*|\\bimport\\s*)${quoted}`).test(text);
  });
}
