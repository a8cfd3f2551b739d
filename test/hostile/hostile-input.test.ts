import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileCases } from '../support/hostile/hostile-cases.js';
import { credentialHeaders, type SeededProjectTables, seededProjectTables } from '../support/hostile/project-fixture.js';
import { MAX_BODY_BYTES } from '../../lib/http/request.js';
import { MAX_JSON_DEPTH } from '../../lib/http/json-text.js';
import { addVouchersToCampaignRoute } from '../../lib/api/routes.js';
import { deepJson, jsonSchemaOf } from '../support/hostile/arbitraries.js';
import {
  allRoutes,
  contractViolation,
  dotSegmentCodeIn,
  defaultExtras,
  fillPath,
  handlerFor,
  invokeRaw,
  loadRoute,
  pathParamNames,
} from '../support/hostile/route-harness.js';
import { HOSTILE_RUNS } from '../support/hostile/runs.js';

/** A failure's activity record (lib/activity/failure.ts): the one item a refused validation or redemption writes, by design. */
const isFailureRecord = (item: string): boolean => {
  const parsed = JSON.parse(item) as { entity?: unknown; failed?: unknown };
  return parsed.entity === 'customer_activity' && (parsed.failed === 'validation' || parsed.failed === 'redemption');
};

/** Cases per route: small in `npm test`, ≥ 1,000 in `npm run test:hostile`. */
const RUNS = HOSTILE_RUNS;
/**
 * The quick run in `npm test` replays one fixed seed, so CI is reproducible; the full run draws a new
 * seed each time to keep exploring (fast-check prints it with any counterexample; HOSTILE_SEED replays it).
 */
const QUICK_SEED = 20261122;
const SEED = process.env.HOSTILE_SEED !== undefined ? Number(process.env.HOSTILE_SEED) : RUNS <= 100 ? QUICK_SEED : undefined;

interface RouteStats {
  route: string;
  cases: number;
  statuses: Record<string, number>;
  writeFailuresChecked: number;
  ms: number;
}
const stats: RouteStats[] = [];
/** What Object.prototype holds before any case: a request that adds to it has polluted every object of the process. */
const prototypeNames = Object.getOwnPropertyNames(Object.prototype).join();

/** The seeded project every test starts from, in a table of its own (seeded once, copied per route). */
let seeded: SeededProjectTables;
beforeAll(async () => {
  seeded = await seededProjectTables('H');
}, 120_000);

afterAll(() => {
  if (process.env.HOSTILE_REPORT) writeFileSync(process.env.HOSTILE_REPORT, JSON.stringify({ runsPerRoute: RUNS, seed: SEED ?? null, routes: stats }, null, 2));
});

describe('oversized bodies on every route of the route table', () => {
  it('answers 413 with the error object to a body over 1 MiB on every route, whatever its method, and stores nothing', async () => {
    const table = await seeded.fresh('oversized');
    try {
      const runtime = table.runtime();
      const { fixture } = seeded;
      const before = await table.snapshot(fixture.pair.project_id);
      for (const route of allRoutes) {
        const mod = await loadRoute(route);
        const handler = handlerFor(route, mod, runtime, defaultExtras());
        const params = Object.fromEntries(pathParamNames(route.path).map((name) => [name, fixture.refs[name]?.[0] ?? 'x']));
        const path = route.path === '$default' ? '/v1/nowhere' : fillPath(route.path, params);
        for (const [contentType, body] of [
          ['application/json', JSON.stringify({ pad: 'z'.repeat(MAX_BODY_BYTES) })],
          ['application/x-www-form-urlencoded', `a=${'z'.repeat(MAX_BODY_BYTES)}`],
        ] as const) {
          const reply = await invokeRaw(handler, {
            method: route.method,
            path,
            pathParameters: params,
            headers: { ...credentialHeaders(route, fixture), 'content-type': contentType },
            body,
          });
          expect({ route: route.operationId, status: reply.status, violation: contractViolation(reply) }).toEqual({
            route: route.operationId,
            status: 413,
            violation: undefined,
          });
        }
      }
      expect(await table.snapshot(fixture.pair.project_id)).toEqual(before);
    } finally {
      await table.drop();
    }
  }, 120_000);
});

/** One fixed hostile request of issue 20 and what every route must answer to it. */
interface BodyCase {
  name: string;
  body?: string;
  query?: string;
  /** A path parameter value (all the route's parameters take it). */
  param?: string;
  /** The reply a route that reads this part must give (any route: no 5xx, the error object, well-formed Unicode). */
  expect?: { key: string; details: RegExp };
  /** The body chooses a dot-segment voucher code: the route that takes codes must say why it refuses it. */
  dotSegmentCode?: true;
}

