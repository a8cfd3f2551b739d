import middy, { type MiddlewareObj } from '@middy/core';
import type { TargetPolicy } from '../webhooks/target-guard.js';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from '../zod.js';
import { authenticateKeyPair, authenticateToken, authorize, permits, UNAUTHORIZED_DETAILS } from '../auth/authenticate.js';
import { credentialKey, type PresentedCredentials, samePrincipal } from '../auth/credential-hints.js';
import type { Principal } from '../auth/principal.js';
import { ServiceUnavailableError, UnauthorizedError } from '../errors.js';
import { randomIds } from '../ids.js';
import { childLogger, createLogger, type Logger, type LogFields } from '../logger.js';
import { defaultRuntime, type Runtime } from '../runtime.js';
import type { FingerprintPart, RouteDef } from '../api/route.js';
import type { ExportFileReader, ExportFiles } from '../exports/export-files.js';
import { IDEMPOTENCY_HEADER, type IdempotencyScope, idempotencyScope } from '../idempotency/idempotency-scope.js';
import { runOnce } from '../idempotency/idempotency.service.js';
import type { JobQueue } from '../jobs/job.js';
import { countRequest, enforceRateLimit, rateLimitHeaders, type RateLimitState } from '../rate-limit/rate-limit.service.js';
import { errorReply } from './error-responder.js';
import { assertReplyFits } from './reply-budget.js';
import type { HttpReply, ReplyOf } from './reply.js';
import { headerOf, parseBody, parseParams, parseQuery } from './request.js';
import { type Ignorable, pathName } from './lenient.js';
import { type InputSource, validate } from './validate.js';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;
export type ApiHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

export interface EndpointSchemas {
  params?: z.core.$ZodType;
  query?: z.core.$ZodType;
  body?: z.core.$ZodType;
}

type Out<T> = T extends z.core.$ZodType ? z.output<T> : Record<string, never>;

/**
 * What a handler is built on, every member optional: Lambda builds each handler with none (the
 * container's runtime and clients); tests and the local runtime pass their own. One shape for
 * every handler, so a caller never needs to know which one a handler takes.
 */
export interface Ports {
  /** Config, clients, clock and ids (lib/runtime.ts); default: the container's. */
  runtime?: Runtime;
  /** Where jobs are sent (routes with `needs.sendsTo`). */
  jobs?: JobQueue;
  /** Export files, written by the jobs worker. */
  files?: ExportFiles;
  /** Presigned links to export files, and small files read whole (the download route). */
  links?: ExportFileReader;
  /** Largest export file the download route sends in its reply (default INLINE_DOWNLOAD_MAX_BYTES; tests lower it). */
  inlineDownloadMaxBytes?: number;
  /** This region's download cluster base URL (routes with `needs.env` DOWNLOAD_BASE_URL). */
  downloadBaseUrl?: () => string;
  /** Where webhooks may point (lib/webhooks/target-guard.ts): the deployed stacks' policy, or the local runtime's (loopback allowed). */
  webhookTargets?: () => TargetPolicy;
  /**
   * Raised by a host that is shutting down (the local runtime on Ctrl-C; Lambda has no such
   * notice): the jobs worker's job in hand stops at its next checkpoint and stays open.
   */
  stop?: AbortSignal;
}

/** The ports besides the runtime, as a handler declares their container defaults. */
export type PortDefaults = Omit<Ports, 'runtime'>;
export type HandlerFactory = (ports?: Ports) => ApiHandler;

export interface ApiRequest<S extends EndpointSchemas, D extends PortDefaults = PortDefaults> {
  runtime: Runtime;
  requestId: string;
  principal: Principal;
  params: Out<S['params']>;
  query: Out<S['query']>;
  body: Out<S['body']>;
  event: ApiEvent;
  /** The request's Idempotency-Key scope on a `transactional` route (null without a key, or on other routes). */
  idempotency: IdempotencyScope | null;
  /** The handler's ports: its declared defaults, overridden by what the caller passed. */
  ports: { [K in keyof D]-?: NonNullable<D[K]> };
}

