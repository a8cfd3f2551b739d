/**
 * Maps a stack trace logged by a deployed API function (which runs without `--enable-source-maps`: docs/decisions.md
 * "Source-mapped stacks") back to the sources. The function is bundled again as synth deploys it (scripts/bundles.ts:
 * the same esbuild settings give the same bytes for the same commit, so check out the commit that was deployed), its
 * package is loaded in a node with `--enable-source-maps`, and each `index.mjs:line:column` (or chunk file) position of
 * the stack is looked up with node's own `module.findSourceMap`.
 *
 *   npx tsx scripts/map-stack.ts "POST /v1/redemptions" < stack.txt     # or a handler file: functions/redemptions/redeem-voucher.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAMBDA_LIKE_ENV } from '../test/bench/bundles-bench.js';
import { bundleTarget, bundleTargets, writePackage } from './bundles.js';

/** Runs in the child: loads the package with source maps on, then maps each position it is given. */
const MAPPER = `
import { findSourceMap } from 'node:module';
import { pathToFileURL } from 'node:url';
const [entry, positionsJson] = process.argv.slice(1);
await import(pathToFileURL(entry).href);
const out = JSON.parse(positionsJson).map(({ file, line, column }) => {
  const map = findSourceMap(pathToFileURL(file).href) ?? findSourceMap(file);
  const hit = map?.findEntry(line - 1, column - 1);
  return hit && hit.originalSource ? \`\${hit.originalSource.replace(/^file:\\/\\//, '').replace(/^.*?(?=(?:node_modules|lib|functions|infra)\\/)/, '')}:\${hit.originalLine + 1}:\${hit.originalColumn + 1}\` : null;
});
process.stdout.write(JSON.stringify(out));`;

/** The `<file>.mjs:line:column` positions of a stack, in order (file names as Lambda prints them: /var/task/...). */
export function stackPositions(stack: string): { text: string; file: string; line: number; column: number }[] {
  return [...stack.matchAll(/(?:\/var\/task\/|\b)([\w.-]+\.mjs):(\d+):(\d+)/g)].map((m) => ({
    text: m[0],
    file: m[1] ?? '',
    line: Number(m[2]),
    column: Number(m[3]),
  }));
}

if (process.argv[1] === import.meta.filename) {
  const wanted = process.argv[2];
  const target = bundleTargets().find((t) => t.label.split(', ').includes(wanted ?? '') || t.handler === wanted);
  if (!target) {
    console.error(`Usage: npx tsx scripts/map-stack.ts "<METHOD /path> | <handler file>" < stack.txt (no function serves ${wanted})`);
    process.exit(2);
  }
  const stack = readFileSync(0, 'utf8');
  const dir = mkdtempSync(join(tmpdir(), 'map-stack-'));
  try {
    const bundle = await bundleTarget(target);
    const entry = writePackage(join(dir, 'package'), bundle);
    writeFileSync(`${entry}.map`, bundle.map);
    for (const chunk of bundle.chunks) writeFileSync(join(dir, 'package', `${chunk.file}.map`), chunk.map);
    const positions = stackPositions(stack);
    const mapped = JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--enable-source-maps',
          '--input-type=module',
          '-e',
          MAPPER,
          entry,
          JSON.stringify(positions.map((p) => ({ ...p, file: join(dir, 'package', p.file) }))),
        ],
        { env: LAMBDA_LIKE_ENV },
      ).toString(),
    ) as (string | null)[];
    let text = stack;
    positions.forEach((p, i) => {
      if (mapped[i]) text = text.replace(p.text, `${mapped[i]} (${p.text})`);
    });
    process.stdout.write(text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
