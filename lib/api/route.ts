import type { Scope, ScopeRequirement } from '../auth/scopes.js';
import type { ReplyName } from '../openapi/reply-schemas.js';
import type { QueueName } from './resources.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Media types of replies that are not JSON. */
export type MediaType = 'text/csv' | 'image/png' | 'image/svg+xml';

/** A success reply of an operation: its status, the body's component in the OpenAPI document, extra headers. */
export interface SuccessReply {
  status: 200 | 201 | 202 | 204 | 302 | 308;
  description: string;
  /** The body's component, or an array of it; absent = no body (or a `text` body). */
  body?: ReplyName | { arrayOf: ReplyName };
  /**
   * A body that is not JSON: its media type, or the types the client may choose from (the handler
   * replies with `text`, e.g. an export file, or `bytes`, e.g. an image).
   */
  text?: MediaType | readonly MediaType[];
  /** Reply headers beyond the common ones (components.headers names). */
  headers?: readonly string[];
}

/**
 * How the endpoint honours an `Idempotency-Key` header (lib/idempotency/):
 * `generic` = the endpoint chain runs the request at most once per key (lease record, reply
 * replayed); `transactional` = the service commits its effect and the key's record in one
 * transaction, with the scope the endpoint hands it; `none` = the header is ignored.
 */
export type IdempotencyMode = 'generic' | 'transactional' | 'none';

/** Parts of the parsed request a `transactional` key's fingerprint covers (a `generic` key covers the request as sent). */
export type FingerprintPart = 'params' | 'query' | 'body';

/** Configuration a function reads beyond the table's (the stacks set it; lib/config.ts parses it). */
export type RouteEnv = 'DOWNLOAD_BASE_URL';

/** What a function may touch besides the table: the stacks grant exactly this, the local runtime wires it. */
export interface ResourceNeeds {
  bucket: 'read' | 'write' | null;
  /** Queues it sends messages to (their URLs arrive as `<ROLE>_QUEUE_URL`). */
  sendsTo: readonly QueueName[];
  env: readonly RouteEnv[];
}

/**
 * `signedLink` names a query parameter that may carry a signed link token in place of credentials
 * (the download cluster: the `token` of an export's `result.url`); the handler verifies it.
 * `management`: an operator's X-Management-Id / X-Management-Token pair only (the Management API,
 * `/management/v1/*`); no project key or token opens such a route, and a management key opens no other.
 */
export type RouteAuth = { keyPair: true; bearer: boolean; serviceOAuthHeader?: boolean; signedLink?: string } | 'none' | 'management';

/**
 * One row of the endpoint table (lib/api/routes.ts): everything about an endpoint. API Gateway,
 * the functions' grants and environment, the local server, the handler's own auth and idempotency,
 * the OpenAPI document, the README list and the test clients all read it.
 */
export interface RouteDef<S extends readonly SuccessReply[] = readonly SuccessReply[]> {
  /** Voucherify's operation id where it has the operation; the handler file and service function are named after it. */
  operationId: string;
  method: HttpMethod;
  /** API Gateway path template, e.g. `/v1/vouchers/{code}`. */
  path: string;
  /** Handler module, relative to the repository root: `functions/<folder>/<operationId>.ts`. */
  handler: string;
  /** What the handler does to the table: read-only handlers get read-only grants. */
  access: 'read' | 'write';
  /**
   * Accepted credentials: the key pair only, or also an OAuth bearer token. `serviceOAuthHeader`
   * also accepts the token in `X-Service-OAuth` (spec: DELETE /v1/vouchers/{code}).
   */
  auth: RouteAuth;
  /** Scopes that cover the endpoint besides its side's umbrella; null = no scope check (the OAuth endpoints themselves). */
  scope: ScopeRequirement | null;
  /** Request body encoding; `multipart` = multipart/form-data with a `file` part (lib/http/multipart.ts). */
  body: 'json' | 'form' | 'multipart' | 'none';
  /** Which API serves it: the main cluster or the download cluster. */
  cluster: 'api' | 'download';
  summary: string;
  /** The OpenAPI tag (Voucherify's resource group). */
  tag: string;
  /** Extra text for the OpenAPI operation. */
  description?: string;
  success: S;
  /** Error statuses its domain raises beyond those every route of its kind can (see errorStatusesOf). */
  errors: readonly number[];
  idempotency: IdempotencyMode;
  /** For `transactional` idempotency: what the key's fingerprint covers. */
  fingerprint: readonly FingerprintPart[];
  needs: ResourceNeeds;
  /**
   * The handler's work may start while the credentials are read, for the principal the same
   * credentials were when this container last admitted them; its result is used only when the
   * fresh check admits that same principal (lib/http/endpoint.ts). Only a read of the main cluster
   * without idempotency may: its work writes nothing, so work thrown away has done nothing.
   */
  startsBeforeCredentials: boolean;
}