/** State the envelope keeps for one invocation, on its (per-invocation) Lambda context. */
interface Invocation {
  runtime: Runtime | null;
  requestId: string;
  /** The ids every log line of the invocation carries (see requestIdsOf). */
  logFields: LogFields;
  startedAt: number;
  principal: Principal | null;
  /** The project's rate-limit window once counted: every reply after authentication carries it. */
  rateLimit: RateLimitState | null;
  /** A client-side key's trusted Origin of this request: every reply after authentication carries its CORS headers. */
  corsOrigin: string | null;
}

interface ApiContext extends Context {
  api: Invocation;
}

/**
 * What a request is checked with when its route declares no schema of that part. Built once, on first use: most
 * handlers declare their own query, params and body and never parse with these, and each zod schema (each kind's
 * first use most) costs at load (docs/benchmarks.md "Cold start: schemas built and never parsed").
 */
const buildFallbacks = () => ({ noQuery: z.strictObject({}), anyParams: z.object({}), anyBody: z.unknown() });
let fallbacks: ReturnType<typeof buildFallbacks> | undefined;
const fallbackSchemas = () => (fallbacks ??= buildFallbacks());
const bootLogger = createLogger('error');
/**
 * The reply is written this long before Lambda would kill the function, so a caller gets the
 * error object (503, retry) instead of API Gateway's bare 503 or a 30 s gateway timeout.
 */
const DEADLINE_MARGIN_MS = 500;

/**
 * The wire request id (`request_id`, `X-Request-Id`) is API Gateway's own id for the request, so
 * the id a client quotes finds the access log line as it is; Lambda's id is logged beside it.
 * Without API Gateway (a hand-made event) a fresh id stands in.
 */
function requestIdsOf(event: ApiEvent, context: Context, fallback: () => string): { requestId: string; logFields: LogFields } {
  const apigwRequestId = event.requestContext?.requestId || undefined;
  const requestId = apigwRequestId ?? fallback();
  return { requestId, logFields: { request_id: requestId, apigw_request_id: apigwRequestId, lambda_request_id: context.awsRequestId } };
}

/** The runtime as the invocation sees it: its logger stamps the request ids on every line. */
const invocationRuntime = (runtime: Runtime, logFields: LogFields): Runtime => ({ ...runtime, logger: childLogger(runtime.logger, logFields) });

const loggerOf = (inv: Invocation): Logger => inv.runtime?.logger ?? childLogger(bootLogger, inv.logFields);

function withRateLimitHeaders(result: ApiResult, inv: Invocation, client: ClientSide | null): ApiResult {
  const cors = client && inv.corsOrigin ? client.replyHeaders(inv.corsOrigin) : null;
  if (!inv.rateLimit && !cors) return result;
  return { ...result, headers: { ...result.headers, ...(inv.rateLimit ? rateLimitHeaders(inv.rateLimit) : {}), ...cors } };
}

/** Whether the route belongs to the client-side API (`/client/v1/*`): client-side keys, CORS. */
const isClientRoute = (route: RouteDef): boolean => route.scope?.side === 'client';

/**
 * What only client-side routes need (lib/http/client-endpoint.ts): the client key's check with the
 * request's Origin, and the CORS headers of a reply. Handed in by `clientEndpoint`, so a server
 * route's bundle carries none of it.
 */
export interface ClientSide {
  /** The request's Origin as browsers form it (a value that is no origin stays as sent, and matches no trusted origin). */
  origin(event: ApiEvent): string | undefined;
  /** The client-side pair the request presents (X-Client-Application-Id / X-Client-Token). */
  presented(event: ApiEvent): PresentedCredentials | undefined;
  /** The 401's details when the request presents no usable credentials. */
  missing(event: ApiEvent): string;
  authenticate(runtime: Runtime, appId: string, appToken: string, origin: string | undefined, sourceIp: string | undefined): Promise<Principal>;
  replyHeaders(origin: string): Record<string, string>;
  /** Counts a client key's request in the client budgets (per key, per address). */
  count(runtime: Runtime, principal: Principal, sourceIp: string | undefined, now: Date): Promise<RateLimitState | null>;
}

