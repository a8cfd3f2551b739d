/**
 * Cold-start proxy A/B: the same handlers bundled from two trees (an older commit checked out
 * beside this one, and this tree), each `import()`ed in a fresh node process, interleaved
 * round by round so the machine's load falls on both sides alike. Used to say whether a
 * refactoring moved cold start, where `npm run bench -- --only 2` (ratio to a baseline bundle)
 * swings more than the change under test on a shared VM. Each side is built by its own tree's scripts/bundles.ts;
 * pass the bench's baseline (`test/bench/fixtures/baseline-handler.ts=test/bench/fixtures/baseline-handler.ts`) as a
 * pair to read the handlers' ratio to it.
 *
 *   npx tsx scripts/cold-start-ab.ts <old-tree> <rounds> old.ts=new.ts ...
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importMs } from '../test/bench/bundles-bench.js';
import { median } from '../test/bench/stats.js';
import { bundleEntry, bundleTargets, writePackage } from './bundles.js';

/**
 * A handler's package as `root` deploys it: built by that tree's own scripts/bundles.ts (its LAZY_CHUNK_HANDLERS, its
 * plugins, whether its function calls S3), so the old side is the old deployment, not the old sources built this
 * tree's way. `bytes`: what a cold start loads.
 */
async function bundle(root: string, entry: string, dir: string, name: string): Promise<{ file: string; bytes: number }> {
  const tree = (await import(pathToFileURL(join(root, 'scripts', 'bundles.ts')).href)) as Partial<typeof import('./bundles.js')>;
  const build = tree.bundleEntry ?? bundleEntry;
  const usesS3 = (tree.bundleTargets ?? bundleTargets)().find((t) => t.handler === entry)?.usesS3 ?? false;
  const built = await build(entry, root, { usesS3 });
  // A package of its own per bundle: a handler with lazy chunks imports them from beside its entry.
  return { file: (tree.writePackage ?? writePackage)(join(dir, name), built), bytes: built.bytes };
}

const [oldRoot = '', roundsArg = '15', ...pairs] = process.argv.slice(2);
const rounds = Number(roundsArg);
const dir = mkdtempSync(join(tmpdir(), 'cold-ab-'));
try {
  const rows = await Promise.all(
    pairs.map(async (pair, i) => {
      const [before = '', after = ''] = pair.split('=');
      return {
        name: after,
        old: await bundle(resolve(oldRoot), before, dir, `old-${i}`),
        new: await bundle(resolve('.'), after, dir, `new-${i}`),
        samples: { old: [] as number[], new: [] as number[] },
      };
    }),
  );
  for (let r = 0; r < rounds; r++) {
    for (const row of rows) {
      // Alternate which side goes first, so a load spike does not always hit the same side.
      const sides = r % 2 ? (['old', 'new'] as const) : (['new', 'old'] as const);
      for (const side of sides) row.samples[side].push(await importMs(row[side].file));
    }
    process.stderr.write(`round ${r + 1}/${rounds}\n`);
  }
  console.log('| Handler | Bundle before | Bundle after | Median before | Median after | after / before |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) {
    const a = median(row.samples.old);
    const b = median(row.samples.new);
    console.log(
      `| ${row.name.replace(/^functions\//, '')} | ${(row.old.bytes / 1024).toFixed(1)} KiB | ${(row.new.bytes / 1024).toFixed(1)} KiB | ${a.toFixed(1)} ms | ${b.toFixed(1)} ms | ${(b / a).toFixed(2)} × |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
