import * as z from '../zod.js';
import type { EndpointSchemas } from '../http/endpoint.js';
import { idempotencyModeOf, type RouteDef, type SuccessReply } from '../api/route.js';
import { isRecord, type JsonSchema, replyComponents, requestJsonSchema } from './json-schema.js';
import { replySchemas } from './reply-schemas.js';

/** The interface version the spec labels (Versioning 2). */
export const API_VERSION = 'v2018-08-01';

/** One operation's inputs: its route-table row and the request schemas its handler validates with. */
export interface OperationSource {
  route: RouteDef;
  schemas: EndpointSchemas;
}

export interface DocumentOptions {
  /** DNS zone of the deployed clusters (`api.<zone>`, `us1.api.<zone>`, ...). */
  zoneName: string;
  /** Local runtime base URLs (`npm start`), listed after the deployed ones. */
  local: { api: string; download: string };
}

const SCHEMA_REF = '#/components/schemas/';
const schemaRef = (name: string): JsonSchema => ({ $ref: `${SCHEMA_REF}${name}` });
const responseRef = (status: number): JsonSchema => ({ $ref: `#/components/responses/Error${status}` });
const headerRef = (name: string): JsonSchema => ({ $ref: `#/components/headers/${name}` });

const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Invalid request: query, path or body fails its schema (invalid_query_params, invalid_payload, invalid_json, missing_parameters), or a domain rule refuses it',
  401: 'No credentials, a wrong key pair, or an unknown, expired or revoked token (unauthorized)',
  403: "Outside the key's IP allow-list (forbidden), or the token's scopes or the key's permissions do not cover the operation (missing_required_permission)",
  404: 'The resource (or one the request names) does not exist in this project (not_found)',
  405: 'The path exists but not with this method (method_not_allowed); `Allow` lists the methods',
  409: 'A unique name or code is taken or the assignment exists (duplicate_found), or a request with the same Idempotency-Key is still running (idempotency_key_in_use)',
  413: 'The body is larger than 1 MiB (payload_too_large)',
  415: 'The body is not of the media type the operation reads (unsupported_media_type)',
  422: 'The Idempotency-Key was used with a different request in the last 24 hours (idempotency_key_reused)',
  429: "The project's request budget for the window is spent (too_many_requests), or, for a token request, the project has 1000 live OAuth tokens (oauth_token_limit_exceeded); `Retry-After` says when to retry",
  500: 'Unexpected failure (internal_server_error); quote request_id to support',
  503: 'A write kept losing a race with concurrent writes (service_busy), or the database is throttling or unreachable (service_unavailable); retry after `Retry-After` seconds',
};

const RETRY_STATUSES = new Set([429, 503]);

/** The key of a path in `paths`: the route's template, made unique per method (see documentPath). */
const pathParams = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

/**
 * The `paths` key of each route. A path item holds one operation per method, but the download
 * cluster serves the same method and path as the main cluster (GET /v1/exports/{exportId}); such
 * a second route gets its parameters renamed `fooId` → `foo_Id`, as Voucherify's own document
 * spells its download operation (`/v1/exports/{export_Id}`).
 */
export function documentPaths(routes: readonly RouteDef[]): Map<RouteDef, { path: string; renames: Map<string, string> }> {
  const taken = new Set<string>();
  const out = new Map<RouteDef, { path: string; renames: Map<string, string> }>();
  const ordered = [...routes.filter((r) => r.cluster === 'api'), ...routes.filter((r) => r.cluster !== 'api')];
  for (const route of ordered) {
    const renames = new Map<string, string>();
    let path = route.path;
    if (taken.has(`${route.method} ${path}`)) {
      for (const name of pathParams(path)) renames.set(name, name.replace(/Id$/, '_Id'));
      path = path.replace(/\{([^}]+)\}/g, (_, name: string) => `{${renames.get(name) ?? name}}`);
    }
    if (taken.has(`${route.method} ${path}`)) throw new Error(`Two routes document as ${route.method} ${path}`);
    taken.add(`${route.method} ${path}`);
    out.set(route, { path, renames });
  }
  return out;
}

/**
 * The error statuses an operation can answer: those of its kind (validation, an unavailable
 * database, credentials and the project's rate limit, lookups by path, body parsing, idempotency
 * keys), plus those its domain raises (the row's `errors`).
 */