/**
 * What only management routes need (lib/http/management-endpoint.ts): the management key's check.
 * Handed in by `managementEndpoint`, so no other route's bundle carries it.
 */
export interface ManagementSide {
  /** The X-Management-Id / X-Management-Token pair the request presents. */
  presented(event: ApiEvent): PresentedCredentials | undefined;
  /** The 401's details when the request presents no usable pair. */
  missing(event: ApiEvent): string;
  authenticate(runtime: Runtime, managementId: string, managementToken: string, sourceIp: string | undefined): Promise<Principal>;
}

/** The credentials a request presents, decided by the route's accepted schemes. */
function presentedToken(event: ApiEvent, route: RouteDef): string | undefined {
  if (route.auth === 'none' || route.auth === 'management' || !route.auth.bearer) return undefined;
  const authorization = headerOf(event, 'authorization');
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (match?.[1]) return match[1];
  if (route.auth.serviceOAuthHeader) return headerOf(event, 'x-service-oauth')?.trim() || undefined;
  return undefined;
}

/** Why a request presents no usable credentials, for the 401's details. */
function missingCredentials(event: ApiEvent, route: RouteDef, halfPair: string | undefined, client: ClientSide | null): string {
  const bearerSent = headerOf(event, 'authorization') !== undefined;
  if (client) return bearerSent ? UNAUTHORIZED_DETAILS.malformedBearer : client.missing(event);
  if (halfPair) return UNAUTHORIZED_DETAILS.halfPair;
  if (route.auth === 'none' || route.auth === 'management') return UNAUTHORIZED_DETAILS.missing;
  const bearerAccepted = route.auth.bearer;
  if (bearerAccepted && bearerSent) return UNAUTHORIZED_DETAILS.malformedBearer;
  const link = route.auth.signedLink ? `, or the ${route.auth.signedLink} query parameter of the signed link` : '';
  return (bearerAccepted ? UNAUTHORIZED_DETAILS.missing : 'Send X-App-Id and X-App-Token') + link;
}

/**
 * A signed link token presented in place of credentials, checked by the route's handler (the
 * download cluster: verifyDownloadLink in lib/exports/export.service.ts). Returns the principal the link stands for, whose
 * key's IP allow-list and project's rate limit then apply like a key's own.
 * @throws UnauthorizedError (bad or expired link), ForbiddenError (the key's IP allow-list).
 */
export type SignedLinkVerifier = (
  runtime: Runtime,
  link: { token: string; pathParameters: Readonly<Record<string, string | undefined>>; sourceIp: string | undefined },
) => Promise<Principal>;

/** Whether the request carries credentials of its own (a link token is then not looked at). */
const presentsCredentials = (event: ApiEvent, route: RouteDef): boolean =>
  [
    'x-app-id',
    'x-app-token',
    'authorization',
    ...(route.auth !== 'none' && route.auth !== 'management' && route.auth.serviceOAuthHeader ? ['x-service-oauth'] : []),
  ].some((name) => headerOf(event, name) !== undefined);

/** The key pair or bearer token the request presents (undefined: none; a signed link is not one). A key pair wins over a token. */
function presentedCredentials(
  event: ApiEvent,
  route: RouteDef,
  client: ClientSide | null,
  management: ManagementSide | null,
): PresentedCredentials | undefined {
  if (management) return management.presented(event);
  // Only a client-side pair (or a token) opens a client route: a server pair is not read there.
  const pair = client ? client.presented(event) : undefined;
  if (client) {
    const token = pair ? undefined : presentedToken(event, route);
    return pair ?? (token ? { kind: 'bearer', token } : undefined);
  }
  const appId = headerOf(event, 'x-app-id');
  const appToken = headerOf(event, 'x-app-token');
  if (appId && appToken) return { kind: 'key_pair', appId, appToken };
  const token = presentedToken(event, route);
  return token ? { kind: 'bearer', token } : undefined;
}

