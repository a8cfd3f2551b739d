/**
 * Compares our OpenAPI document with Voucherify's reference and writes `docs/compatibility.md`.
 * Exits non-zero when a field the seed spec names is missing or mistyped in our document.
 * Usage: `npm run compatibility` (`--check` compares with the committed files instead of writing them).
 *
 * The reference (`../shared/reference/voucherify-openapi.json`) lives outside the repository, so
 * what the comparison reads of it is kept in `scripts/compatibility/voucherify-fields.json` (field
 * paths, types and enum values only) and refreshed from the reference whenever it is present.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareWithReference, referenceSnapshot, type ReferenceSnapshot } from './compatibility/compare.js';
import { buildReport } from './compatibility/report.js';
import type { JsonObject } from './compatibility/schema-fields.js';

const root = join(import.meta.dirname, '..');
export const REFERENCE_PATH = '../shared/reference/voucherify-openapi.json';
export const SNAPSHOT_PATH = 'scripts/compatibility/voucherify-fields.json';
export const REPORT_PATH = 'docs/compatibility.md';

const readJson = <T = JsonObject>(path: string): T => JSON.parse(readFileSync(join(root, path), 'utf8')) as T;
const ourDocument = (): JsonObject => readJson('docs/openapi.json');

export const snapshotText = (snapshot: ReferenceSnapshot): string => `${JSON.stringify(snapshot, null, 1)}\n`;

/** The reference's fields as the committed snapshot holds them. */
export const committedSnapshot = (): ReferenceSnapshot => readJson<ReferenceSnapshot>(SNAPSHOT_PATH);

/** A fresh snapshot from the reference, or null on a checkout without `../shared/`. */
export function freshSnapshot(): ReferenceSnapshot | null {
  if (!existsSync(join(root, REFERENCE_PATH))) return null;
  return referenceSnapshot(ourDocument(), readJson(REFERENCE_PATH), REFERENCE_PATH);
}

export function compatibilityReport(snapshot: ReferenceSnapshot = committedSnapshot()): ReturnType<typeof buildReport> {
  return buildReport(compareWithReference(ourDocument(), snapshot), REFERENCE_PATH);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const check = process.argv.includes('--check');
  const fresh = freshSnapshot();
  const snapshot = fresh ?? committedSnapshot();
  if (!fresh) console.error(`${REFERENCE_PATH} not found: comparing with the committed ${SNAPSHOT_PATH}`);
  const report = compatibilityReport(snapshot);
  const outputs: Array<[string, string]> = [[REPORT_PATH, report.markdown], ...(fresh ? [[SNAPSHOT_PATH, snapshotText(fresh)] as [string, string]] : [])];
  for (const [path, text] of outputs) {
    if (!check) writeFileSync(join(root, path), text);
    else if (readFileSync(join(root, path), 'utf8') !== text) {
      console.error(`${path} is stale: run npm run compatibility`);
      process.exitCode = 1;
    }
  }
  for (const v of report.seedViolations)
    console.error(`seed field ${v.operationId} ${v.location} ${v.field}: expected ${v.expected.join('|')}, found ${v.found}`);
  console.error(`${report.seedViolations.length} seed-spec violations, ${report.unexplained.length} unexplained differences on the spec's operations`);
  if (report.seedViolations.length > 0) process.exitCode = 1;
}
