/**
 * The request-side check end to end: the reference's request schemas (committed snapshot, or fresh
 * from the reference), the cases, a local runtime on in-memory engines (the handlers Lambda runs,
 * over HTTP, with the real jobs worker), the seeded project, the run, and the verdicts against the
 * exceptions table of docs/decisions.md.
 */
import { startLocal } from '../../infra/local/start-local.js';
import { routes } from '../../lib/api/routes.js';
import { silentLogger } from '../../lib/logger.js';
import { createLocation } from '../../lib/locations/location.service.js';
import { createRuntime } from '../../lib/runtime.js';
import { operationsOf } from './compare.js';
import { requestCases } from './request-cases.js';
import { runRequestCheck, type RequestCheckResult } from './request-check.js';
import type { RequestException } from './request-exceptions.js';
import { requestHintsFor } from './request-hints.js';
import { judge, requestSection, type RequestVerdicts } from './request-report.js';
import { seedProject, type Send } from './request-seed.js';
import { requestSnapshot, type RequestSnapshot } from './request-snapshot.js';
import type { JsonObject } from './schema-fields.js';

/** The operations checked: the endpoint table's rows whose operation id the reference has. */
export function checkedOperations(reference: JsonObject): string[] {
  const theirs = new Set(operationsOf(reference).map((o) => o.operationId));
  return routes.map((r) => r.operationId).filter((id) => theirs.has(id));
}

/** The request side of the reference for our operations. */
export function freshRequestSnapshot(ours: JsonObject, reference: JsonObject, source: string): RequestSnapshot {
  return requestSnapshot(ours, reference, checkedOperations(reference), source);
}

export interface RequestSideResult {
  result: RequestCheckResult;
  verdicts: RequestVerdicts;
  markdown: string;
}

/** Runs the check through `send` (the project's unrestricted key pair on every request). */
export async function checkRequests(
  send: Send,
  snapshot: RequestSnapshot,
  exceptions: readonly RequestException[],
  operatorSeeds: Record<string, string> = {},
): Promise<RequestSideResult> {
  const hints = requestHintsFor(snapshot);
  const made = await seedProject(send);
  // What only the operator CLI makes (no API call does): given by the caller, which reaches the table.
  const seeds = { ...made, values: { ...made.values, ...operatorSeeds } };
  const result = await runRequestCheck(send, seeds, requestCases(snapshot, hints), hints);
  const verdicts = judge(result, exceptions);
  return { result, verdicts, markdown: requestSection(result, verdicts, hints) };
}

/** A `Send` over HTTP to a local runtime's two clusters with one project's key pair (and its client-side pair). */
export function httpSend(
  urls: { api: string; download: string },
  keyPair: { app_id: string; app_token: string },
  clientKey?: { app_id: string; app_token: string },
  managementKey?: { management_id: string; management_token: string },
): Send {
  // Every pair on every request: a server route reads X-App-*, a client route (/client/v1/*) X-Client-* only, a management route X-Management-* only.
  const auth = {
    'x-app-id': keyPair.app_id,
    'x-app-token': keyPair.app_token,
    ...(clientKey ? { 'x-client-application-id': clientKey.app_id, 'x-client-token': clientKey.app_token } : {}),
    ...(managementKey ? { 'x-management-id': managementKey.management_id, 'x-management-token': managementKey.management_token } : {}),
  };
  return async (r) => {
    const res = await fetch(`${r.cluster === 'api' ? urls.api : urls.download}${r.path}`, {
      method: r.method,
      headers: { ...auth, ...r.headers },
      ...(r.body !== undefined ? { body: r.body } : {}),
      redirect: 'manual',
    });
    return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
  };
}

/** Starts a local runtime on fresh in-memory engines, runs the check, stops everything. */
export async function checkRequestsLocally(snapshot: RequestSnapshot, exceptions: readonly RequestException[]): Promise<RequestSideResult> {
  // Over 6,000 requests to one project within a minute or two: the local runtime's per-project limit would answer 429.
  process.env.RATE_LIMIT_REQUESTS ??= '0';
  const local = await startLocal({ dataDir: null, port: 0, downloadPort: 0, logger: silentLogger, logLevel: 'error' });
  try {
    // A location of the dev project, as `npm run admin -- location create` makes one (the reference has no create).
    const runtime = createRuntime({
      tableName: local.engines.tableName,
      region: local.engines.region,
      dynamoDbEndpoint: local.engines.dynamoEndpoint,
      cluster: 'api',
      logLevel: 'error',
    });
    const location = await createLocation(runtime, local.devKey.project_id, {
      name: 'compat-location',
      shape: { type: 'circle', format: 'distance', distance: { center: 'geo:52.23,21.01', radius: '5 km' } },
    });
    return await checkRequests(
      httpSend({ api: local.apiUrl, download: local.downloadUrl }, local.devKey, local.devClientKey, local.devManagementKey),
      snapshot,
      exceptions,
      { locationId: location.id, devProjectId: local.devKey.project_id },
    );
  } finally {
    await local.stop();
  }
}
