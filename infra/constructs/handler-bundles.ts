/**
 * The one build of the handlers' bundles: what `cdk synth` deploys (HouseFunction), what
 * `npm run bundle-sizes` and `bundle-contents` print and what the benchmark loads, so the bytes
 * measured are the bytes deployed. One esbuild build per set of left-out modules (two today:
 * with and without the S3 client's event-stream serde), each with every handler as an entry
 * point: esbuild parses and resolves each shared module once and links the bundles in parallel,
 * where one esbuild process per function (CDK's NodejsFunction) re-read the same SDK and lib/ modules
 * for every function. A handler with lazy chunks (LAZY_CHUNK_HANDLERS) gets a build of its own with `splitting`,
 * in the same process: its chunks are its own, never shared with another function's package.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BuildOptions, type BuildResult, build, type Metafile } from 'esbuild';
import { EVENT_STREAMS_MODULE, houseBundling, LAZY_CHUNK_HANDLERS, lambdaExternalModulesFor } from './bundling-settings.js';
import { pureSchemaDeclarations } from './pure-schemas.js';
import { sdkFileShimsPlugin } from './sdk-file-shims.js';

export interface BundleRequest {
  /** Module exporting `handler`, relative to the build's root (the repository root for handlers). */
  handler: string;
  /** Whether it calls S3: its bundle then keeps the event-stream serde (lambdaExternalModulesFor). */
  usesS3: boolean;
  /** Whether it is built with lazy chunks, in a build of its own (default: named in LAZY_CHUNK_HANDLERS). */
  lazyChunks?: boolean;
}

/** A file of a function's package beside `index.mjs`: a chunk of a build with lazy chunks, with its source map. */
export interface BundleChunk {
  /** Its name in the package (`<module>-<hash>.mjs` or `chunk-<hash>.mjs`); the map is `<file>.map`. */
  file: string;
  js: Uint8Array;
  map: Uint8Array;
  /**
   * Whether it is loaded only when a path that `import()`s it is taken. False for a chunk the entry imports
   * statically (code the entry shares with a lazy chunk): that one loads with the entry, at cold start.
   */
  lazy: boolean;
}

export interface BuiltBundle extends BundleRequest {
  /** The minified module (`index.mjs` in the function's package). */
  js: Uint8Array;
  /** Its source map (`index.mjs.map`). */
  map: Uint8Array;
  /** This bundle's part of the build's metafile: the modules it was made of and its two output files. */
  metafile: Metafile;
  /** The modules it was bundled without. */
  external: string[];
  /** The chunk files beside `index.mjs`: none unless built with lazy chunks. */
  chunks: BundleChunk[];
}

/** The file names in a function's package; the Lambda handler is `index.handler`. */
export const BUNDLE_FILE = 'index.mjs';
export const MAP_FILE = `${BUNDLE_FILE}.map`;

/**
 * Where esbuild places the outputs. Nothing is written there (`write: false`): it only fixes the
 * relative paths in each source map's `sources`, so a bundle's bytes (and its asset hash) are the
 * same in every clone and every synth output directory.
 */
const outdirOf = (root: string): string => join(root, 'cdk.out', 'handler-bundles');

/** A handler's folder among the outputs: its module path without the extension, unique per handler. */
const folderOf = (handler: string): string => handler.replace(/\.[cm]?[jt]s$/, '');

/** Whether a request is built with lazy chunks: as it says, or as LAZY_CHUNK_HANDLERS says. */
export const hasLazyChunks = (r: Pick<BundleRequest, 'handler' | 'lazyChunks'>): boolean => r.lazyChunks ?? LAZY_CHUNK_HANDLERS.includes(r.handler);

const keyOf = (r: BundleRequest): string => `${r.handler}\0${lambdaExternalModulesFor(r).join(',')}\0${hasLazyChunks(r)}`;

/** A request as the builds see it (no optional field left to a default): what the bundle's key and manifest carry. */
const settled = (r: BundleRequest): Required<BundleRequest> => ({ handler: r.handler, usesS3: r.usesS3, lazyChunks: hasLazyChunks(r) });

/** One esbuild build: handlers that leave out the same modules, or one handler with lazy chunks. */
interface BuildGroup {
  external: string[];
  requests: Required<BundleRequest>[];
  splitting: boolean;
}

/**
 * The esbuild options of one build: the house settings of bundling-settings.ts, one entry point per handler. With
 * splitting (one handler), its chunks are written into its own folder, so they are part of its package alone.
 */
