import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { findRoute } from '../../lib/http/route-match.js';
import type { ApiHandler } from '../../lib/http/endpoint.js';
import type { RouteDef } from '../../lib/api/route.js';
import { routeNotFoundRoute, routes } from '../../lib/api/routes.js';

/**
 * Checks replies against the committed OpenAPI document (docs/openapi.json): the status must be one
 * the operation documents, the content type the documented one, and the body must validate
 * against the documented schema. Every test reply goes through here (test/support/invoke.ts, and
 * the local server's handlers in e2e tests), so a reply that drifts from the document fails the
 * test that produced it, error replies included.
 */

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}

interface Operation {
  operationId: string;
  responses: Record<string, ResponseObject>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { responses?: Record<string, ResponseObject> };
}

/** A response object, following a `#/components/responses/X` reference; `base` is its JSON pointer path. */
function resolveResponse(doc: Document, response: ResponseObject | undefined, base: string[]): { response: ResponseObject | undefined; base: string[] } {
  const name = response?.$ref ? /^#\/components\/responses\/(.+)$/.exec(response.$ref)?.[1] : undefined;
  if (!name) return { response, base };
  return { response: doc.components?.responses?.[name], base: ['components', 'responses', name] };
}

export interface ContractReply {
  status: number;
  headers: Record<string, string | undefined>;
  /** The raw body text ('' or undefined when none). */
  body: string | undefined;
}

const DOC_ID = 'https://promo-engine.local/openapi.json';
const root = join(import.meta.dirname, '..', '..');

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let state: { doc: Document; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | null = null;

function load(): NonNullable<typeof state> {
  if (state) return state;
  const doc = JSON.parse(readFileSync(join(root, 'docs', 'openapi.json'), 'utf8')) as Document & Record<string, unknown>;
  // The document is not a JSON Schema itself: strict mode would refuse its OpenAPI keywords.
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
  ajv.addSchema({ ...doc, $id: DOC_ID }, DOC_ID);
  state = { doc, ajv, validators: new Map() };
  return state;
}

const pointer = (...parts: string[]): string => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The document's operation for a route, found by operationId (two clusters may share a path). */
function operationOf(doc: Document, route: RouteDef): { op: Operation; path: string; method: string } {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (op.operationId === route.operationId) return { op, path, method };
  }
  throw new Error(`docs/openapi.json has no operation ${route.operationId} (${route.method} ${route.path}): run npm run openapi`);
}

/** The `$default` route has no path of its own; the document describes it with an `x-fallback` marker or not at all. */
function findFallback(doc: Document): Operation | undefined {
  for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) if (op.operationId === routeNotFoundRoute.operationId) return op;
  return undefined;
}

/**
 * The `$default` route (unknown path or method) answers 404 or 405, or 400 for a path it cannot decode, with the error
 * object; or 308 without a body to the path a trailing slash hid; or, for a CORS preflight of a client route, 204 with
 * the trusted Origin echoed, or 403 for an Origin no client key trusts.
 */