export function errorStatusesOf(route: RouteDef, extra: readonly number[] = []): number[] {
  const statuses = new Set<number>([400, 500, 503, ...extra]);
  if (route.auth !== 'none') {
    statuses.add(401).add(403).add(429);
    if (pathParams(route.path).length > 0) statuses.add(404);
  }
  if (route.body !== 'none') statuses.add(413).add(415);
  const idempotency = idempotencyModeOf(route);
  // Only the generic lease answers 409 while the first request runs; a transactional route replays the winner.
  if (idempotency !== 'none') statuses.add(422);
  if (idempotency === 'generic') statuses.add(409);
  return [...statuses].sort((a, b) => a - b);
}

const idempotencyKeyParameter = (mode: 'generic' | 'transactional') => ({
  name: 'Idempotency-Key',
  in: 'header',
  description:
    'Makes the request safe to retry for 24 hours: a retry gets the first reply and the effect happens once; ' +
    (mode === 'generic'
      ? 'the same key with a different request is refused (422), and while the first request runs a retry gets 409.'
      : 'the same key with a different request is refused (422). The effect and the record of its reply commit together, ' +
        'so a concurrent copy gets the first reply too, and a retry after a lost reply never repeats the effect.'),
  schema: { type: 'string', minLength: 1, maxLength: 255 },
});

function securityOf(route: RouteDef): JsonSchema[] {
  if (route.auth === 'none') return [];
  // A management route takes the operator's management pair only (lib/http/management-endpoint.ts).
  if (route.auth === 'management') return [{ 'X-Management-Id': [], 'X-Management-Token': [] }];
  // A client-side route takes the client-side pair, never the server's (lib/http/endpoint.ts).
  const pair = route.scope?.side === 'client' ? { 'X-Client-Application-Id': [], 'X-Client-Token': [] } : { 'X-App-Id': [], 'X-App-Token': [] };
  const schemes: JsonSchema[] = [pair];
  if (route.auth.bearer) schemes.push({ BearerToken: [] });
  if (route.auth.serviceOAuthHeader) schemes.push({ 'X-Service-OAuth': [] });
  if (route.auth.signedLink) {
    if (route.auth.signedLink !== 'token') throw new Error(`${route.operationId}: only a signed link in \`token\` is described (DownloadToken)`);
    schemes.push({ DownloadToken: [] });
  }
  return schemes;
}

/** Any one of these scopes (on the token and in the key's permissions) covers the operation. */
function scopesOf(route: RouteDef): string[] | null {
  if (!route.scope) return null;
  return [route.scope.side === 'server' ? 'api' : 'client_api', ...route.scope.scopes];
}

