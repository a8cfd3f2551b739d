/**
 * Issue 41 ("the hostile suite learns size"): for every route that reads a JSON body, each array and
 * each string of a request the route accepts grows, one at a time and at every depth, up to the body
 * limit. Whatever size the route stops accepting it at, it must refuse with a 4xx error object: a
 * 5xx at any size fails (an order too large for its item, a transaction over DynamoDB's 4 MB, a
 * reply over Lambda's). The cases come from the route table and the handlers' own schemas, so a new
 * route is covered without a line here.
 */
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef } from '../../lib/api/route.js';
import { MAX_BODY_BYTES } from '../../lib/http/request.js';
import type { Runtime } from '../../lib/runtime.js';
import { jsonSchemaOf, pathsOf, validish, type JsonSchema } from '../support/hostile/arbitraries.js';
import { credentialHeaders, seedProject, type ProjectFixture } from '../support/hostile/project-fixture.js';
import {
  allRoutes,
  contractViolation,
  createOwnTable,
  defaultExtras,
  fillPath,
  handlerFor,
  invokeRaw,
  loadRoute,
  pathParamNames,
  type OwnTable,
  type RawReply,
} from '../support/hostile/route-harness.js';
import { HOSTILE_RUNS } from '../support/hostile/runs.js';

/** Paths grown per route: a seeded few in `npm test`, every one in `npm run test:hostile` (HOSTILE_RUNS ≥ 100). */
const FULL = HOSTILE_RUNS >= 100;
const PATHS_PER_ROUTE = FULL ? Number.POSITIVE_INFINITY : 4;
const SEED = 20261128;
/** Bodies drawn per route to find one it accepts. */
const SAMPLES = 12;
/** Each step multiplies the size by 16: 4 to 5 steps from a few bytes to the 1 MiB body limit. */
const GROWTH = 16;

type Path = (string | number)[];

const jsonRoutes = allRoutes.filter((r) => r.body === 'json' && r.path !== '$default');

function at(value: unknown, path: Path): unknown {
  let node = value;
  for (const key of path) node = (node as Record<string | number, unknown>)[key];
  return node;
}