function buildOptions(group: BuildGroup, root: string): BuildOptions & { write: false; metafile: true } {
  const { requests, external, splitting } = group;
  const only = requests[0];
  if (splitting && (requests.length !== 1 || !only)) throw new Error('a build with lazy chunks has one handler');
  return {
    absWorkingDir: root,
    entryPoints: requests.map((r) => ({ in: join(root, r.handler), out: `${folderOf(r.handler)}/index` })),
    outdir: outdirOf(root),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // A function's package is one file, unless it has lazy chunks: then its chunks are beside it, and only its own.
    splitting,
    ...(splitting && only ? { chunkNames: `${folderOf(only.handler)}/[name]-[hash]` } : {}),
    write: false,
    metafile: true,
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
    logLevel: houseBundling.logLevel,
    // Unread schema declarations are left out (pure-schemas.ts); SDK files on paths Lambda never takes are replaced (sdk-file-shims.ts);
    // with splitting, SDK modules import from defining files, not index modules, so the entry reaches no lazy path's files (direct-barrel-imports.ts).
    plugins: [pureSchemaDeclarations(), sdkFileShimsPlugin({ usesS3: !external.includes(EVENT_STREAMS_MODULE), directBarrels: splitting })],
  };
}

/**
 * Requests grouped by the modules they leave out (one esbuild build each), without duplicates; each request with
 * lazy chunks in a build of its own.
 */
function groups(requests: readonly BundleRequest[]): BuildGroup[] {
  const byExternal = new Map<string, { external: string[]; requests: Map<string, Required<BundleRequest>> }>();
  const alone = new Map<string, BuildGroup>();
  for (const r of requests.map(settled)) {
    const external = lambdaExternalModulesFor(r);
    if (r.lazyChunks) {
      alone.set(keyOf(r), { external, requests: [r], splitting: true });
      continue;
    }
    const key = external.join(',');
    const group = byExternal.get(key) ?? { external, requests: new Map() };
    group.requests.set(keyOf(r), r);
    byExternal.set(key, group);
  }
  return [...[...byExternal.values()].map((g) => ({ external: g.external, requests: [...g.requests.values()], splitting: false })), ...alone.values()];
}

/** One build's outputs split per handler, each with the part of the metafile that is its own. */
function splitResult(result: BuildResult<{ write: false; metafile: true }>, group: BuildGroup, root: string): BuiltBundle[] {
  const outdir = outdirOf(root);
  const files = new Map(result.outputFiles.map((f) => [f.path, f.contents]));
  return group.requests.map((r) => {
    const folder = join(outdir, folderOf(r.handler));
    const jsPath = join(folder, BUNDLE_FILE);
    const js = files.get(jsPath);
    const map = files.get(`${jsPath}.map`);
    if (!js || !map) throw new Error(`esbuild produced no bundle for ${r.handler}`);
    const metafile = metafileOf(result.metafile, jsPath, root);
    const chunks = group.splitting ? chunksOf(files, folder, jsPath, metafile, root) : [];
    return { ...r, js, map, external: group.external, metafile, chunks };
  });
}

/**
 * The chunk files of a build with lazy chunks (all in the handler's folder), each marked lazy unless the entry
 * reaches it through static imports alone.
 */
