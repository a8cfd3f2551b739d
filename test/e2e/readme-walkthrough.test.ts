import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';

const run = promisify(execFile);
const repoRoot = join(import.meta.dirname, '..', '..');

/** The README's walkthrough: the bash block between its walkthrough markers, as a newcomer would paste it. */
function walkthroughScript(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = /<!-- walkthrough:start -->\s*```bash\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(readme);
  if (!section?.[1]) throw new Error('README.md has no walkthrough block between its markers');
  return section[1];
}

let runtime: OwnLocalRuntime;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'walkthrough-'));
  // A data folder of its own, so the admin CLI in the walkthrough finds this runtime through runtime.json.
  runtime = await startLocalWithOwnQueue('walkthrough', { dataDir });
});

afterAll(async () => {
  await runtime?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the README walkthrough', () => {
  it('runs end to end as pasted: project, token, campaign, codes, a checkout and its refund, loyalty points, export and download, earning from an order and a reward, pending points and a tier', async () => {
    for (const tool of ['curl', 'jq']) {
      await run('sh', ['-c', `command -v ${tool}`]).catch(() => {
        throw new Error(`${tool} is needed by the README walkthrough (.ci/run installs it)`);
      });
    }
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', walkthroughScript()], {
      cwd: repoRoot,
      env: { ...process.env, API: runtime.local.apiUrl, DATA_DIR: dataDir },
      timeout: 150_000,
      maxBuffer: 10 * 1024 * 1024,
    });
    expect(stdout).toContain('"code": "SPRING-10"');
    // The checkout: 10 % off 4,000, then 500 off, validated and paid alike; the refund gives WELCOME-5's one use back.
    expect(stdout).toContain('"valid": true');
    expect(stdout).toContain('"total": 3100');
    expect(stdout).toContain('"paid": 3100');
    expect(stdout).toContain('"redeemed": 1');
    expect(stdout).toContain('"redeemed_after_refund": 0');
    expect(stdout).toContain('"member_again": "CARD-1"');
    expect(stdout).toContain('"balance": 250');
    expect(stdout).toContain('"type": "POINTS_ADDITION"');
    expect(stdout).toContain('"loyalty_points": 250');
    const csv = stdout.slice(stdout.indexOf('voucher_id,points,expires_at'));
    const [header, ...after] = csv.trim().split(/\r?\n/);
    // The CSV's rows (the loyalty steps after the download print JSON).
    const rows = after.filter((line) => line.startsWith('v_'));
    expect(header).toBe('voucher_id,points,expires_at');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^v_[^,]+,250,\d{4}-\d{2}-\d{2}$/);
    expect(stdout).toContain('"after_order": 310');
    expect(stdout).toContain('"type": "POINTS_ACCRUAL"');
    expect(stdout).toContain('"order": "order-2"');
    expect(stdout).toContain('"type": "POINTS_REDEMPTION"');
    expect(stdout).toContain('"balance": 210');
    // A paid order cancelled after its points were spent: the card stops at 0 and the removal names the shortfall.
    expect(stdout).toContain('"after_spend": 10');
    expect(stdout).toContain('"after_cancel": 0');
    expect(stdout).toContain('Order order-3 canceled: it earned 50 points, 10 taken back, 40 already spent or expired and not recovered');
    // Pending points: 20 held by the order (its 5 points from the order rule at once), then activated early.
    expect(stdout).toContain('"pending_points": 20');
    expect(stdout).toContain('"after_activation": 25');
    // Tiers by points collected in the year: 150 collected make Silver, held to the year's end though 100 are spent.
    expect(stdout).toContain('"tiers_by": "POINTS_IN_PERIOD"');
    expect(stdout).toContain('"after_gift": 75');
    expect(stdout).toContain('"tier": "Silver"');
    expect(stdout).toMatch(/"until": "\d{4}-12-31"/);
    expect(runtime.contractViolations).toEqual([]);
  }, 180_000);
});
