import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAll } from '../../infra/constructs/handler-bundles.js';
import { LAMBDA_LIKE_ENV } from '../bench/bundles-bench.js';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'pure-schemas-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How many zod schemas (and checks) a bundle builds while it is imported, counted through zod's post-processing hook. */
function schemasBuiltAtLoad(js: Uint8Array, name: string): number {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'index.mjs'), js);
  const script = `let n = 0; globalThis.__zod_globalConfig = { postProcessor: () => { n += 1; } };
    await import(${JSON.stringify(`file://${join(folder, 'index.mjs')}`)}); process.stdout.write(String(n));`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: LAMBDA_LIKE_ENV, encoding: 'utf8' }));
}

describe('schema declarations no route reads are left out of its bundle (pure-schemas.ts)', () => {
  it("GET /v1/loyalties/{campaignId} carries none of the campaign bodies its module's neighbours validate; POST /v1/campaigns carries them", async () => {
    const [read, create] = await buildAll(
      [
        { handler: 'functions/loyalties/get-loyalty-program.ts', usesS3: false },
        { handler: 'functions/campaigns/create-campaign.ts', usesS3: false },
      ],
      root,
    );
    if (!read || !create) throw new Error('esbuild built no bundle');
    // A message only the promotion-tier part of the campaign creation body holds.
    const marker = 'promotion tiers keep no category yet';
    expect(Buffer.from(read.js).toString('utf8')).not.toContain(marker);
    expect(Buffer.from(create.js).toString('utf8')).toContain(marker);
    // Before: 864 schemas at load for the read route (the whole campaign, template and customer bodies).
    const readBuilt = schemasBuiltAtLoad(read.js, 'read');
    const createBuilt = schemasBuiltAtLoad(create.js, 'create');
    expect(readBuilt).toBeLessThan(100);
    expect(createBuilt).toBeGreaterThan(300);
  }, 120_000);
});
