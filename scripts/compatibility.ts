/**
 * Compares our OpenAPI document with Voucherify's reference and writes `docs/compatibility.md`:
 * the reply side (fields compared document to document) and the request side (requests built from
 * the reference's request schemas, sent to our handlers on a local runtime; scripts/compatibility/request-*.ts).
 * Exits non-zero when a field the seed spec names is missing or mistyped in our document, or when a
 * request-side refusal is not named in docs/decisions.md (or a row there names none, or a reply is a 5xx).
 * Usage: `npm run compatibility` (`--check` compares with the committed files instead of writing them;
 * `--replies-only` skips the request side and keeps its committed section).
 *
 * The reference (`../shared/reference/voucherify-openapi.json`) lives outside the repository, so
 * what the comparison reads of it is kept in `scripts/compatibility/voucherify-fields.json` (field
 * paths, types and enum values only) and `scripts/compatibility/voucherify-requests.json` (request
 * schemas reduced to types, formats, enums, bounds and scalar examples), refreshed from the
 * reference whenever it is present.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareWithReference, referenceSnapshot, type ReferenceSnapshot } from './compatibility/compare.js';
import { buildReport } from './compatibility/report.js';
import { parseExceptions } from './compatibility/request-exceptions.js';
import { REQUEST_SECTION_HEADING } from './compatibility/request-report.js';
import { checkRequestsLocally, freshRequestSnapshot } from './compatibility/request-side.js';
import type { RequestSnapshot } from './compatibility/request-snapshot.js';
import type { JsonObject } from './compatibility/schema-fields.js';

const root = join(import.meta.dirname, '..');
export const REFERENCE_PATH = '../shared/reference/voucherify-openapi.json';
export const SNAPSHOT_PATH = 'scripts/compatibility/voucherify-fields.json';
export const REQUEST_SNAPSHOT_PATH = 'scripts/compatibility/voucherify-requests.json';
export const REPORT_PATH = 'docs/compatibility.md';
export const DECISIONS_PATH = 'docs/decisions.md';

const readText = (path: string): string => readFileSync(join(root, path), 'utf8');
const readJson = <T = JsonObject>(path: string): T => JSON.parse(readText(path)) as T;
const ourDocument = (): JsonObject => readJson('docs/openapi.json');
const referenceAtHand = (): boolean => existsSync(join(root, REFERENCE_PATH));

export const snapshotText = (snapshot: unknown): string => `${JSON.stringify(snapshot, null, 1)}\n`;

/** The reference's fields as the committed snapshot holds them. */
export const committedSnapshot = (): ReferenceSnapshot => readJson<ReferenceSnapshot>(SNAPSHOT_PATH);

/** A fresh snapshot from the reference, or null on a checkout without `../shared/`. */
export function freshSnapshot(): ReferenceSnapshot | null {
  if (!referenceAtHand()) return null;
  return referenceSnapshot(ourDocument(), readJson(REFERENCE_PATH), REFERENCE_PATH);
}

/** The reference's request schemas as committed. */
export const committedRequestSnapshot = (): RequestSnapshot => readJson<RequestSnapshot>(REQUEST_SNAPSHOT_PATH);

/** Fresh request schemas from the reference, or null without it. */
export function freshRequestSnapshotOrNull(): RequestSnapshot | null {
  if (!referenceAtHand()) return null;
  return freshRequestSnapshot(ourDocument(), readJson(REFERENCE_PATH), REFERENCE_PATH);
}

/** The reply side of the report (the part of docs/compatibility.md before the request side). */
export function compatibilityReport(snapshot: ReferenceSnapshot = committedSnapshot()): ReturnType<typeof buildReport> {
  return buildReport(compareWithReference(ourDocument(), snapshot), REFERENCE_PATH);
}

/** docs/compatibility.md split into its reply side and its request side (from its heading on; '' when absent). */
export function reportParts(text: string): { replies: string; requests: string } {
  const at = text.indexOf(`\n${REQUEST_SECTION_HEADING}\n`);
  return at < 0 ? { replies: text, requests: '' } : { replies: text.slice(0, at), requests: text.slice(at + 1) };
}

/** The whole report: the reply side, then the request side. */
export const joinReport = (replies: string, requests: string): string => (requests ? `${replies}\n${requests}` : replies);

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const repliesOnly = process.argv.includes('--replies-only');
  const fresh = freshSnapshot();
  const snapshot = fresh ?? committedSnapshot();
  const requestFresh = freshRequestSnapshotOrNull();
  if (!fresh) console.error(`${REFERENCE_PATH} not found: comparing with the committed ${SNAPSHOT_PATH} and ${REQUEST_SNAPSHOT_PATH}`);
  const report = compatibilityReport(snapshot);
  const committed = existsSync(join(root, REPORT_PATH)) ? reportParts(readText(REPORT_PATH)) : { replies: '', requests: '' };

  let requests = committed.requests;
  let requestProblems = 0;
  if (!repliesOnly) {
    const started = Date.now();
    const side = await checkRequestsLocally(requestFresh ?? committedRequestSnapshot(), parseExceptions(readText(DECISIONS_PATH)));
    requests = side.markdown;
    const { verdicts, result } = side;
    const sent = Object.values(result.requests).reduce((a, b) => a + b, 0);
    for (const o of verdicts.undocumented)
      console.error(
        `undocumented refusal: ${o.operationId} [${o.variant}] ${o.kind} ${o.location ?? ''}.${o.field ?? ''} ${o.value ?? ''} → ${o.status} ${o.key}: ${o.details}`,
      );
    for (const o of verdicts.errors)
      console.error(
        `server error: ${o.operationId} [${o.variant}] ${o.kind} ${o.location ?? ''}.${o.field ?? ''} ${o.value ?? ''} → ${o.status}: ${o.details}`,
      );
    for (const e of verdicts.unused)
      console.error(`${DECISIONS_PATH} line ${e.line}: the exception ${e.operationId} ${e.selection} ${e.field} ${e.value} names no refusal`);
    console.error(
      `request side: ${sent} requests in ${result.durationMs} ms (${Date.now() - started} ms with start-up and seeding); ` +
        `${verdicts.undocumented.length} undocumented refusals, ${verdicts.errors.length} server errors, ${verdicts.unused.length} unused exception rows`,
    );
    const slowest = Object.entries(result.durations)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5);
    console.error(`slowest: ${slowest.map(([id, ms]) => `${id} ${ms} ms (${result.requests[id]} requests)`).join(', ')}`);
    requestProblems = verdicts.undocumented.length + verdicts.errors.length + verdicts.unused.length;
  }

  const outputs: Array<[string, string]> = [[REPORT_PATH, joinReport(report.markdown, requests)]];
  if (fresh) outputs.push([SNAPSHOT_PATH, snapshotText(fresh)]);
  if (requestFresh) outputs.push([REQUEST_SNAPSHOT_PATH, snapshotText(requestFresh)]);
  for (const [path, text] of outputs) {
    if (!check) writeFileSync(join(root, path), text);
    else if (!existsSync(join(root, path)) || readText(path) !== text) {
      console.error(`${path} is stale: run npm run compatibility`);
      process.exitCode = 1;
    }
  }
  for (const v of report.seedViolations)
    console.error(`seed field ${v.operationId} ${v.location} ${v.field}: expected ${v.expected.join('|')}, found ${v.found}`);
  console.error(`${report.seedViolations.length} seed-spec violations, ${report.unexplained.length} unexplained differences on the spec's operations`);
  if (report.seedViolations.length > 0 || requestProblems > 0) process.exitCode = 1;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await main();