function fallbackProblems(ajv: Ajv2020, validators: Map<string, ValidateFunction>, reply: ContractReply): string[] {
  if (reply.status === 308) {
    const location = Object.entries(reply.headers).find(([k]) => k.toLowerCase() === 'location')?.[1];
    if (!location?.startsWith('/') || location.startsWith('//')) return [`unknown route answered 308 with Location ${String(location)}`];
    return reply.body ? ['unknown route answered 308 with a body'] : [];
  }
  if (reply.status === 204) {
    // A CORS preflight of a client route: no body, and the trusted Origin echoed, never `*`.
    const allowOrigin = Object.entries(reply.headers).find(([k]) => k.toLowerCase() === 'access-control-allow-origin')?.[1];
    if (!allowOrigin || allowOrigin === '*') return [`unknown route answered 204 with Access-Control-Allow-Origin ${String(allowOrigin)}`];
    return reply.body ? ['unknown route answered 204 with a body'] : [];
  }
  const undecodable = reply.status === 400 && /"key":"invalid_path"/.test(reply.body ?? '');
  // 403: a preflight from an origin no client key trusts.
  const untrustedPreflight = reply.status === 403 && /"key":"forbidden"/.test(reply.body ?? '');
  if (reply.status !== 404 && reply.status !== 405 && !undecodable && !untrustedPreflight) return [`unknown route answered ${reply.status}, not 404/405`];
  let validate = validators.get('$default');
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/Error` });
    validators.set('$default', validate);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.body ?? '');
  } catch {
    return ['unknown route: body is not JSON'];
  }
  return validate(parsed) ? [] : (validate.errors ?? []).map((e) => `unknown route: ${e.instancePath || '(body)'} ${e.message ?? ''}`);
}

/** Problems with a reply to `route`, or [] when it matches the document. */
export function contractProblems(route: RouteDef, reply: ContractReply): string[] {
  const { doc, ajv, validators } = load();
  if (route === routeNotFoundRoute && !findFallback(doc)) return fallbackProblems(ajv, validators, reply);
  const { op, path, method } = operationOf(doc, route);
  const status = String(reply.status);
  const responseKey = op.responses[status] ? status : 'default';
  const { response, base } = resolveResponse(doc, op.responses[responseKey], ['paths', path, method, 'responses', responseKey]);
  if (!response) return [`${op.operationId}: status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`];
  const media = response.content ? Object.keys(response.content) : [];
  const body = reply.body ?? '';
  if (media.length === 0) return body === '' ? [] : [`${op.operationId} ${status}: documented without a body, replied ${body.slice(0, 80)}`];
  const contentType = Object.entries(reply.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const type = media.find((m) => contentType.toLowerCase().startsWith(m));
  if (!type) return [`${op.operationId} ${status}: content type "${contentType}" is not one of ${media.join(', ')}`];
  if (!type.includes('json')) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [`${op.operationId} ${status}: body is not JSON`];
  }
  const key = `${op.operationId} ${status} ${type}`;
  let validate = validators.get(key);
  if (!validate) {
    const ref = `${DOC_ID}#/${pointer(...base, 'content', type, 'schema')}`;
    validate = ajv.compile({ $ref: ref });
    validators.set(key, validate);
  }
  if (validate(parsed)) return [];
  return (validate.errors ?? []).map((e) => `${op.operationId} ${status}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** Throws when the reply does not match the document, naming every problem. */
export function assertReplyMatchesContract(route: RouteDef, reply: ContractReply): void {
  const problems = contractProblems(route, reply);
  if (problems.length) throw new Error(`Reply does not match docs/openapi.json:\n  ${problems.join('\n  ')}\nBody: ${(reply.body ?? '').slice(0, 2000)}`);
}

/**
 * The routes a test request may be addressed to, from its method and path. GET /v1/exports/{id}
 * exists on both clusters, so a reply passes when it matches any candidate.
 */
export function candidateRoutes(method: string, path: string): RouteDef[] {
  const out: RouteDef[] = [];
  for (const cluster of ['api', 'download'] as const) {
    const found = findRoute(
      routes.filter((r) => r.cluster === cluster),
      method,
      path,
    );
    if ('match' in found) out.push(found.match.route);
  }
  return out.length ? out : [routeNotFoundRoute];
}

/** Checks a reply to a request known only by method and path. */
export function assertReplyMatchesSomeRoute(method: string, path: string, reply: ContractReply): void {
  const candidates = candidateRoutes(method, path);
  const problems = candidates.map((route) => contractProblems(route, reply));
  if (problems.some((p) => p.length === 0)) return;
  throw new Error(
    `Reply to ${method} ${path} does not match docs/openapi.json:\n  ${problems.flat().join('\n  ')}\nBody: ${(reply.body ?? '').slice(0, 2000)}`,
  );
}

/**
 * A `wrapHandler` for startLocal that checks every reply of a route of the table against the
 * document and records each problem in `violations` (test-only routes pass unchecked). Tests
 * expect `violations` to stay empty.
 */
export function contractCheckingWrapper(violations: string[]): (route: RouteDef, handler: ApiHandler) => ApiHandler {
  return (route, handler) => {
    if (route !== routeNotFoundRoute && !routes.includes(route)) return handler;
    return async (event, context) => {
      const result = await handler(event, context);
      const problems = contractProblems(route, {
        status: result.statusCode ?? 200,
        headers: (result.headers ?? {}) as Record<string, string>,
        body: result.body,
      });
      for (const problem of problems) violations.push(`${route.method} ${event.rawPath}: ${problem}`);
      return result;
    };
  };
}