/** A row as written: what differs from the defaults of `route()`. */
export interface RouteSpec<S extends readonly SuccessReply[]> {
  operationId: string;
  method: HttpMethod;
  path: string;
  /** The folder under functions/ and lib/ that holds the handler and its service. */
  folder: string;
  summary: string;
  tag: string;
  success: S;
  /** Resource scopes of a server-side route; ignored when `scope` is given. */
  scopes?: readonly Scope[];
  scope?: ScopeRequirement | null;
  description?: string;
  /** Default: `read` for GET, else `write`. */
  access?: 'read' | 'write';
  /** Default: key pair or bearer token. */
  auth?: RouteAuth;
  /** Default: `json` for POST and PUT, else `none`. */
  body?: 'json' | 'form' | 'multipart' | 'none';
  /** Default: `api`. */
  cluster?: 'api' | 'download';
  errors?: readonly number[];
  /** Default: `generic` for a writing POST, else `none`. */
  idempotency?: IdempotencyMode;
  /** Default: `['body']`. */
  fingerprint?: readonly FingerprintPart[];
  needs?: Partial<ResourceNeeds>;
  /** Default: false. Only for `access: 'read'` on the `api` cluster, with credentials (no signed link) and idempotency `none`. */
  startsBeforeCredentials?: boolean;
}

/**
 * Builds a row from what differs from the common case: a server-side endpoint on the main
 * cluster, key pair or bearer token, a JSON body on writes, no bucket, no queue.
 */
export function route<const S extends readonly SuccessReply[]>(spec: RouteSpec<S>): RouteDef<S> {
  const { folder, scopes, needs, ...rest } = spec;
  const access = spec.access ?? (spec.method === 'GET' ? 'read' : 'write');
  const idempotency = idempotencyModeOf({ method: spec.method, access, idempotency: spec.idempotency });
  const cluster = spec.cluster ?? 'api';
  const auth: RouteAuth = spec.auth ?? { keyPair: true, bearer: true };
  const startsBeforeCredentials = spec.startsBeforeCredentials ?? false;
  if (
    startsBeforeCredentials &&
    (access !== 'read' || idempotency !== 'none' || cluster !== 'api' || auth === 'none' || auth === 'management' || auth.signedLink !== undefined)
  )
    throw new Error(`Route ${spec.operationId}: only a read of the api cluster without idempotency may start before its credentials`);
  return {
    ...rest,
    handler: `functions/${folder}/${spec.operationId}.ts`,
    access,
    auth,
    scope: spec.scope !== undefined ? spec.scope : { side: 'server', scopes: scopes ?? [] },
    body: spec.body ?? (spec.method === 'POST' || spec.method === 'PUT' ? 'json' : 'none'),
    cluster,
    errors: spec.errors ?? [],
    idempotency,
    fingerprint: spec.fingerprint ?? ['body'],
    needs: { bucket: needs?.bucket ?? null, sendsTo: needs?.sendsTo ?? [], env: needs?.env ?? [] },
    startsBeforeCredentials,
  };
}

/** The idempotency mode of a row: its own, or `generic` for a writing POST and `none` otherwise. */
export function idempotencyModeOf(route: Pick<RouteDef, 'method' | 'access'> & { idempotency?: IdempotencyMode | undefined }): IdempotencyMode {
  return route.idempotency ?? (route.method === 'POST' && route.access === 'write' ? 'generic' : 'none');
}

/** The 200 reply of an operation, the common case. */
export function okReply<const B extends SuccessReply['body']>(body: B, description: string) {
  return { status: 200, description, body } as const;
}
