/**
 * Bundles handlers exactly as they deploy (the settings of infra/constructs/bundling-settings.ts),
 * for `scripts/bundle-sizes.ts` and the benchmark (`test/bench`), so both measure the same bytes.
 */
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import {
  API_BUNDLE_LIMIT_BYTES,
  API_BUNDLE_TARGET_BYTES,
  API_BUNDLES_OVER_TARGET,
  houseBundling,
  lambdaExternalModulesFor,
  WORKER_BUNDLE_LIMIT_BYTES,
} from '../infra/constructs/bundling-settings.js';
import { routeNotFoundRoute, routes } from '../lib/api/routes.js';
import { scheduledWorkers, workers } from '../lib/api/workers.js';

export const repoRoot = join(import.meta.dirname, '..');

export interface BundleTarget {
  kind: 'api' | 'worker';
  label: string;
  /** Handler module, relative to the repository root. */
  handler: string;
  /** Whether the function reads or writes the export bucket (its route's or worker's `bucket`). */
  usesS3: boolean;
  /** Whether it sends queue messages (a non-empty `sendsTo`). */
  usesSqs: boolean;
}

export interface Bundle extends BundleTarget {
  bytes: number;
  mapBytes: number;
  /** The minified module itself. */
  js: Uint8Array;
  metafile: Metafile;
  /** The modules it was bundled without (infra/constructs/bundling-settings.ts lambdaExternalModulesFor). */
  external: string[];
}

/** Every deployed function once: the route table's handlers (with `$default`), the queue workers and the scheduled workers. */
export function bundleTargets(): BundleTarget[] {
  const byHandler = new Map<string, BundleTarget>();
  for (const route of [...routes, routeNotFoundRoute]) {
    const label = route === routeNotFoundRoute ? '$default' : `${route.method} ${route.path}`;
    const previous = byHandler.get(route.handler);
    byHandler.set(route.handler, {
      kind: 'api',
      label: previous ? `${previous.label}, ${label}` : label,
      handler: route.handler,
      usesS3: (previous?.usesS3 ?? false) || !!route.needs.bucket,
      usesSqs: (previous?.usesSqs ?? false) || route.needs.sendsTo.length > 0,
    });
  }
  for (const worker of workers) {
    byHandler.set(worker.handler, {
      kind: 'worker',
      label: `worker ${worker.name}`,
      handler: worker.handler,
      usesS3: !!worker.needs.bucket,
      usesSqs: worker.needs.sendsTo.length > 0,
    });
  }
  for (const worker of scheduledWorkers) {
    byHandler.set(worker.handler, { kind: 'worker', label: `worker ${worker.name}`, handler: worker.handler, usesS3: false, usesSqs: false });
  }
  return [...byHandler.values()];
}

export const bundleLimitOf = (target: Pick<BundleTarget, 'kind'>): number => (target.kind === 'api' ? API_BUNDLE_LIMIT_BYTES : WORKER_BUNDLE_LIMIT_BYTES);

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

/** Bundles one entry point (a handler, or any module such as the benchmark's baseline) with the house settings. */
export async function bundleEntry(
  entryPoint: string,
  root = repoRoot,
  fn: { usesS3: boolean } = { usesS3: false },
): Promise<Pick<Bundle, 'bytes' | 'mapBytes' | 'js' | 'metafile' | 'external'>> {
  const external = lambdaExternalModulesFor(fn);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, entryPoint)],
    bundle: true,
    write: false,
    metafile: true,
    outfile: join(root, 'cdk.out', 'bundle-sizes', 'index.mjs'),
    platform: 'node',
    target: houseBundling.target,
    format: houseBundling.format,
    minify: houseBundling.minify,
    sourcemap: houseBundling.sourceMap,
    sourcesContent: houseBundling.sourcesContent,
    mainFields: [...houseBundling.mainFields],
    banner: { js: houseBundling.banner },
    alias: Object.fromEntries(Object.entries(houseBundling.alias).map(([from, to]) => [from, join(root, to)])),
    external,
    logLevel: 'silent',
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.mjs'));
  const map = result.outputFiles.find((f) => f.path.endsWith('.map'));
  if (!js) throw new Error(`esbuild produced no bundle for ${entryPoint}`);
  return { bytes: js.contents.byteLength, mapBytes: map?.contents.byteLength ?? 0, js: js.contents, metafile: result.metafile, external };
}

export async function bundleTarget(target: BundleTarget): Promise<Bundle> {
  return { ...target, ...(await bundleEntry(target.handler, repoRoot, target)) };
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