async function authenticate(
  runtime: Runtime,
  event: ApiEvent,
  route: RouteDef,
  verifyLink: SignedLinkVerifier | null,
  credentials: PresentedCredentials | undefined,
  client: ClientSide | null,
  management: ManagementSide | null,
): Promise<Principal> {
  if (route.auth === 'none') throw new Error(`Route ${route.operationId} has no authentication; use openEndpoint`);
  const sourceIp = event.requestContext?.http?.sourceIp;
  if (management) {
    // Only a management pair opens a management route: an app key pair or token is not read here.
    if (credentials?.kind !== 'management_key') throw new UnauthorizedError(management.missing(event));
    return management.authenticate(runtime, credentials.appId, credentials.appToken, sourceIp);
  }
  if (route.auth === 'management') throw new Error(`Route ${route.operationId} is a management route; build its handler with managementEndpoint`);
  if (route.auth.signedLink && verifyLink && !presentsCredentials(event, route)) {
    const links = new URLSearchParams(event.rawQueryString ?? '').getAll(route.auth.signedLink);
    // Sent twice, it is no valid link (the query's validation would refuse the repetition anyway).
    if (links.length > 0)
      return verifyLink(runtime, { token: links.length === 1 ? (links[0] ?? '') : '', pathParameters: event.pathParameters ?? {}, sourceIp });
  }
  // A management pair is never presented here (presentedCredentials reads it on management routes only).
  if (!credentials || credentials.kind === 'management_key')
    throw new UnauthorizedError(missingCredentials(event, route, headerOf(event, 'x-app-id') ?? headerOf(event, 'x-app-token'), client));
  const principal =
    credentials.kind === 'key_pair'
      ? await authenticateKeyPair(runtime, credentials.appId, credentials.appToken, sourceIp)
      : credentials.kind === 'client_key'
        ? await client!.authenticate(runtime, credentials.appId, credentials.appToken, client!.origin(event), sourceIp)
        : await authenticateToken(runtime, credentials.token, sourceIp, route.scope);
  if (route.scope) authorize(principal, route.scope);
  return principal;
}

function toResult(reply: HttpReply, requestId: string): ApiResult {
  const headers: Record<string, string> = {
    'X-Request-Id': requestId,
    'Cache-Control': 'no-store',
    ...(reply.body !== undefined ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
    ...reply.headers,
  };
  if (reply.bytes) return { statusCode: reply.statusCode, headers, body: Buffer.from(reply.bytes).toString('base64'), isBase64Encoded: true };
  const body = reply.text ?? (reply.body !== undefined ? JSON.stringify(reply.body) : undefined);
  if (body !== undefined && reply.text === undefined) assertReplyFits(reply.body, body);
  return { statusCode: reply.statusCode, headers, ...(body !== undefined ? { body } : {}) };
}

/**
 * The one middy chain. Its single middleware opens the invocation (request id, timer), writes
 * the error reply for anything thrown, and logs one line per request with method, path,
 * status, duration and request id (never headers, query strings or bodies: they hold secrets).
 */
function envelope(route: RouteDef, fixedRuntime: Runtime | undefined, client: ClientSide | null): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const log = (event: ApiEvent, inv: Invocation, status: number): void => {
    loggerOf(inv).info('request', {
      method: event.requestContext?.http?.method ?? route.method,
      path: event.rawPath,
      route: route.operationId,
      status,
      ms: Date.now() - inv.startedAt,
      request_id: inv.requestId,
      project_id: inv.principal?.projectId,
      auth: inv.principal?.via,
    });
  };
  return {
    name: 'api-envelope',
    before: (request) => {
      const ids = requestIdsOf(request.event, request.context, () => (fixedRuntime?.ids ?? randomIds).requestId());
      request.context.api = {
        runtime: fixedRuntime ? invocationRuntime(fixedRuntime, ids.logFields) : null,
        ...ids,
        startedAt: Date.now(),
        principal: null,
        rateLimit: null,
        corsOrigin: null,
      };
    },
    after: (request) => {
      if (!request.response) return;
      request.response = withRateLimitHeaders(request.response, request.context.api, client);
      log(request.event, request.context.api, request.response.statusCode ?? 200);
    },
    onError: (request) => {
      const inv = request.context.api;
      const reply = errorReply(request.error, inv.requestId, loggerOf(inv));
      request.response = withRateLimitHeaders(toResult(reply, inv.requestId), inv, client);
      log(request.event, inv, reply.statusCode);
    },
  };
}

