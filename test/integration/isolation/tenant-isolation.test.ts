import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef } from '../../../lib/api/route.js';
import { jsonSchemaOf, validish } from '../../support/hostile/arbitraries.js';
import { seedProject, type ProjectFixture } from '../../support/hostile/project-fixture.js';
import {
  allRoutes,
  capturingLogger,
  contractViolation,
  createOwnTable,
  defaultExtras,
  fillPath,
  handlerFor,
  invokeRaw,
  loadRoute,
  pathParamNames,
  routeClient,
  type OwnTable,
  type RawRequest,
} from '../../support/hostile/route-harness.js';
import { createCampaignRoute, generateOauthTokenRoute, getProjectRoute, listProjectsRoute } from '../../../lib/api/routes.js';
import { campaignBodies } from '../../support/api.js';
import { keyPairHeaders, managementHeaders, newProject } from '../../support/runtime.js';
import { HOSTILE_MULTIPART_TYPE, hostileMultipartText } from '../../support/hostile/hostile-cases.js';
import { HOSTILE_RUNS } from '../../support/hostile/runs.js';

/** Generated bodies per route and credential (more in `npm run test:hostile`). */
const BODIES = Math.max(6, Math.min(200, Math.floor(HOSTILE_RUNS / 2)));

let table: OwnTable;
let a: ProjectFixture;
let b: ProjectFixture;
/** Every secret seen: key-pair tokens, access tokens (fixtures' and any A obtained during the probes), download tokens. */
const secrets = new Set<string>();
const errorBodies: string[] = [];
/** Every line the runtime logs, at every level. */
const capture = capturingLogger();
let handlers: Map<string, Awaited<ReturnType<typeof buildHandler>>>;

async function buildHandler(route: RouteDef) {
  return handlerFor(route, await loadRoute(route), table.runtime({ logger: capture.logger }), defaultExtras());
}
beforeAll(async () => {
  table = await createOwnTable('isolation');
  const runtime = table.runtime({ logger: capture.logger });
  b = await seedProject(runtime, 'BRAVO');
  a = await seedProject(runtime, 'ALPHA');
  for (const s of [...a.secrets, ...b.secrets]) secrets.add(s);
  handlers = new Map();
  for (const route of allRoutes) handlers.set(`${route.operationId}:${route.cluster}`, await buildHandler(route));
}, 120_000);

/** Requests and statuses per route, written to `<HOSTILE_REPORT>.isolation.json` when set. */
const tally: { route: string; requests: number; statuses: Record<string, number> }[] = [];

afterAll(async () => {
  await table.drop();
  if (process.env.HOSTILE_REPORT) writeFileSync(`${process.env.HOSTILE_REPORT}.isolation.json`, JSON.stringify({ bodies: BODIES, routes: tally }, null, 2));
});

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Every string a request carries (path values, query, body leaves): echoing them back is not a leak. */
function sentStrings(req: RawRequest): string[] {
  // Each query value too: a reply that echoes a code A sent in the query (`?code=`) names what A sent, not what B holds.
  const queryValues = [...new URLSearchParams(req.query ?? '')].map(([, v]) => v);
  const out = [...Object.values(req.pathParameters ?? {}), safeDecode(req.path), safeDecode(req.query ?? ''), ...queryValues];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  if (typeof req.body === 'string') {
    try {
      walk(JSON.parse(req.body));
    } catch {
      for (const [, v] of new URLSearchParams(req.body)) out.push(v);
    }
  }
  return out.filter((s) => s.length > 0);
}

/** B's identifiers (ids, names, codes) found in a reply, once `resource_id` and A's own words are taken out. */
function leaksOf(text: string, req: RawRequest, ownWords: Set<string>): string[] {
  let rest = text;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (body && typeof body === 'object' && !Array.isArray(body) && 'resource_id' in body) {
      delete body.resource_id;
      rest = JSON.stringify(body);
    }
  } catch {
    // Not JSON: look at the raw text.
  }
  for (const s of [...sentStrings(req), ...ownWords].sort((x, y) => y.length - x.length))
    rest = rest.split(JSON.stringify(s).slice(1, -1)).join('').split(s).join('');
  return [...b.ids, ...b.names].filter((v) => rest.includes(v));
}

/**
 * Path parameters that name a resource to create, not one to look up (a new voucher's code): codes
 * are unique per project, so A may give its voucher a code B uses too. Only the other parameters
 * are lookups that must find nothing of B's.
 */
const CREATING_PARAMS: Record<string, readonly string[]> = {
  'create-voucher': ['code'],
  'add-voucher-with-specific-code-to-campaign': ['code'],
};
const lookupParamNames = (route: RouteDef): string[] => pathParamNames(route.path).filter((n) => !CREATING_PARAMS[route.operationId]?.includes(n));