const DEPTH_DETAILS = new RegExp(`is nested more than ${MAX_JSON_DEPTH} levels deep; a JSON document may nest at most ${MAX_JSON_DEPTH} levels$`);
const ILL_FORMED_DETAILS = /is (a property name that is )?not well-formed Unicode \(it holds a lone UTF-16 surrogate\)$/;

const bodyCases: BodyCase[] = [
  {
    name: 'metadata nested 10,000 objects deep',
    body: `{"metadata":${deepJson('object', 10_000)}}`,
    expect: { key: 'invalid_payload', details: DEPTH_DETAILS },
  },
  { name: 'a body nested 100,000 objects deep', body: deepJson('object', 100_000), expect: { key: 'invalid_payload', details: DEPTH_DETAILS } },
  { name: 'a body nested 200,000 arrays deep', body: deepJson('array', 200_000), expect: { key: 'invalid_payload', details: DEPTH_DETAILS } },
  { name: 'a metadata key holding a lone surrogate', body: '{"metadata":{"\\ud800":1}}', expect: { key: 'invalid_payload', details: ILL_FORMED_DETAILS } },
  { name: 'a key ending in a lone high surrogate', body: '{"X\\ud800":1}', expect: { key: 'invalid_payload', details: ILL_FORMED_DETAILS } },
  { name: 'a name holding a lone surrogate', body: '{"name":"\\udc00X"}', expect: { key: 'invalid_payload', details: ILL_FORMED_DETAILS } },
  { name: 'a code holding a lone surrogate', body: '{"code":"A\\ud800"}', expect: { key: 'invalid_payload', details: ILL_FORMED_DETAILS } },
  { name: 'the code ..', body: '{"code":".."}', dotSegmentCode: true },
  { name: 'the code .', body: '{"code":"."}', dotSegmentCode: true },
  {
    name: 'query JSON nested 10,000 objects deep',
    query: `filters=${encodeURIComponent(deepJson('object', 10_000))}`,
    expect: { key: 'invalid_query_params', details: DEPTH_DETAILS },
  },
  {
    name: 'query JSON with a lone-surrogate key',
    query: `filters=${encodeURIComponent('{"\\ud800":1}')}`,
    expect: { key: 'invalid_query_params', details: /^Property \.filters\.\\ud800 is a property name that is not well-formed Unicode/ },
  },
  { name: 'a path parameter holding a lone surrogate', param: '\ud800', expect: { key: 'invalid_payload', details: ILL_FORMED_DETAILS } },
  { name: 'a path parameter holding a lone low surrogate', param: 'x\udc00', expect: { key: 'invalid_payload', details: ILL_FORMED_DETAILS } },
  { name: 'the path parameter ..', param: '..' },
  { name: 'the path parameter .', param: '.' },
];

describe('deep nesting, lone surrogates and dot-segment codes on every route of the route table (issue 20)', () => {
  it('answers each with a 4xx error object (400 with the bound or the field named where the route reads that part), never a 5xx, and stores nothing', async () => {
    const table = await seeded.fresh('bodies');
    try {
      const runtime = table.runtime();
      const { fixture } = seeded;
      const before = await table.snapshot(fixture.pair.project_id);
      let sent = 0;
      for (const route of allRoutes) {
        const mod = await loadRoute(route);
        const handler = handlerFor(route, mod, runtime, defaultExtras());
        const names = pathParamNames(route.path);
        const takesFilters = mod.schemas.query !== undefined && jsonSchemaOf(mod.schemas.query).properties?.filters !== undefined;
        const takesCode = mod.schemas.body !== undefined && JSON.stringify(jsonSchemaOf(mod.schemas.body)).includes('"code":');
        for (const c of bodyCases) {
          if (c.param !== undefined && names.length === 0) continue;
          // A body key a route does not read is ignored (issue 33): `{"code":".."}` is then an empty body, a valid request on some routes.
          if (c.dotSegmentCode && !takesCode) continue;
          // The real resources, so that a body is judged on its own; names that exist nowhere where the body is ignored (nothing may change).
          const params = Object.fromEntries(names.map((n) => [n, c.param ?? (route.body === 'json' ? (fixture.refs[n]?.[0] ?? 'x') : 'missing')]));
          const reply = await invokeRaw(handler, {
            method: route.method,
            path: route.path === '$default' ? '/v1/nowhere' : fillPath(route.path, params),
            pathParameters: params,
            ...(c.query !== undefined ? { query: c.query } : {}),
            headers: { ...credentialHeaders(route, fixture), 'content-type': 'application/json' },
            ...(c.body !== undefined ? { body: c.body } : {}),
          });
          const where = `${route.operationId}: ${c.name}`;
          expect(contractViolation(reply), where).toBeUndefined();
          expect(dotSegmentCodeIn(reply.body), where).toBeUndefined();
          // Which routes read the part: a JSON body on JSON routes, path parameters where the route has them, the query everywhere but the fallback.
          const reads = c.body !== undefined ? route.body === 'json' : c.param !== undefined ? true : route.path !== '$default';
          if (c.expect && reads) {
            expect({ where, status: reply.status, key: (reply.body as { key?: string }).key }).toEqual({ where, status: 400, key: c.expect.key });
            // A query without a `filters` parameter refuses it as unknown before any JSON is read.
            if (c.query === undefined || takesFilters) expect((reply.body as { details: string }).details, where).toMatch(c.expect.details);
          }
          if (c.dotSegmentCode && route === addVouchersToCampaignRoute) {
            expect((reply.body as { details?: string }).details, where).toMatch(/^Property \.code must not be "\." or "\.\.": HTTP clients remove/);
          }
          sent += 1;
        }
      }
      expect(await table.snapshot(fixture.pair.project_id)).toEqual(before);
      expect(sent).toBeGreaterThan(allRoutes.length * 10);
    } finally {
      await table.drop();
    }
  }, 180_000);
});

