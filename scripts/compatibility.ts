/**
 * Compares our OpenAPI document with Voucherify's reference and writes `docs/compatibility.md`.
 * Exits non-zero when a field the seed spec names is missing or mistyped in our document.
 * Usage: `npm run compatibility` (`--check` compares with the committed report instead of writing it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareDocuments } from './compatibility/compare.js';
import { buildReport } from './compatibility/report.js';
import type { JsonObject } from './compatibility/schema-fields.js';

const root = join(import.meta.dirname, '..');
export const REFERENCE_PATH = '../shared/reference/voucherify-openapi.json';
export const REPORT_PATH = 'docs/compatibility.md';

const readJson = (path: string): JsonObject => JSON.parse(readFileSync(join(root, path), 'utf8')) as JsonObject;

export function compatibilityReport(): ReturnType<typeof buildReport> {
  return buildReport(compareDocuments(readJson('docs/openapi.json'), readJson(REFERENCE_PATH)), REFERENCE_PATH);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const report = compatibilityReport();
  const target = join(root, REPORT_PATH);
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== report.markdown) {
      console.error(`${REPORT_PATH} is stale: run npm run compatibility`);
      process.exitCode = 1;
    }
  } else writeFileSync(target, report.markdown);
  for (const v of report.seedViolations) console.error(`seed field ${v.operationId} ${v.location} ${v.field}: expected ${v.expected.join('|')}, found ${v.found}`);
  console.error(`${report.seedViolations.length} seed-spec violations, ${report.unexplained.length} unexplained differences on the spec's operations`);
  if (report.seedViolations.length > 0) process.exitCode = 1;
}