/** A project of A's side made for one route: nothing it did for an earlier route can be mistaken for a leak. */
async function freshA(route: RouteDef): Promise<{ headers: Record<string, string>[]; ownCampaign: string }> {
  const api = routeClient(table.runtime({ logger: capture.logger }));
  const pair = await newProject(table.runtime(), `A for ${route.operationId}`);
  const kp = keyPairHeaders(pair);
  const token = await api(generateOauthTokenRoute, { form: { grant_type: 'client_credentials', scope: 'api' }, headers: kp });
  const accessToken = (token.body as { access_token: string }).access_token;
  secrets.add(pair.app_token);
  secrets.add(accessToken);
  const campaign = await api(createCampaignRoute, { json: campaignBodies.LOYALTY_PROGRAM('A own club'), headers: kp });
  return { headers: [kp, { authorization: `Bearer ${accessToken}` }], ownCampaign: (campaign.body as { id: string }).id };
}

async function probeRoute(route: RouteDef): Promise<{ statuses: number[]; leaks: string[] }> {
  const mod = await loadRoute(route);
  const handler = handlers.get(`${route.operationId}:${route.cluster}`);
  if (!handler) throw new Error(`no handler for ${route.operationId}`);
  const own = await freshA(route);
  const names = pathParamNames(route.path);
  const allB = [...Object.values(b.refs).flat(), ...b.names, ...b.ids];
  const valuesOf = (name: string): string[] => b.refs[name] ?? allB;
  let combos: Record<string, string>[] = [{}];
  for (const name of names) {
    const next: Record<string, string>[] = [];
    for (const combo of combos) {
      // A's own campaign in the first slot with B's card in the second must not reach B either.
      const mixed = Object.keys(combo).length === 0 && names.length > 1 && name === 'campaignId' ? [own.ownCampaign] : [];
      for (const v of [...valuesOf(name), ...mixed]) next.push({ ...combo, [name]: v });
    }
    combos = next;
  }
  if (route.path === '$default') combos = [...b.ids, ...b.names].map((v) => ({ path: `/v1/campaigns/${encodeURIComponent(v)}/unknown` }));
  // Secrets go only into form bodies (the OAuth endpoints: introspecting B's token); elsewhere A would merely name things after them.
  const strings = fc.constantFrom(...allB, ...(route.body === 'form' ? b.secrets : []));
  const sample = (schema: ReturnType<typeof jsonSchemaOf> | undefined, n: number): unknown[] =>
    schema
      ? [true, false].flatMap((minimal) => fc.sample(validish(schema, { root: schema, depth: 0, strings, minimal }), { numRuns: Math.ceil(n / 2), seed: 8 }))
      : [undefined];
  const bodySchema = mod.schemas.body ? jsonSchemaOf(mod.schemas.body) : undefined;
  const querySchema = mod.schemas.query ? jsonSchemaOf(mod.schemas.query) : undefined;
  const bodies = route.body === 'none' ? [undefined] : sample(bodySchema, BODIES);
  const queries = [
    '',
    ...(querySchema ? sample(querySchema, 4) : []).map((q) =>
      new URLSearchParams(
        Object.entries((q ?? {}) as Record<string, unknown>).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      ).toString(),
    ),
  ];
  // A route that takes a signed link in place of credentials also gets A's own link (A's export), with and without A's credentials.
  const signedLink = route.auth !== 'none' && route.auth !== 'management' && route.auth.signedLink !== undefined;
  if (signedLink && names.includes('exportId')) queries.push(a.exportDownloadQuery);
  const pairs: [unknown, string][] = bodies.length === 1 ? queries.map((q) => [bodies[0], q]) : bodies.map((x, i) => [x, queries[i % queries.length] ?? '']);
  const credentialSets: Record<string, string>[] = route.auth === 'none' ? [{}] : signedLink ? [...own.headers, {}] : own.headers;

  const statuses: number[] = [];
  const leaks: string[] = [];
  const ownWords = new Set<string>();
  for (const headers of credentialSets) {
    for (const params of combos) {
      for (const [body, query] of pairs) {
        let text: string | undefined;
        let contentType = 'application/json';
        if (route.body === 'multipart') {
          contentType = HOSTILE_MULTIPART_TYPE;
          text = hostileMultipartText((body ?? {}) as Record<string, unknown>);
        } else if (route.body === 'form') {
          contentType = 'application/x-www-form-urlencoded';
          text = new URLSearchParams(
            Object.entries((body ?? {}) as Record<string, unknown>).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
          ).toString();
        } else if (body !== undefined) text = JSON.stringify(body);
        const req: RawRequest = {
          method: route.method,
          path: route.path === '$default' ? (params.path ?? '/') : fillPath(route.path, params),
          ...(route.path === '$default' ? {} : { pathParameters: params }),
          query,
          headers: { ...headers, ...(text !== undefined ? { 'content-type': contentType } : {}) },
          ...(text !== undefined ? { body: text } : {}),
        };
        const reply = await invokeRaw(handler, req);
        const violation = contractViolation(reply);
        if (violation) throw new Error(`${route.operationId}: ${violation} for ${req.path} ${text?.slice(0, 300)}: ${reply.text?.slice(0, 300)}`);
        statuses.push(reply.status);
        const replyText = reply.text ?? '';
        if (reply.status >= 400) errorBodies.push(replyText);
        const token = (reply.body as { access_token?: unknown } | undefined)?.access_token;
        if (typeof token === 'string') secrets.add(token);
        for (const secret of b.secrets) if (replyText.includes(secret)) leaks.push(`secret of B in ${route.operationId} reply`);
        for (const leak of leaksOf(replyText, req, ownWords))
          leaks.push(`${leak} in ${route.operationId} ${reply.status} reply to ${req.path}: ${replyText.slice(0, 300)}`);
        // A duplicate of something A never made itself can only be B's: names are per project.
        if (reply.status === 409 && !sentStrings(req).some((w) => ownWords.has(w))) leaks.push(`409 in ${route.operationId}: ${replyText.slice(0, 300)}`);
        const lookups = lookupParamNames(route);
        // A's own campaign in a lookup slot may answer (the other slot creates); any of B's must not.
        if (lookups.length > 0 && route.path !== '$default' && reply.status < 400 && lookups.some((n) => params[n] !== own.ownCampaign))
          leaks.push(`${route.operationId} answered ${reply.status} to A for ${JSON.stringify(params)}`);
        if (reply.status < 300) for (const w of sentStrings(req)) ownWords.add(w);
      }
    }
  }
  return { statuses, leaks };
}