function chunksOf(files: Map<string, Uint8Array>, folder: string, jsPath: string, metafile: Metafile, root: string): BundleChunk[] {
  const eager = new Set<string>();
  const pending = [relativeKey(jsPath, root)];
  for (let key = pending.pop(); key !== undefined; key = pending.pop()) {
    if (eager.has(key)) continue;
    eager.add(key);
    for (const imported of metafile.outputs[key]?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
  }
  const chunks: BundleChunk[] = [];
  for (const [path, js] of files) {
    if (path === jsPath || !path.endsWith('.mjs')) continue;
    if (!path.startsWith(`${folder}/`) || path.slice(folder.length + 1).includes('/')) throw new Error(`esbuild wrote ${path} outside the handler's folder`);
    const map = files.get(`${path}.map`);
    if (!map) throw new Error(`esbuild wrote no source map for ${path}`);
    chunks.push({ file: path.slice(folder.length + 1), js, map, lazy: !eager.has(relativeKey(path, root)) });
  }
  return chunks.sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * The metafile a build of this output's entry point alone would have written: its output files (with the chunks of
 * its folder, for a build with lazy chunks), and the inputs reachable from its entry point through imports esbuild
 * followed.
 */
function metafileOf(whole: Metafile, jsPath: string, root: string): Metafile {
  const jsKey = relativeKey(jsPath, root);
  const js = whole.outputs[jsKey];
  if (!js?.entryPoint) throw new Error(`the metafile has no entry point output ${jsKey}`);
  const folder = jsKey.slice(0, jsKey.lastIndexOf('/') + 1);
  const inputs: Metafile['inputs'] = {};
  const pending = [js.entryPoint];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    const input = whole.inputs[path];
    if (!input || path in inputs) continue;
    inputs[path] = input;
    for (const imported of input.imports) if (!imported.external) pending.push(imported.path);
  }
  const outputs: Metafile['outputs'] = { [jsKey]: js };
  const map = whole.outputs[`${jsKey}.map`];
  if (map) outputs[`${jsKey}.map`] = map;
  // Chunks are written only by a build of one handler, into its folder.
  for (const [key, output] of Object.entries(whole.outputs)) if (key.startsWith(folder) && !key.slice(folder.length).includes('/')) outputs[key] = output;
  return { inputs, outputs };
}

/** Metafile keys are paths relative to the working directory, with forward slashes. */
const relativeKey = (path: string, root: string): string =>
  path
    .slice(root.length + 1)
    .split(/[\\/]/)
    .join('/');

/** Bundles every request, one esbuild build per set of left-out modules, all in one esbuild process. */
export async function buildAll(requests: readonly BundleRequest[], root: string): Promise<BuiltBundle[]> {
  const built = await Promise.all(groups(requests).map(async (g) => splitResult(await build(buildOptions(g, root)), g, root)));
  return built.flat();
}

/** What handler-bundles-child.ts prints: each bundle without its bytes, and the folder where its files are. */
export type ChildManifest = (Omit<BuiltBundle, 'js' | 'map' | 'chunks'> & { dir: string; chunks: Omit<BundleChunk, 'js' | 'map'>[] })[];

/**
 * The same build, synchronous: CDK constructs are built synchronously, and esbuild's synchronous API
 * runs no plugins, so the build runs in a child process (handler-bundles-child.ts) this one waits for.
 * The bundles travel as files in a temporary folder, not through the pipe (about 105 MiB for 145 functions).
 */
export function buildAllSync(requests: readonly BundleRequest[], root: string): BuiltBundle[] {
  const outdir = mkdtempSync(join(tmpdir(), 'handler-bundles-'));
  try {
    const child = join(import.meta.dirname, 'handler-bundles-child.ts');
    // tsx as this module finds it: the build's root (a test's temporary tree) may have no node_modules.
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
    const stdout = execFileSync(process.execPath, ['--import', tsx, child], {
      input: JSON.stringify({ requests, root, outdir }),
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const manifest = JSON.parse(stdout.toString('utf8')) as ChildManifest;
    const read = (dir: string, name: string): Uint8Array => new Uint8Array(readFileSync(join(dir, name)));
    return manifest.map(({ dir, chunks, ...b }) => ({
      ...b,
      js: read(dir, 'js'),
      map: read(dir, 'map'),
      chunks: chunks.map((c, i) => ({ file: c.file, lazy: c.lazy, js: read(dir, `${i}.js`), map: read(dir, `${i}.map`) })),
    }));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * The bundles of one synth process, built on first use: the planned requests (every handler of
 * the route and worker tables) in one build, so that the functions of all regions' stacks and the
 * pipeline's stages copy from it instead of bundling again. A request outside the plan (a test's
 * own route table) is built when asked for.
 */
export class HandlerBundles {
  private readonly built = new Map<string, BuiltBundle>();
  /** How many times esbuild ran (a test checks the whole app needs one). */
  builds = 0;

  constructor(
    private readonly root: string,
    private readonly planned: () => readonly BundleRequest[],
  ) {}

  get(request: BundleRequest): BuiltBundle {
    const key = keyOf(request);
    let bundle = this.built.get(key);
    if (!bundle) {
      const wanted = [...(this.builds === 0 ? this.planned() : []), request].filter((r) => !this.built.has(keyOf(r)));
      for (const b of buildAllSync(wanted, this.root)) this.built.set(keyOf(b), b);
      this.builds += 1;
      bundle = this.built.get(key);
      if (!bundle) throw new Error(`no bundle was built for ${request.handler}`);
    }
    return bundle;
  }
}