/** What a `transactional` key stands for: the parts of the parsed request its row names (one part: that part alone). */
function fingerprinted(parts: readonly FingerprintPart[], request: Record<FingerprintPart, unknown>): unknown {
  if (parts.length === 1 && parts[0]) return request[parts[0]];
  return Object.fromEntries(parts.map((part) => [part, request[part]]));
}

/** A request parsed and validated by its route's schemas, or why it could not be. */
type Parsing =
  | { ok: true; rawQuery: Record<string, unknown>; rawBody: unknown; query: unknown; params: unknown; body: unknown }
  | { ok: false; error: unknown };

/** How an endpoint learns who calls: not at all, from credentials, or also from a signed link. */
type Authentication =
  | { kind: 'none' }
  | { kind: 'credentials'; verifyLink: SignedLinkVerifier | null; client: ClientSide | null; management: ManagementSide | null };

function build<S extends EndpointSchemas, R>(
  route: RouteDef,
  schemas: S,
  authentication: Authentication,
  fn: (request: R) => Promise<HttpReply>,
  defaults: PortDefaults,
): HandlerFactory {
  return (given = {}) => {
    const { runtime: fixedRuntime, ...givenPorts } = given;
    const ports = { ...defaults, ...givenPorts };
    const base = async (event: ApiEvent, context: ApiContext): Promise<ApiResult> => {
      const inv = context.api;
      const runtime = inv.runtime ?? invocationRuntime(defaultRuntime(), inv.logFields);
      inv.runtime = runtime;
      const parse = (): Parsing => {
        try {
          const rawQuery = parseQuery(event);
          const rawBody = parseBody(event, route.body);
          const rawParams = parseParams(event);
          const ignored = (part: InputSource) => (keys: readonly Ignorable[]) =>
            runtime.logger.debug('request keys ignored', {
              route: route.operationId,
              part,
              keys: keys
                .slice(0, 20)
                .map((k) => `${pathName(k.path).slice(0, 200)} (${k.reason})`)
                .join(', '),
            });
          const query = validate(schemas.query ?? fallbackSchemas().noQuery, rawQuery, 'query', ignored('query'));
          const params = validate(schemas.params ?? fallbackSchemas().anyParams, rawParams, 'params');
          const bodySource = route.body === 'form' ? 'form' : 'json';
          const body = validate(schemas.body ?? fallbackSchemas().anyBody, rawBody, bodySource, ignored(bodySource));
          return { ok: true, rawQuery, rawBody, query, params, body };
        } catch (error) {
          return { ok: false, error };
        }
      };
      const work = async (principal: Principal | null, outcome: Parsing): Promise<HttpReply> => {
        if (!outcome.ok) throw outcome.error;
        const { rawQuery, rawBody, query, params, body } = outcome;
        const key = principal && route.idempotency !== 'none' ? headerOf(event, IDEMPOTENCY_HEADER) : undefined;
        if (principal && route.idempotency === 'generic') {
          // The request as sent (path, query and body, canonical), not as parsed: defaults must not hide a difference.
          const scope = idempotencyScope(principal.projectId, key, route.operationId, { path: event.rawPath, query: rawQuery, body: rawBody });
          const request = { runtime, requestId: inv.requestId, principal, params, query, body, event, idempotency: null, ports };
          if (scope)
            return runOnce(
              runtime,
              scope,
              () => runtime.clock.now(),
              () => fn(request as R),
            );
          return fn(request as R);
        }
        const idempotency =
          principal && route.idempotency === 'transactional'
            ? idempotencyScope(principal.projectId, key, route.operationId, fingerprinted(route.fingerprint, { params, query, body }))
            : null;
        return fn({ runtime, requestId: inv.requestId, principal, params, query, body, event, idempotency, ports } as R);
      };
      let parsing: Parsing | null = null;
      // Work started for the principal these credentials were last time, and that principal.
      let early: { reply: Promise<HttpReply>; principal: Principal } | null = null;
      if (authentication.kind === 'credentials') {
        const credentials = presentedCredentials(event, route, authentication.client, authentication.management);
        const authenticating = authenticate(runtime, event, route, authentication.verifyLink, credentials, authentication.client, authentication.management);
        // Hashed once the credentials' read has started (one SHA-256 of a short secret, about a microsecond).
        const hintKey = credentials ? credentialKey(credentials) : undefined;
        // The request is parsed and validated while its credentials are read: setImmediate runs
        // once the read is on the wire, so this costs the caller no time. Credentials still come
        // first: the outcome is reported only after they passed, so an anonymous caller learns
        // nothing from validation messages.
        const parsed = new Promise<Parsing>((resolve) => setImmediate(() => resolve(parse())));
        const expected = route.startsBeforeCredentials && hintKey !== undefined ? runtime.credentialHints.expected(hintKey) : undefined;
        // A principal remembered from another route may lack this one's scope: its work would only be dropped.
        if (expected && (route.scope === null || permits(expected, route.scope))) {
          // A read that writes nothing may start for the principal these credentials were when last
          // admitted; its outcome is looked at only if the fresh check admits that same principal.
          const reply = parsed.then((outcome) => work(expected, outcome));
          reply.catch(() => undefined);
          early = { reply, principal: expected };
        }
        inv.principal = await authenticating;
        // Only a client-side key's request from a trusted Origin may be read by the page that sent it.
        if (inv.principal.via === 'client_key') inv.corsOrigin = authentication.client?.origin(event) ?? null;
        if (hintKey !== undefined) runtime.credentialHints.learn(hintKey, inv.principal);
        parsing = await parsed;
      }
      const principal = inv.principal;
      const run = (): Promise<HttpReply> =>
        early !== null && principal !== null && samePrincipal(early.principal, principal) ? early.reply : work(principal, parsing ?? parse());
      if (!principal) return toResult(await run(), inv.requestId);

      const client = authentication.kind === 'credentials' ? authentication.client : null;
      // A client key's requests spend the client budgets, not the project's (its server keys keep theirs).
      const counting =
        client && principal.via === 'client_key'
          ? client.count(runtime, principal, event.requestContext?.http?.sourceIp, runtime.clock.now())
          : countRequest(runtime, runtime.rateLimit, principal.projectId, runtime.clock.now());
      const windowSeconds = runtime.rateLimit?.windowSeconds ?? 0;
      if (route.access === 'write' || route.cluster === 'download') {
        // A write must not happen over the limit, nor a file be read: the count comes first (one round trip).
        inv.rateLimit = await counting;
        enforceRateLimit(inv.rateLimit, windowSeconds);
        return toResult(await run(), inv.requestId);
      }
      // A read changes nothing, so it runs alongside the count and its reply is dropped if over the limit.
      const [counted, outcome] = await Promise.allSettled([counting, run()]);
      inv.rateLimit = counted.status === 'fulfilled' ? counted.value : null;
      enforceRateLimit(inv.rateLimit, windowSeconds);
      if (outcome.status === 'rejected') throw outcome.reason;
      return toResult(outcome.value, inv.requestId);
    };
    const handler = middy<ApiEvent, ApiResult, Error, ApiContext>({
      timeoutEarlyInMillis: DEADLINE_MARGIN_MS,
      timeoutEarlyResponse: () => {
        throw new ServiceUnavailableError('The request did not complete in time; retry after the delay in Retry-After', 1);
      },
    })
      .use(envelope(route, fixedRuntime, authentication.kind === 'credentials' ? authentication.client : null))
      .handler(base);
    return handler as unknown as ApiHandler;
  };
}

