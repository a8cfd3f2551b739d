import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { committedSnapshot, compatibilityReport, freshSnapshot, REPORT_PATH, SNAPSHOT_PATH, snapshotText } from '../../../scripts/compatibility.js';

const root = join(import.meta.dirname, '..', '..', '..');

describe('the compatibility report against Voucherify (docs/compatibility.md)', () => {
  const report = compatibilityReport();

  it('finds every field the seed spec names, with its type, in our document', () => {
    expect(report.seedViolations).toEqual([]);
  });

  it("leaves no difference on the seed spec's operations unexplained", () => {
    expect(report.unexplained.map((u) => `${u.operationId} ${u.difference.location} ${u.difference.field} (${u.difference.kind})`)).toEqual([]);
  });

  it('is committed as generated (run npm run compatibility after changing a schema)', () => {
    expect(readFileSync(join(root, REPORT_PATH), 'utf8')).toBe(report.markdown);
  });

  it('compares against a snapshot that matches the reference wherever the reference is at hand', () => {
    const committed = committedSnapshot();
    expect(Object.keys(committed.operations).length).toBeGreaterThan(0);
    const fresh = freshSnapshot();
    // The reference lives outside the repository (../shared); a checkout without it uses the committed snapshot as it is.
    if (fresh) expect(readFileSync(join(root, SNAPSHOT_PATH), 'utf8')).toBe(snapshotText(fresh));
  });
});
