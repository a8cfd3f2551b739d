import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stackPositions } from '../../scripts/map-stack.js';
import { bundleEntry, writePackage } from '../../scripts/bundles.js';
import { LAMBDA_LIKE_ENV } from '../bench/bundles-bench.js';

/**
 * API functions run without `--enable-source-maps` (docs/decisions.md "Source-mapped stacks"): a stack they log names
 * minified positions, and scripts/map-stack.ts maps them back by bundling the function again as synth does.
 */
const dir = mkdtempSync(join(tmpdir(), 'map-stack-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/map-stack.ts', () => {
  it('reads the positions of a Lambda stack', () => {
    expect(stackPositions('Error: x\n    at lu (/var/task/index.mjs:2:3555)\n    at file:///var/task/chunk-AB12.mjs:1:9\n    at other.js:1:1')).toEqual([
      { text: '/var/task/index.mjs:2:3555', file: 'index.mjs', line: 2, column: 3555 },
      { text: '/var/task/chunk-AB12.mjs:1:9', file: 'chunk-AB12.mjs', line: 1, column: 9 },
    ]);
  });

  it('maps a stack thrown by the deployed bundle of a handler to its sources', async () => {
    const bundle = await bundleEntry('functions/orders/get-order.ts');
    const entry = writePackage(join(dir, 'deployed'), bundle);
    // The handler called without a Lambda context throws inside middy: a stack of minified positions, as Lambda logs it.
    const thrown = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(`file://${entry}`)}); try { await m.handler(null, null); } catch (e) { console.log(e.stack); }`,
      ],
      { env: LAMBDA_LIKE_ENV },
    )
      .toString()
      .replaceAll(`file://${join(dir, 'deployed')}/`, '/var/task/');
    expect(thrown).toMatch(/\/var\/task\/index\.mjs:\d+:\d+/);
    const mapped = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/map-stack.ts', 'functions/orders/get-order.ts'], { input: thrown }).toString();
    expect(mapped).toMatch(/node_modules\/@middy\/core\/index\.js:\d+:\d+ \(\/var\/task\/index\.mjs:\d+:\d+\)/);
  }, 120_000);
});