describe('hostile input on every route of the route table', () => {
  for (const route of allRoutes) {
    it(
      `answers ${RUNS} broken requests to ${route.method} ${route.path} (${route.operationId}) with a success or a 4xx error object, never a 5xx, and writes nothing when it fails`,
      async () => {
        const started = Date.now();
        const table = await seeded.fresh('hostile');
        try {
          const runtime = table.runtime();
          const { fixture } = seeded;
          const mod = await loadRoute(route);
          const handler = handlerFor(route, mod, runtime, defaultExtras());
          const projectId = fixture.pair.project_id;
          const known = [...Object.values(fixture.refs).flat(), ...fixture.names];
          const strings = fc.oneof(
            { weight: 2, arbitrary: fc.constantFrom(...known) },
            { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
            // Lone surrogates where a valid request has text (a name, a source id): refused, never stored.
            { weight: 1, arbitrary: fc.constantFrom('\uD800X', '\uDC00X', 'X\uD800') },
          );
          const headers = credentialHeaders(route, fixture);
          const tally: RouteStats = { route: route.operationId, cases: 0, statuses: {}, writeFailuresChecked: 0, ms: 0 };
          let before = route.access === 'write' ? await table.snapshot(projectId) : [];

          await fc.assert(
            fc.asyncProperty(hostileCases(route, mod, headers, fixture.refs, strings), async (c) => {
              const reply = await invokeRaw(handler, c.request);
              tally.cases += 1;
              tally.statuses[reply.status] = (tally.statuses[reply.status] ?? 0) + 1;
              if (Object.getOwnPropertyNames(Object.prototype).join() !== prototypeNames) throw new Error(`Object.prototype was changed by ${c.summary}`);
              const violation = contractViolation(reply);
              if (violation) throw new Error(`${violation} for ${c.summary}: ${reply.text?.slice(0, 500)}`);
              // A request broken in several places may be refused for an earlier part (query, path) with a 400.
              if (c.oversized && reply.status !== 413 && reply.status !== 400) throw new Error(`oversized body answered ${reply.status}: ${c.summary}`);
              // Refused while parsing, before anything walks it (413 when a mutation also made it too large).
              if (c.tooDeep && reply.status !== 400 && reply.status !== 413) throw new Error(`body nested too deep answered ${reply.status}: ${c.summary}`);
              const dotCode = dotSegmentCodeIn(reply.body);
              if (dotCode !== undefined) throw new Error(`a reply holds the voucher code ${dotCode}, which no client can address: ${c.summary}`);
              if (route.access !== 'write') return;
              const after = await table.snapshot(projectId);
              if (reply.status >= 400) {
                tally.writeFailuresChecked += 1;
                // A refused write leaves the project exactly as it was: no item added, changed or removed.
                // Except the activity record of a validation or redemption that failed for a stored customer (docs/decisions.md "Activity").
                const added = after.filter((i) => !before.includes(i) && !isFailureRecord(i));
                const removed = before.filter((i) => !after.includes(i));
                if (added.length + removed.length > 0) {
                  throw new Error(
                    `failed write (${reply.status}) changed the project: +${added.join('\n+').slice(0, 800)} -${removed.join('\n-').slice(0, 800)} for ${c.summary}`,
                  );
                }
              }
              before = after;
            }),
            { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: RUNS > 100 },
          );
          tally.ms = Date.now() - started;
          stats.push(tally);
          expect(tally.cases).toBeGreaterThanOrEqual(RUNS);
        } finally {
          await table.drop();
        }
      },
      60_000 + RUNS * 600,
    );
  }
});