/** The body with the string or array at `path` grown to `size` characters or elements (an array repeats its first element). */
function grownAt(body: unknown, path: Path, size: number): unknown {
  const copy = structuredClone(body);
  const grow = (node: unknown): unknown => {
    if (typeof node === 'string') return (node.length > 0 ? node : 'x').repeat(Math.ceil(size / Math.max(node.length, 1))).slice(0, size);
    if (Array.isArray(node)) return Array.from({ length: size }, (_, i) => structuredClone(node[i % Math.max(node.length, 1)] ?? 'x'));
    return node;
  };
  if (path.length === 0) return grow(copy);
  const parent = at(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  const key = path[path.length - 1] as string | number;
  parent[key] = grow(parent[key]);
  return copy;
}

/** The paths of the strings and arrays of a body (at every depth), in a seeded order. */
function growablePaths(body: unknown, seed: number): Path[] {
  const paths = pathsOf(body).filter((p) => {
    const node = at(body, p);
    return typeof node === 'string' || (Array.isArray(node) && node.length > 0);
  });
  const order = fc.sample(fc.shuffledSubarray(paths, { minLength: paths.length, maxLength: paths.length }), { numRuns: 1, seed })[0] ?? paths;
  return order;
}

/**
 * Bodies a route accepts, for the routes where a generated body rarely is (the checkout's): growth must reach the writes a
 * real order reaches (the 500-line orders with long product ids). Built from the fixture's resources.
 */
function knownGood(route: RouteDef, f: ProjectFixture): unknown {
  const order = {
    amount: 20_000,
    items: [
      { product_id: 'prod-growth', sku_id: 'sku-growth', quantity: 2, price: 5_000, metadata: { color: 'red' } },
      { source_id: 'line-2', quantity: 1, price: 10_000 },
    ],
    metadata: { channel: 'web' },
  };
  const customer = { source_id: 'growth-customer', name: 'Growth', email: 'growth@example.com', metadata: { tier: 'gold' } };
  const code = f.refs.code?.[0] ?? 'missing';
  switch (route.operationId) {
    case 'validate-stacked-discounts':
    case 'redeem-stacked-discounts':
      return { redeemables: [{ object: 'voucher', id: code }], order, customer, metadata: { note: 'growth' } };
    case 'redeem-voucher':
    case 'validate-voucher':
      return { order, customer, metadata: { note: 'growth' } };
    case 'validate-promotions':
    case 'check-eligibility':
      return { order, customer };
    case 'create-order':
      return { ...order, status: 'PAID', customer };
    case 'create-customer':
      return { ...customer, address: { city: 'Berlin', line_1: 'Street 1' }, phone: '+49123' };
    case 'track-custom-event':
      return { event: f.names.find((n) => n.endsWith('order_paid')), customer, loyalty: { code: f.refs.memberId?.[0] }, metadata: { amount: 10 } };
    case 'create-publication':
      return { customer, campaign: { name: f.refs.campaignId?.[5] }, metadata: { note: 'growth' } };
    case 'redeem-reward':
    case 'redeem-reward-1':
      return { reward: { id: f.refs.rewardId?.[0] }, order, metadata: { note: 'growth' } };
    case 'add-member':
      return { customer, metadata: { note: 'growth' } };
    case 'update-loyalty-card-balance-1':
      return { points: 1, reason: 'growth', source_id: 'growth-balance' };
    case 'create-voucher':
      return { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, metadata: { note: 'growth' }, additional_info: 'growth' };
    default:
      return undefined;
  }
}

let table: OwnTable;
let runtime: Runtime;
let fixture: ProjectFixture;
const grown: {
  route: string;
  accepted: boolean;
  paths: number;
  requests: number;
  statuses: Record<number, number>;
  biggest: number;
  biggestAccepted: number;
}[] = [];

beforeAll(async () => {
  table = await createOwnTable('growth');
  runtime = table.runtime();
  fixture = await seedProject(runtime, 'G');
}, 120_000);

afterAll(async () => {
  await table?.drop();
  if (process.env.HOSTILE_REPORT)
    writeFileSync(process.env.HOSTILE_REPORT.replace(/(\.json)?$/, '-growth.json'), JSON.stringify({ full: FULL, routes: grown }, null, 2));
});

async function send(route: RouteDef, body: unknown): Promise<{ reply: RawReply; bytes: number }> {
  const mod = await loadRoute(route);
  const handler = handlerFor(route, mod, runtime, defaultExtras());
  const params = Object.fromEntries(pathParamNames(route.path).map((n) => [n, fixture.refs[n]?.[0] ?? 'missing']));
  const text = JSON.stringify(body) ?? '';
  const reply = await invokeRaw(handler, {
    method: route.method,
    path: fillPath(route.path, params),
    pathParameters: params,
    headers: { ...credentialHeaders(route, fixture), 'content-type': 'application/json' },
    body: text,
  });
  return { reply, bytes: Buffer.byteLength(text) };
}

describe('every array and string of every JSON route grows to the body limit without a 5xx (issue 41)', () => {
  it('covers every route that reads a JSON body', () => {
    expect(jsonRoutes.length).toBeGreaterThan(50);
  });

  for (const route of jsonRoutes) {
    it(`${route.method} ${route.path} (${route.operationId})`, async () => {
      const mod = await loadRoute(route);
      if (!mod.schemas.body) return;
      const schema: JsonSchema = jsonSchemaOf(mod.schemas.body);
      const known = [...Object.values(fixture.refs).flat(), ...fixture.names];
      const strings = fc.oneof(fc.constantFrom(...known), fc.stringMatching(/^[A-Za-z0-9-]{1,16}$/));
      // Start from the richest body the route accepts (most strings and arrays to grow), else the richest body: growth then
      // reaches as deep as a real client's request does.
      const samples = fc.sample(
        fc.oneof(validish(schema, { root: schema, depth: 0, strings }), validish(schema, { root: schema, depth: 0, strings, minimal: true })),
        { numRuns: SAMPLES, seed: SEED },
      );
      const richness = (b: unknown) => growablePaths(b, SEED).length;
      const good = knownGood(route, fixture);
      let base = samples.reduce((best, s) => (richness(s) > richness(best) ? s : best), samples[0]);
      let accepted = false;
      for (const sample of [...(good === undefined ? [] : [good]), ...[...samples].sort((a, b) => richness(b) - richness(a))]) {
        const { reply } = await send(route, sample);
        expect(contractViolation(reply), `${route.operationId} sample`).toBeUndefined();
        if (reply.status < 400) {
          base = sample;
          accepted = true;
          break;
        }
      }
      const tally = { route: route.operationId, accepted, paths: 0, requests: 0, statuses: {} as Record<number, number>, biggest: 0, biggestAccepted: 0 };
      /** The longest each grown string was accepted at: the combined case below sends all of them at once. */
      const longestAccepted: [Path, number][] = [];
      for (const path of growablePaths(base, SEED).slice(0, PATHS_PER_ROUTE)) {
        tally.paths += 1;
        const baseBytes = Buffer.byteLength(JSON.stringify(base) ?? '');
        // Sizes ×16 up to just under the body limit (over it is the limit's 413, tested on every route by hostile-input), then
        // halfway between the longest accepted and the shortest refused, a few times: the route's real bound is reached.
        let [lo, hi] = [0, Number.POSITIVE_INFINITY];
        for (let size = GROWTH, step = 0; step < 12 && hi - lo > 1; step += 1) {
          let body = grownAt(base, path, size);
          let bytes = Buffer.byteLength(JSON.stringify(body) ?? '');
          if (bytes > MAX_BODY_BYTES) {
            size = Math.floor((size * (MAX_BODY_BYTES - 1024 - baseBytes)) / Math.max(bytes - baseBytes, 1));
            if (size <= lo) break;
            body = grownAt(base, path, size);
            bytes = Buffer.byteLength(JSON.stringify(body) ?? '');
            if (bytes > MAX_BODY_BYTES) break;
          }
          const { reply } = await send(route, body);
          tally.requests += 1;
          tally.statuses[reply.status] = (tally.statuses[reply.status] ?? 0) + 1;
          tally.biggest = Math.max(tally.biggest, bytes);
          if (reply.status < 400) tally.biggestAccepted = Math.max(tally.biggestAccepted, bytes);
          expect(
            contractViolation(reply),
            `${route.operationId}: .${path.join('.')} grown to ${size} (${bytes} bytes): ${reply.text?.slice(0, 300)}`,
          ).toBeUndefined();
          if (reply.status < 400) lo = size;
          else hi = size;
          if (hi === Number.POSITIVE_INFINITY && bytes > MAX_BODY_BYTES - 2048) break;
          size = hi === Number.POSITIVE_INFINITY ? size * GROWTH : Math.floor((lo + hi) / 2);
          if (step >= 6 && hi !== Number.POSITIVE_INFINITY) break;
        }
        if (lo > 0 && typeof at(base, path) === 'string') longestAccepted.push([path, lo]);
      }
      // Everything at once, as a large real order is: each string at the longest length it was accepted at, then the arrays grown.
      const longest = longestAccepted.reduce((body, [path, size]) => grownAt(body, path, size), base);
      if (process.env.GROWTH_DEBUG) console.log(route.operationId, JSON.stringify(longestAccepted.map(([p, n]) => [p.join('.'), n])));
      // Each outermost array in turn (the order's lines, the redeemables): counts ×4 until refused or over the limit, then
      // halfway between the last accepted and the first refused.
      const arrays = pathsOf(longest).filter((p) => Array.isArray(at(longest, p)) && !p.some((_, i) => Array.isArray(at(longest, p.slice(0, i)))));
      for (const path of arrays.slice(0, PATHS_PER_ROUTE)) {
        let [lo, hi] = [1, Number.POSITIVE_INFINITY];
        for (let count = 4, step = 0; step < 14 && hi - lo > 1; step += 1) {
          const body = grownAt(longest, path, count);
          const bytes = Buffer.byteLength(JSON.stringify(body) ?? '');
          let status = 413;
          if (bytes <= MAX_BODY_BYTES) {
            const { reply } = await send(route, body);
            if (process.env.GROWTH_DEBUG) console.log(route.operationId, path.join('.'), count, bytes, reply.status, reply.text?.slice(0, 200));
            status = reply.status;
            tally.requests += 1;
            tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
            tally.biggest = Math.max(tally.biggest, bytes);
            if (status < 400) tally.biggestAccepted = Math.max(tally.biggestAccepted, bytes);
            expect(
              contractViolation(reply),
              `${route.operationId}: .${path.join('.')} ${count} long, strings at their longest (${bytes} bytes): ${reply.text?.slice(0, 300)}`,
            ).toBeUndefined();
          }
          if (status < 400) lo = count;
          else hi = count;
          if (hi === Number.POSITIVE_INFINITY && count >= 65_536) break;
          count = hi === Number.POSITIVE_INFINITY ? count * 4 : Math.floor((lo + hi) / 2);
          if (step >= 8 && hi !== Number.POSITIVE_INFINITY) break;
        }
      }
      grown.push(tally);
    }, 120_000);
  }
});
