import fc from 'fast-check';
import type { RouteDef } from '../../../lib/api/route.js';
import { MAX_BODY_BYTES } from '../../../lib/http/request.js';
import {
  applyBodyMutation,
  bodyMutation,
  buildQuery,
  deepJson,
  hostileString,
  jsonSchemaOf,
  pathsOf,
  queryMutation,
  transport,
  validish,
  type JsonSchema,
  type Transport,
} from './arbitraries.js';
import type { HandlerModule, RawRequest } from './route-harness.js';
import { fillPath, pathParamNames, safeEncode } from './route-harness.js';
import { multipartBody } from '../../../lib/http/multipart.js';

/** A generated request and what it is expected to provoke beyond the general contract. */
export interface HostileCase {
  request: RawRequest;
  /** The body is over the size limit: the only acceptable answer is 413. */
  oversized: boolean;
  /** A JSON body nested past MAX_JSON_DEPTH, sent as JSON to a JSON route: refused with 400 before anything walks it (413 if also over the size limit). */
  tooDeep: boolean;
  summary: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const;

const trim = (s: string, n = 300): string => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

function bodyText(value: unknown): string {
  return value === undefined ? '' : (JSON.stringify(value) ?? '');
}

const DEEP_SLOT = '\u0000deep-slot\u0000';

/**
 * The body's JSON text with a value nested `t.depth` levels in place of its metadata, of one of its
 * nodes, or of the whole body: built as text, since JSON.stringify overflows the stack at these depths.
 */
function withDeepValue(value: unknown, t: Extract<Transport, { kind: 'deep' }>): string {
  const deep = deepJson(t.shape, t.depth);
  if (t.at === 'root' || value === undefined) return deep;
  const fill = (holder: unknown): string => bodyText(holder).replace(JSON.stringify(DEEP_SLOT), deep);
  if (t.at === 'metadata') {
    const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
    return fill({ ...(isObject ? value : {}), metadata: DEEP_SLOT });
  }
  const paths = pathsOf(value).filter((p) => p.length > 0);
  const path = paths[t.pick % Math.max(paths.length, 1)];
  if (!path) return deep;
  const holder = structuredClone(value) as Record<string | number, unknown>;
  let node = holder;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1] as string | number] = DEEP_SLOT;
  return fill(holder);
}

function applyTransport(
  kind: RouteDef['body'],
  text: string,
  t: Transport,
  contentType: string,
): { body: string | Buffer; contentType: string | null; oversized: boolean } {
  switch (t.kind) {
    case 'malformed': {
      const cut = text.length === 0 ? 0 : t.cut % (text.length + 1);
      return { body: `${text.slice(0, cut)}${t.junk}`, contentType, oversized: false };
    }
    case 'content-type':
      return { body: text, contentType: t.value, oversized: false };
    case 'oversized':
      return { body: kind === 'form' ? `a=${'z'.repeat(MAX_BODY_BYTES)}` : JSON.stringify({ pad: 'z'.repeat(MAX_BODY_BYTES) }), contentType, oversized: true };
    case 'deep':
      // Placed into the text by withDeepValue: JSON.stringify itself would overflow the stack at these depths.
      return { body: text, contentType, oversized: false };
    case 'base64-garbage':
      return { body: Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22, 0xc3, 0x28]), contentType: 'application/octet-stream', oversized: false };
    default:
      return { body: text, contentType, oversized: false };
  }
}

const HOSTILE_BOUNDARY = 'hostile-boundary-91c2';
export const HOSTILE_MULTIPART_TYPE = `multipart/form-data; boundary=${HOSTILE_BOUNDARY}`;

/** An object as a multipart/form-data body of text parts (a value that is not a string goes as its JSON). */
export function hostileMultipartText(value: Record<string, unknown>): string {
  return multipartBody(
    HOSTILE_BOUNDARY,
    Object.entries(value).map(([name, x]) => ({ name, data: typeof x === 'string' ? x : String(JSON.stringify(x)) })),
  ).toString('utf8');
}

/**
 * Requests for one route: valid-ish path parameters (the fixture's real ids and names, or hostile
 * strings), query and body built from the handler's own zod schemas, then broken. `strings` feeds
 * string leaves so that some requests reach real resources.
 */
