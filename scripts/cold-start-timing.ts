/**
 * Where a handler's cold `import()` goes, module by module: each handler is bundled as it deploys but unminified
 * (scripts/cold-start-census.ts `unminifiedBundles`), a timestamp is taken where each module's top-level code begins,
 * and the bundle is imported in fresh node processes with bench item 2's environment. Printed per handler: the import's
 * median, the time before the first statement runs (reading, compiling and linking the file, and the built-ins it
 * imports), and each module's top-level evaluation (npm packages summed by name), medians over the runs. A module's
 * time includes the first call of any zod code it is the first to use (docs/adding-an-endpoint.md "Bundle and cold
 * start"). Unminified text compiles slower than the deployed minified one, so read the shares, not the totals.
 *
 *   npx tsx scripts/cold-start-timing.ts functions/exports/create-export.ts [more handlers]   # RUNS=11 TOP=20 by default
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAMBDA_LIKE_ENV } from '../test/bench/bundles-bench.js';
import { median } from '../test/bench/stats.js';
import { moduleOpenedBy, unminifiedBundles } from './cold-start-census.js';

const BEFORE = '(before the first statement: read, compile, link)';
const packageOf = (module: string): string => module.replace(/^node_modules\/((?:@[^/]+\/)?[^/]+)\/.*/, '$1');

/** The bundle with `performance.now()` recorded where each module's top-level code begins, and at its end. */
function timed(js: string): string {
  const [banner = '', ...rest] = js.split('\n');
  const out = [banner, 'const __t = (globalThis.__coldTimes = [["(start)", performance.now()]]);'];
  for (const line of rest) {
    const module = moduleOpenedBy(line);
    if (module) out.push(`__t.push([${JSON.stringify(packageOf(module))}, performance.now()]);`);
    out.push(line);
  }
  out.push('__t.push(["(end)", performance.now()]);');
  return out.join('\n');
}

const PROBE = `const t = performance.now(); await import(process.argv[1]); const marks = globalThis.__coldTimes;
process.stdout.write(JSON.stringify({ total: performance.now() - t, before: marks[0][1] - t, marks }));`;

if (process.argv[1] === import.meta.filename) {
  const handlers = process.argv.slice(2);
  const runs = Number(process.env.RUNS ?? 11);
  const top = Number(process.env.TOP ?? 20);
  const dir = mkdtempSync(join(tmpdir(), 'cold-timing-'));
  try {
    const texts = await unminifiedBundles(handlers, dir);
    handlers.forEach((handler, i) => {
      const file = join(dir, `h${i}.timed.mjs`);
      writeFileSync(file, timed(texts[i] ?? ''));
      const totals: number[] = [];
      const byModule = new Map<string, number[]>();
      for (let r = 0; r < runs; r++) {
        const out = execFileSync(process.execPath, ['--input-type=module', '-e', PROBE, `file://${file}`], { env: LAMBDA_LIKE_ENV }).toString();
        const { total, before, marks } = JSON.parse(out) as { total: number; before: number; marks: [string, number][] };
        totals.push(total);
        const run = new Map<string, number>([[BEFORE, before]]);
        for (let k = 0; k + 1 < marks.length; k++) {
          const [module = '', at = 0] = marks[k] ?? [];
          run.set(module, (run.get(module) ?? 0) + (marks[k + 1]?.[1] ?? at) - at);
        }
        for (const [module, ms] of run) byModule.set(module, [...(byModule.get(module) ?? []), ms]);
      }
      console.log(`\n${handler}: import() median ${median(totals).toFixed(1)} ms over ${runs} runs (unminified)`);
      const rows = [...byModule].map(([module, samples]) => [module, median(samples)] as const).sort((a, b) => b[1] - a[1]);
      for (const [module, ms] of rows.slice(0, top)) console.log(`${ms.toFixed(2).padStart(8)} ms  ${module}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