function objectParts(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const properties = isRecord(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return { properties, required };
}

function parametersOf(source: OperationSource, renames: Map<string, string>): JsonSchema[] {
  const { route, schemas } = source;
  const params: JsonSchema[] = [];
  const path = schemas.params ? objectParts(requestJsonSchema(schemas.params)) : { properties: {}, required: new Set<string>() };
  for (const name of pathParams(route.path)) {
    const schema = path.properties[name];
    if (!schema) throw new Error(`${route.operationId}: path parameter ${name} has no schema in the handler's params`);
    params.push({ name: renames.get(name) ?? name, in: 'path', required: true, schema });
  }
  if (schemas.query) {
    const query = objectParts(requestJsonSchema(schemas.query));
    for (const [name, schema] of Object.entries(query.properties)) {
      const nested = schema.type === 'object';
      params.push({
        name,
        in: 'query',
        ...(query.required.has(name) ? { required: true } : {}),
        ...(nested ? { style: 'deepObject', explode: true } : {}),
        schema,
      });
    }
  }
  const idempotency = idempotencyModeOf(route);
  if (idempotency !== 'none') params.push(idempotencyKeyParameter(idempotency));
  return params;
}

function requestBodyOf(source: OperationSource): JsonSchema | null {
  const { route, schemas } = source;
  if (route.body === 'none' || !schemas.body) return null;
  const mediaType = route.body === 'form' ? 'application/x-www-form-urlencoded' : route.body === 'multipart' ? 'multipart/form-data' : 'application/json';
  // An empty body is read as `{}`: the body is optional exactly when `{}` is a valid request.
  const required = !z.safeParse(schemas.body, {}).success;
  const schema = requestJsonSchema(schemas.body);
  // The handler reads each part as text (lib/http/request.ts); on the wire the `file` part is a file.
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const wire = route.body === 'multipart' ? { ...schema, properties: { ...properties, file: { type: 'string', format: 'binary' } } } : schema;
  const encoding = route.body === 'multipart' ? { encoding: { file: { contentType: 'text/csv' } } } : {};
  return { required, content: { [mediaType]: { schema: wire, ...encoding } } };
}

const COMMON_HEADERS = ['X-Request-Id', 'Cache-Control'];
/** Written on every reply once the caller is authenticated and the project's rate limit is on (lib/rate-limit/rate-limit.service.ts). */
const RATE_LIMIT_HEADERS = ['X-Rate-Limit-Limit', 'X-Rate-Limit-Remaining', 'X-Rate-Limit-Reset'];

function successResponse(route: RouteDef, reply: SuccessReply): JsonSchema {
  const names = [...COMMON_HEADERS, ...(route.auth === 'none' ? [] : RATE_LIMIT_HEADERS), ...(reply.headers ?? [])];
  const headers = Object.fromEntries(names.map((h) => [h, headerRef(h)]));
  const body = reply.body;
  const schema = body === undefined ? null : typeof body === 'string' ? schemaRef(body) : { type: 'array', items: schemaRef(body.arrayOf) };
  const media = reply.text === undefined ? [] : typeof reply.text === 'string' ? [reply.text] : reply.text;
  const content =
    media.length > 0
      ? Object.fromEntries(media.map((m) => [m, { schema: m === 'image/png' ? { type: 'string', format: 'binary' } : { type: 'string' } }]))
      : schema
        ? { 'application/json': { schema } }
        : null;
  return {
    description: reply.description,
    headers,
    ...(content ? { content } : {}),
  };
}

function operationOf(source: OperationSource, renames: Map<string, string>, options: DocumentOptions): JsonSchema {
  const { route } = source;
  if (route.success.length === 0) throw new Error(`${route.operationId}: its row declares no success reply`);
  const responses: JsonSchema = {};
  for (const reply of route.success) responses[String(reply.status)] = successResponse(route, reply);
  for (const status of errorStatusesOf(route, route.errors)) responses[String(status)] = responseRef(status);
  const body = requestBodyOf(source);
  const parameters = parametersOf(source, renames);
  const scopes = scopesOf(route);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(route.cluster === 'download' ? { servers: downloadServers(options) } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
    security: securityOf(route),
    ...(scopes ? { 'x-scopes': scopes } : {}),
  };
}

const zoneVariable = (options: DocumentOptions): JsonSchema => ({
  default: options.zoneName,
  description: "DNS zone of the deployment's custom domain (infra/config.ts `domain.zoneName`)",
});

function apiServers(options: DocumentOptions): JsonSchema[] {
  return [
    {
      url: 'https://{cluster}.{zone}',
      description: 'A deployed cluster (region)',
      variables: { cluster: { default: 'api', enum: ['api', 'us1.api', 'as1.api'] }, zone: zoneVariable(options) },
    },
    { url: options.local.api, description: 'Local runtime (npm start)' },
  ];
}

function downloadServers(options: DocumentOptions): JsonSchema[] {
  return [
    {
      url: 'https://{cluster}.{zone}',
      description: "A deployed cluster's download API",
      variables: { cluster: { default: 'download', enum: ['download', 'us1.download', 'as1.download'] }, zone: zoneVariable(options) },
    },
    { url: options.local.download, description: 'Local runtime download cluster (npm start)' },
  ];
}

function errorResponses(): JsonSchema {
  const out: JsonSchema = {};
  for (const [status, description] of Object.entries(ERROR_DESCRIPTIONS)) {
    const headers: JsonSchema = Object.fromEntries(COMMON_HEADERS.map((h) => [h, headerRef(h)]));
    if (RETRY_STATUSES.has(Number(status)) || status === '409') headers['Retry-After'] = headerRef('Retry-After');
    if (status === '429') headers['X-Rate-Limit-Retry'] = headerRef('X-Rate-Limit-Retry');
    if (status === '405') headers.Allow = headerRef('Allow');
    out[`Error${status}`] = { description, headers, content: { 'application/json': { schema: schemaRef('Error') } } };
  }
  return out;
}

const HEADERS: JsonSchema = {
  Allow: { description: 'Methods the path supports', schema: { type: 'string' } },
  'Cache-Control': { description: 'Always `no-store`: replies carry tenant data and tokens', schema: { type: 'string', const: 'no-store' } },
  'Content-Disposition': { description: 'The file name to save the body under (`attachment; filename="<export id>.csv"`)', schema: { type: 'string' } },
  Location: {
    description: 'Where to send the request instead: a presigned URL of an export file, or the path without its trailing slash',
    schema: { type: 'string', format: 'uri-reference' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
  'X-Async-Action-Id': {
    description:
      "The CAMPAIGN.VOUCHERS_UPDATE async action that brings the campaign's vouchers to a changed discount or gift (absent when none was started): poll GET /v1/async-actions/{asyncActionId}",
    schema: { type: 'string' },
  },
  'X-Request-Id': { description: 'Identifier of the request; equals `request_id` of an error reply', schema: { type: 'string' } },
  'X-Rate-Limit-Limit': { description: "Requests the project may send per window (when the project's rate limit is on)", schema: { type: 'integer' } },
  'X-Rate-Limit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer', minimum: 0 } },
  'X-Rate-Limit-Reset': { description: 'Unix time (s) at which the window ends', schema: { type: 'integer' } },
  'X-Rate-Limit-Retry': { description: 'Unix time (s) from which requests are accepted again (over the limit only)', schema: { type: 'integer' } },
};

const SECURITY_SCHEMES: JsonSchema = {
  'X-App-Id': { type: 'apiKey', in: 'header', name: 'X-App-Id', description: 'Application id of the key pair; send with X-App-Token' },
  'X-App-Token': { type: 'apiKey', in: 'header', name: 'X-App-Token', description: 'Application token (secret) of the key pair; send with X-App-Id' },
  'X-Client-Application-Id': {
    type: 'apiKey',
    in: 'header',
    name: 'X-Client-Application-Id',
    description: 'Application id of a client-side (publishable) key pair, /client/v1/* only, from an Origin the key trusts; send with X-Client-Token',
  },
  'X-Client-Token': {
    type: 'apiKey',
    in: 'header',
    name: 'X-Client-Token',
    description: 'Token of a client-side key pair; send with X-Client-Application-Id',
  },
  'X-Management-Id': {
    type: 'apiKey',
    in: 'header',
    name: 'X-Management-Id',
    description: 'Id of an operator management key pair (npm run admin -- management-key create), /management/v1/* only; send with X-Management-Token',
  },
  'X-Management-Token': {
    type: 'apiKey',
    in: 'header',
    name: 'X-Management-Token',
    description: 'Token of a management key pair; send with X-Management-Id',
  },
  BearerToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An OAuth 2.0 access token from POST /v1/oauth/token (client credentials, 900 s), in `Authorization: Bearer <token>`',
  },
  'X-Service-OAuth': {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-OAuth',
    description: 'An OAuth 2.0 access token in its own header (DELETE /v1/vouchers/{code} only)',
  },
  DownloadToken: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: "The signed token of an export's `result.url` (valid one hour), in place of credentials (the download cluster only)",
  },
};

