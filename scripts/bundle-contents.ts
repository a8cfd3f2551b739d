/**
 * What one function's bundle is made of, largest first: npm packages and lib/ modules, with the
 * bytes each leaves in the minified output, and the chain of imports that brought a module in.
 * Usage: `npm run bundle-contents -- "POST /v1/redemptions" [lib/publications/publication.service.ts]`
 * (a route as `METHOD /path`, a handler file, or `worker <name>`; the optional second argument asks
 * why that module is in the bundle). See docs/adding-an-endpoint.md "Bundle and cold start".
 */
import { type BundleTarget, bundleTarget, bundleTargets } from './bundles.js';

const [wanted, why] = process.argv.slice(2);
if (!wanted) {
  console.error('Usage: npm run bundle-contents -- "<METHOD /path> | <handler file> | worker <name>" [module to explain]');
  process.exit(2);
}
const target: BundleTarget | undefined = bundleTargets().find((t) => t.label.split(', ').includes(wanted) || t.handler === wanted);
if (!target) {
  console.error(`No function serves ${wanted}`);
  process.exit(2);
}
const bundle = await bundleTarget(target);
// A handler with lazy chunks: the entry and the chunks it imports statically load at cold start, the others when taken.
const lazyFiles = new Set(bundle.chunks.filter((c) => c.lazy).map((c) => c.file));
const outputs = Object.entries(bundle.metafile.outputs).filter(([key]) => key.endsWith('.mjs'));
if (!outputs.some(([, o]) => o.entryPoint !== undefined)) throw new Error('esbuild wrote no entry point');
const isLazy = (key: string): boolean => lazyFiles.has(key.slice(key.lastIndexOf('/') + 1));

const ownerOf = (path: string): string => {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path.slice(path.lastIndexOf('node_modules/')));
  return match?.[1] ?? path;
};
const kib = (n: number): string => `${(n / 1024).toFixed(1).padStart(7)} KiB`;
const byOwnerOf = (lazy: boolean): Map<string, number> => {
  const byOwner = new Map<string, number>();
  for (const [key, output] of outputs) {
    if (isLazy(key) !== lazy) continue;
    for (const [path, input] of Object.entries(output.inputs)) byOwner.set(ownerOf(path), (byOwner.get(ownerOf(path)) ?? 0) + input.bytesInOutput);
  }
  return byOwner;
};

const lazyNote = bundle.lazyBytes > 0 ? ` at cold start, + ${kib(bundle.lazyBytes).trim()} in lazy chunks` : '';
console.log(`${target.label}: ${target.handler}, ${kib(bundle.bytes).trim()} minified${lazyNote}`);
for (const [owner, bytes] of [...byOwnerOf(false)].sort((a, b) => b[1] - a[1])) if (bytes >= 512) console.log(`${kib(bytes)}  ${owner}`);
if (bundle.lazyBytes > 0) {
  console.log('Lazy chunks (loaded when a path that import()s them is taken):');
  for (const [owner, bytes] of [...byOwnerOf(true)].sort((a, b) => b[1] - a[1])) if (bytes >= 512) console.log(`${kib(bytes)}  ${owner}`);
}

if (why) {
  // Breadth-first from the module up its importers to the handler: the shortest chain that keeps it in.
  const importers = new Map<string, string[]>();
  for (const [path, input] of Object.entries(bundle.metafile.inputs)) {
    for (const imported of input.imports) importers.set(imported.path, [...(importers.get(imported.path) ?? []), path]);
  }
  let frontier: string[][] = [[why]];
  const seen = new Set([why]);
  let chain: string[] | undefined;
  while (frontier.length > 0 && !chain) {
    const next: string[][] = [];
    for (const path of frontier) {
      const last = path[path.length - 1] as string;
      if (last === target.handler) chain = path;
      for (const importer of importers.get(last) ?? []) {
        if (!seen.has(importer)) {
          seen.add(importer);
          next.push([...path, importer]);
        }
      }
    }
    frontier = next;
  }
  console.log(chain ? `\n${why} is in the bundle through:\n  ${[...chain].reverse().join('\n  imports ')}` : `\n${why} is not in this bundle`);
}