export function hostileCases(
  route: RouteDef,
  mod: HandlerModule,
  headers: Record<string, string>,
  refs: Record<string, string[]>,
  strings: fc.Arbitrary<string>,
): fc.Arbitrary<HostileCase> {
  if (route.path === '$default') return fallbackCases(headers);
  const names = pathParamNames(route.path);
  const params = fc.record(
    Object.fromEntries(
      names.map((name) => [
        name,
        fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...(refs[name] ?? ['missing'])) },
          { weight: 4, arbitrary: hostileString() },
          { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
        ),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, string>>;
  const querySchema: JsonSchema | undefined = mod.schemas.query ? jsonSchemaOf(mod.schemas.query) : undefined;
  const query = querySchema
    ? fc.tuple(validish(querySchema, { root: querySchema, depth: 0 }), queryMutation()).map(([v, m]) => buildQuery((v ?? {}) as Record<string, unknown>, m))
    : fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: queryMutation().map((m) => buildQuery({}, m)) });
  const bodySchema: JsonSchema | undefined = mod.schemas.body ? jsonSchemaOf(mod.schemas.body) : undefined;
  // A quarter of the bodies keep only the required fields, unbroken: odd but valid values must succeed or be refused cleanly too.
  const value = bodySchema
    ? fc.oneof(
        { weight: 1, arbitrary: validish(bodySchema, { root: bodySchema, depth: 0, strings, minimal: true }) },
        {
          weight: 3,
          arbitrary: fc.tuple(validish(bodySchema, { root: bodySchema, depth: 0, strings }), bodyMutation()).map(([v, m]) => applyBodyMutation(v, m)),
        },
      )
    : fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
  const extraHeaders = fc.option(
    fc.record({ 'idempotency-key': fc.oneof(fc.constantFrom('', ' ', '#', '\u0000', 'k'.repeat(10_240)), fc.string({ maxLength: 64 })) }),
    { freq: 4 },
  );
  return fc.tuple(params, query, value, transport(), extraHeaders).map(([p, q, v, t, extra]) => {
    const contentType = route.body === 'form' ? 'application/x-www-form-urlencoded' : route.body === 'multipart' ? HOSTILE_MULTIPART_TYPE : 'application/json';
    let text: string;
    if (route.body === 'multipart' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      text = hostileMultipartText(v as Record<string, unknown>);
    } else if (route.body === 'form' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      text = Object.entries(v as Record<string, unknown>)
        // A lone surrogate has no UTF-8 form, so it cannot travel in a form body: safeEncode sends U+FFFD, as a client would.
        .map(([k, x]) => `${safeEncode(k)}=${safeEncode(typeof x === 'string' ? x : String(JSON.stringify(x)))}`)
        .join('&');
    } else text = t.kind === 'deep' ? withDeepValue(v, t) : bodyText(v);
    const sent =
      route.body === 'none' && t.kind !== 'oversized' ? { body: text, contentType, oversized: false } : applyTransport(route.body, text, t, contentType);
    const reqHeaders: Record<string, string> = { ...headers, ...(extra ?? {}) };
    if (sent.contentType !== null && sent.body !== '') reqHeaders['content-type'] = sent.contentType;
    const request: RawRequest = {
      method: route.method,
      path: fillPath(route.path, p),
      pathParameters: p,
      query: q,
      headers: reqHeaders,
      ...(sent.body !== '' ? { body: sent.body } : {}),
    };
    const bodyPreview = typeof sent.body === 'string' ? trim(sent.body) : `<${sent.body.length} bytes>`;
    return {
      request,
      oversized: sent.oversized,
      tooDeep: t.kind === 'deep' && route.body === 'json',
      summary: `${route.method} ${trim(request.path, 200)}?${trim(q, 200)} [${t.kind}] ${bodyPreview}`,
    };
  });
}

/** The `$default` route: any method on any path, known or not. */
function fallbackCases(headers: Record<string, string>): fc.Arbitrary<HostileCase> {
  const segment = fc.oneof(
    fc.constantFrom('v1', 'campaigns', 'vouchers', 'oauth', 'token', 'exports', '..', '.', '%2e%2e', '%00', '', '#'),
    hostileString().map((s) => s.slice(0, 2000)),
  );
  const path = fc
    .array(segment, { minLength: 0, maxLength: 6 })
    .map((segments) => `/${segments.map((s) => (/^%|^\.\.?$/.test(s) ? s : encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '\uFFFD')))).join('/')}`);
  return fc.tuple(fc.constantFrom(...METHODS), path, queryMutation(), fc.option(fc.jsonValue({ maxDepth: 2 }))).map(([method, p, q, body]) => ({
    request: {
      method,
      path: p,
      query: buildQuery({}, q),
      headers: { ...headers, 'content-type': 'application/json' },
      ...(body !== null ? { body: JSON.stringify(body) ?? '' } : {}),
    },
    oversized: false,
    tooDeep: false,
    summary: `${method} ${trim(p)}`,
  }));
}
