import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compatibilityReport, REPORT_PATH } from '../../../scripts/compatibility.js';

describe('the compatibility report against Voucherify (docs/compatibility.md)', () => {
  const report = compatibilityReport();

  it('finds every field the seed spec names, with its type, in our document', () => {
    expect(report.seedViolations).toEqual([]);
  });

  it('leaves no difference on the seed spec\'s operations unexplained', () => {
    expect(report.unexplained.map((u) => `${u.operationId} ${u.difference.location} ${u.difference.field} (${u.difference.kind})`)).toEqual([]);
  });

  it('is committed as generated (run npm run compatibility after changing a schema)', () => {
    expect(readFileSync(join(import.meta.dirname, '..', '..', '..', REPORT_PATH), 'utf8')).toBe(report.markdown);
  });
});
