/**
 * What each API handler builds with zod at load, and how much of it its request schemas never reach
 * (docs/benchmarks.md "Cold start: schemas built and never parsed"). Each handler is bundled as it deploys
 * (the house esbuild settings and plugins of infra/constructs/handler-bundles.ts) but unminified, so that
 * esbuild's `// <module path>` comments say which module each schema comes from; zod's instance constructor
 * is hooked, the bundle is `import()`ed in a fresh node with bench item 2's environment, and the instances are
 * walked from the handler's `schemas` export. "Unreached" instances are built and never parsed by the request:
 * a schema of another route pulled in by a `z.pick`/`z.omit`/destructuring, the original that `.check()`
 * copies, or a schema the service parses by itself (CSV rows, the environment).
 *
 *   npx tsx scripts/cold-start-census.ts                                   # every API handler, JSON on stdout
 *   npx tsx scripts/cold-start-census.ts functions/loyalties/list-loyalty-programs.ts  # some, by module
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleTargets } from '../infra/constructs/bundle-targets.js';
import { EVENT_STREAMS_MODULE, houseBundling, lambdaExternalModulesFor } from '../infra/constructs/bundling-settings.js';
import { pureSchemaDeclarations } from '../infra/constructs/pure-schemas.js';
import { sdkFileShimsPlugin } from '../infra/constructs/sdk-file-shims.js';
import { LAMBDA_LIKE_ENV } from '../test/bench/bundles-bench.js';
import { repoRoot } from './bundles.js';

export interface Census {
  handler: string;
  /** zod schemas and checks built while the bundle loads. */
  built: number;
  /** Of those, the ones the handler's `schemas` do not reach. */
  unreached: number;
  byModule: Record<string, { built: number; unreached: number }>;
}

const MODULE_COMMENT = /^\/\/ ((?:\.\.\/)*(?:[\w.-]+\/)?(?:node_modules|lib|functions|infra|test)\/\S+)$/;
// zod's `$constructor` (zod/v4/core/core.js) as esbuild prints it: every schema and check runs this line.
const ZOD_INIT = '    init(inst, def);';

/** The unminified bundle with each zod instance recorded with the module that was loading when it was built. */
export function instrument(js: string): string {
  const out = ['globalThis.__census = []; globalThis.__censusModule = "(start)";'];
  let hooked = false;
  for (const line of js.split('\n')) {
    const module = moduleOpenedBy(line);
    if (module) out.push(`globalThis.__censusModule = ${JSON.stringify(module)};`);
    out.push(line);
    if (line === ZOD_INIT) {
      out.push('    globalThis.__census.push([inst, globalThis.__censusModule]);');
      hooked = true;
    }
  }
  if (!hooked) throw new Error(`zod's constructor line (${ZOD_INIT.trim()}) was not found: zod changed, update scripts/cold-start-census.ts`);
  // The banner (`import { createRequire } ...`) must stay first; the census globals are plain statements after it.
  const [banner = '', ...rest] = out.slice(1);
  return [banner, out[0], ...rest].join('\n');
}

const PROBE = `
const ns = await import(process.argv[2]);
const reached = new Set(); const visited = new Set();
const walk = (v) => {
  if (!v || typeof v !== 'object' || visited.has(v)) return;
  visited.add(v);
  if (v._zod) { reached.add(v); walk(v._zod.def); return; }
  if (Array.isArray(v)) { for (const x of v) walk(x); return; }
  for (const k of Object.getOwnPropertyNames(v)) {
    const d = Object.getOwnPropertyDescriptor(v, k);
    let x; try { x = d.get ? v[k] : d.value; } catch { continue; }
    walk(x);
  }
};
walk(ns.schemas);
const byModule = {};
for (const [inst, module] of globalThis.__census) {
  const m = (byModule[module] ??= { built: 0, unreached: 0 });
  m.built++; if (!reached.has(inst)) m.unreached++;
}
process.stdout.write(JSON.stringify(byModule));`;

/**
 * Some handlers (repository-relative paths) bundled as they deploy but unminified, so that esbuild's `// <module path>`
 * comments say where each module starts: the bundles' texts, in the handlers' order.
 */
export async function unminifiedBundles(handlers: readonly string[], dir: string): Promise<string[]> {
  const external = lambdaExternalModulesFor({ usesS3: false });
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: handlers.map((h, i) => ({ in: join(repoRoot, h), out: `h${i}` })),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: false,
    write: false,
    platform: 'node',
    target: houseBundling.target,
    format: houseBundling.format,
    minify: false,
    mainFields: [...houseBundling.mainFields],
    banner: { js: houseBundling.banner },
    alias: Object.fromEntries(Object.entries(houseBundling.alias).map(([from, to]) => [from, join(repoRoot, to)])),
    external,
    logLevel: 'error',
    plugins: [pureSchemaDeclarations(), sdkFileShimsPlugin({ usesS3: !external.includes(EVENT_STREAMS_MODULE) })],
  });
  return handlers.map((handler, i) => {
    const output = result.outputFiles.find((f) => f.path === join(dir, `h${i}.mjs`));
    if (!output) throw new Error(`esbuild produced no bundle for ${handler}`);
    return output.text;
  });
}

/** The module a `// <path>` comment of an unminified bundle opens (npm packages by name), or undefined. */
export function moduleOpenedBy(line: string): string | undefined {
  const module = MODULE_COMMENT.exec(line)?.[1];
  return module?.replace(/^(?:\.\.\/)+(?:[\w.-]+\/)?/, '');
}

/** The census of some handlers (repository-relative paths), one fresh node each. */
export async function census(handlers: readonly string[]): Promise<Census[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cold-census-'));
  try {
    const texts = await unminifiedBundles(handlers, dir);
    const probe = join(dir, 'probe.mjs');
    writeFileSync(probe, PROBE);
    return handlers.map((handler, i) => {
      const file = join(dir, `h${i}.census.mjs`);
      writeFileSync(file, instrument(texts[i] ?? ''));
      const byModule = JSON.parse(
        execFileSync(process.execPath, [probe, `file://${file}`], { env: LAMBDA_LIKE_ENV, maxBuffer: 16 * 1024 * 1024 }).toString(),
      ) as Census['byModule'];
      const all = Object.values(byModule);
      return { handler, built: all.reduce((n, m) => n + m.built, 0), unreached: all.reduce((n, m) => n + m.unreached, 0), byModule };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const asked = process.argv.slice(2);
  const handlers =
    asked.length > 0
      ? asked
      : bundleTargets()
          .filter((t) => t.kind === 'api' && !t.usesS3)
          .map((t) => t.handler);
  console.log(JSON.stringify(await census(handlers), null, 1));
}