/**
 * Builds an endpoint: authenticate and authorize per the route row, parse and validate with the
 * route's schemas, honour an Idempotency-Key as the row says, call `fn`, shape the reply (typed by
 * the row's success replies). Returns `makeHandler(ports?)`: Lambda builds it with no ports (the
 * container's runtime and `defaults`); tests pass their own (a local endpoint, a fixed clock, a queue).
 */
export function endpoint<R extends RouteDef, S extends EndpointSchemas, D extends PortDefaults = Record<never, never>>(
  route: R,
  schemas: S,
  fn: (request: ApiRequest<S, D>) => Promise<ReplyOf<R>>,
  defaults?: D,
): HandlerFactory {
  if (isClientRoute(route)) throw new Error(`Route ${route.operationId} is client-side; build its handler with clientEndpoint`);
  if (route.auth === 'management') throw new Error(`Route ${route.operationId} is a management route; build its handler with managementEndpoint`);
  return build(route, schemas, { kind: 'credentials', verifyLink: null, client: null, management: null }, fn, defaults ?? {});
}

/** An endpoint of the client-side API: as `endpoint`, with the client key's check and CORS that `client` brings (client-endpoint.ts). */
export function endpointWithClientSide<R extends RouteDef, S extends EndpointSchemas, D extends PortDefaults = Record<never, never>>(
  client: ClientSide,
  route: R,
  schemas: S,
  fn: (request: ApiRequest<S, D>) => Promise<ReplyOf<R>>,
  defaults?: D,
): HandlerFactory {
  if (!isClientRoute(route)) throw new Error(`Route ${route.operationId} is not client-side; use endpoint`);
  return build(route, schemas, { kind: 'credentials', verifyLink: null, client, management: null }, fn, defaults ?? {});
}