/** Sorts object keys where order carries no meaning, so the committed copy compares byte for byte. */
function sortedKeys<T extends JsonSchema>(value: T): T {
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, value[k]]),
  ) as T;
}

/**
 * Builds the OpenAPI 3.1 document of the API from the route table, each handler's request
 * schemas and the reply schemas (lib/openapi/reply-schemas.ts). Deterministic: the same inputs
 * give the same JSON text. Throws when a route declares no success reply or a path parameter
 * has no schema.
 */
export function buildOpenApiDocument(sources: readonly OperationSource[], options: DocumentOptions): JsonSchema {
  const placed = documentPaths(sources.map((s) => s.route));
  const paths: Record<string, JsonSchema> = {};
  for (const source of sources) {
    const at = placed.get(source.route);
    if (!at) throw new Error(`${source.route.operationId}: no path`);
    const item = (paths[at.path] ??= {});
    item[source.route.method.toLowerCase()] = operationOf(source, at.renames, options);
  }
  const tags = [...new Set(sources.map((s) => s.route.tag))].sort();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Promotion and loyalty engine API',
      version: API_VERSION,
      description:
        "A promotion and loyalty engine speaking Voucherify's REST API (v2018-08-01). Authenticate with the key pair " +
        '(X-App-Id + X-App-Token) or an OAuth 2.0 bearer token. `x-scopes` lists the scopes that cover an operation: ' +
        "any one of them, in both the token's scope and the key's permissions. Replies carry `X-Request-Id`; errors are " +
        'the Error object. Unknown paths answer 404 and known paths with another method 405 (Error405).',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: apiServers(options),
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: replyComponents(replySchemas as Readonly<Record<string, z.core.$ZodType>>, SCHEMA_REF),
      responses: sortedKeys(errorResponses()),
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