/*
 * Management routes (/management/v1/*) are in the table too: A's project credentials must get 401 on every one of them
 * (the operator's management key is no tenant's credential). A management key itself is operator-wide: it reaches
 * every project, which the last-but-one test states rather than hides.
 */
describe("tenant isolation: project A's key pair and OAuth token against project B's resources, route by route", () => {
  for (const route of allRoutes) {
    it(
      `${route.method} ${route.path} (${route.operationId}) never shows or changes project B's data to project A`,
      async () => {
        const before = await table.snapshot(b.pair.project_id);
        const { statuses, leaks } = await probeRoute(route);
        const counts: Record<string, number> = {};
        for (const st of statuses) counts[st] = (counts[st] ?? 0) + 1;
        tally.push({ route: route.operationId, requests: statuses.length, statuses: counts });
        expect(leaks).toEqual([]);
        expect(statuses.every((s) => s < 500)).toBe(true);
        // The Management API is the operator's, not a tenant's: no project credential (A's key pair or token) opens it.
        if (route.auth === 'management') expect(new Set(statuses)).toEqual(new Set([401]));
        if (lookupParamNames(route).length > 0 && route.path !== '$default' && !CREATING_PARAMS[route.operationId]) {
          // Every answer is a refusal, and some reached the lookup (not only validation) and found nothing.
          expect(statuses.filter((s) => ![400, 401, 403, 404].includes(s))).toEqual([]);
          expect(statuses.filter((s) => s === 404 || s === 401).length).toBeGreaterThan(0);
        }
        if (CREATING_PARAMS[route.operationId] && lookupParamNames(route).length > 0) {
          // B's campaign in the lookup slot was looked up and not found.
          expect(statuses.filter((s) => s === 404 || s === 401).length).toBeGreaterThan(0);
        }
        expect(await table.snapshot(b.pair.project_id)).toEqual(before);
      },
      // A hang guard, not a speed target: update routes whose every sampled body is accepted (update-earning-rule: ~45 s
      // at the default runs on a quiet machine) spend most of it in the leak scan of their accepted bodies.
      60_000 + BODIES * 8_000,
    );
  }

  it('lets a management key reach every project: management keys are operator-wide by design (docs/auth.md "Management keys")', async () => {
    const api = routeClient(table.runtime({ logger: capture.logger }));
    const headers = managementHeaders(a.management);
    secrets.add(a.management.management_token);
    for (const project of [a, b]) {
      const got = await api(getProjectRoute, { params: { projectId: project.pair.project_id }, headers });
      expect(got.status).toBe(200);
      expect((got.body as { id: string }).id).toBe(project.pair.project_id);
    }
    const listed = (await api(listProjectsRoute, { headers })).body as { data: { id: string }[] };
    expect(listed.data.map((p) => p.id)).toEqual(expect.arrayContaining([a.pair.project_id, b.pair.project_id]));
  });

  it('keeps app tokens and access tokens out of the table, the logs and every error body', async () => {
    expect(secrets.size).toBeGreaterThanOrEqual(6);
    const items = await table.scanAll();
    const lines = capture.lines;
    expect(lines.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const secret of secrets) {
      if (items.some((i) => i.includes(secret))) found.push(`table holds ${secret.slice(0, 6)}…`);
      if (lines.some((l) => l.includes(secret))) found.push(`logs hold ${secret.slice(0, 6)}…`);
      if (errorBodies.some((e) => e.includes(secret))) found.push(`an error body holds ${secret.slice(0, 6)}…`);
    }
    expect(found).toEqual([]);
  });
});
