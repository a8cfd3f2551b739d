import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  committedRequestSnapshot,
  committedSnapshot,
  compatibilityReport,
  DECISIONS_PATH,
  freshRequestSnapshotOrNull,
  freshSnapshot,
  REPORT_PATH,
  REQUEST_SNAPSHOT_PATH,
  reportParts,
  SNAPSHOT_PATH,
  snapshotText,
} from '../../../scripts/compatibility.js';
import { parseExceptions } from '../../../scripts/compatibility/request-exceptions.js';
import { REQUEST_SECTION_HEADING } from '../../../scripts/compatibility/request-report.js';

const root = join(import.meta.dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

describe('the compatibility report against Voucherify (docs/compatibility.md)', () => {
  const report = compatibilityReport();

  it('finds every field the seed spec names, with its type, in our document', () => {
    expect(report.seedViolations).toEqual([]);
  });

  it("leaves no difference on the seed spec's operations unexplained", () => {
    expect(report.unexplained.map((u) => `${u.operationId} ${u.difference.location} ${u.difference.field} (${u.difference.kind})`)).toEqual([]);
  });

  it('is committed as generated on the reply side (run npm run compatibility after changing a schema)', () => {
    expect(reportParts(read(REPORT_PATH)).replies).toBe(report.markdown);
  });

  it('carries the request side, with no undocumented refusal and no server error (npm run compatibility -- --check runs it in .ci/run)', () => {
    const { requests } = reportParts(read(REPORT_PATH));
    expect(requests.startsWith(`${REQUEST_SECTION_HEADING}\n`)).toBe(true);
    expect(requests).toMatch(/of which undocumented: \*\*0\*\*\. Server errors: \*\*0\*\*\. Unused exception rows: \*\*0\*\*\./);
  });

  it('reads the exceptions table of docs/decisions.md, each row with its reason', () => {
    const rows = parseExceptions(read(DECISIONS_PATH));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.why.length, `line ${row.line}`).toBeGreaterThan(20);
  });

  it('compares against snapshots that match the reference wherever the reference is at hand', () => {
    const committed = committedSnapshot();
    expect(Object.keys(committed.operations).length).toBeGreaterThan(0);
    expect(Object.keys(committedRequestSnapshot().operations).length).toBeGreaterThan(0);
    // The reference lives outside the repository (../shared); a checkout without it uses the committed snapshots as they are.
    const fresh = freshSnapshot();
    if (fresh) expect(read(SNAPSHOT_PATH)).toBe(snapshotText(fresh));
    const freshRequests = freshRequestSnapshotOrNull();
    if (freshRequests) expect(read(REQUEST_SNAPSHOT_PATH)).toBe(snapshotText(freshRequests));
  });
});