/**
 * An endpoint whose row names a `signedLink` query parameter: the request's credentials as for
 * `endpoint`, or, when it presents none, the link token, checked by `verifyLink`.
 */
export function signedLinkEndpoint<R extends RouteDef, S extends EndpointSchemas, D extends PortDefaults = Record<never, never>>(
  route: R,
  schemas: S,
  verifyLink: SignedLinkVerifier,
  fn: (request: ApiRequest<S, D>) => Promise<ReplyOf<R>>,
  defaults?: D,
): HandlerFactory {
  if (route.auth === 'none' || route.auth === 'management' || !route.auth.signedLink)
    throw new Error(`Route ${route.operationId} names no signedLink parameter; use endpoint`);
  return build(route, schemas, { kind: 'credentials', verifyLink, client: null, management: null }, fn, defaults ?? {});
}

/** An endpoint of the Management API: only a management key pair opens it, checked by what `management` brings (management-endpoint.ts). */
export function endpointWithManagementSide<R extends RouteDef, S extends EndpointSchemas, D extends PortDefaults = Record<never, never>>(
  management: ManagementSide,
  route: R,
  schemas: S,
  fn: (request: ApiRequest<S, D>) => Promise<ReplyOf<R>>,
  defaults?: D,
): HandlerFactory {
  if (route.auth !== 'management') throw new Error(`Route ${route.operationId} is not a management route; use endpoint`);
  return build(route, schemas, { kind: 'credentials', verifyLink: null, client: null, management }, fn, defaults ?? {});
}

/** An endpoint without credentials (the OpenAPI document, the unknown-route fallback). */
export function openEndpoint<R extends RouteDef, S extends EndpointSchemas, D extends PortDefaults = Record<never, never>>(
  route: R,
  schemas: S,
  fn: (request: Omit<ApiRequest<S, D>, 'principal' | 'idempotency'>) => Promise<ReplyOf<R>>,
  defaults?: D,
): HandlerFactory {
  return build(route, schemas, { kind: 'none' }, fn, defaults ?? {});
}
