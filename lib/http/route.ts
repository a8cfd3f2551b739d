import type { ScopeRequirement } from '../auth/scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One row of the route table (infra/routes.ts). It is the single description of an endpoint:
 * API Gateway, the local server, the OpenAPI document and the handler's own auth all read it.
 */
export interface RouteDef {
  operationId: string;
  method: HttpMethod;
  /** API Gateway path template, e.g. `/v1/vouchers/{code}`. */
  path: string;
  /** Handler module, relative to the repository root. */
  handler: string;
  /** What the handler does to the table: read-only handlers get read-only grants. */
  access: 'read' | 'write';
  /**
   * Accepted credentials: the key pair only, or also an OAuth bearer token. `serviceOAuthHeader`
   * also accepts the token in `X-Service-OAuth` (spec: DELETE /v1/vouchers/{code}).
   */
  auth: { keyPair: true; bearer: boolean; serviceOAuthHeader?: boolean } | 'none';
  /** Scopes that cover the endpoint; null = no scope check (the OAuth endpoints themselves). */
  scope: ScopeRequirement | null;
  /** Request body encoding. */
  body: 'json' | 'form' | 'none';
  /** Which API serves it: the main cluster or the download cluster. */
  cluster: 'api' | 'download';
  summary: string;
  /**
   * Access to the export bucket and the queues, when the defaults do not fit (the stateless stack
   * gives the download cluster bucket reads, and `exports`-scoped endpoints bucket reads plus the jobs queue).
   */
  bucket?: 'read' | 'write' | null;
  /** Queue names (infra/local/resources.ts) the handler sends messages to. */
  sendsTo?: readonly string[];
  /**
   * How the endpoint honours an `Idempotency-Key` header (lib/http/idempotency.ts):
   * `generic` = the endpoint chain runs the request at most once per key (lease record, reply
   * replayed); `transactional` = the handler commits its effect and the key's record in one
   * transaction itself; `none` = the header is ignored. Absent: `generic` for write POSTs,
   * otherwise `none`.
   */
  idempotency?: 'generic' | 'transactional' | 'none';
}

/** The idempotency mode a route runs with (see RouteDef.idempotency). */
export function idempotencyModeOf(route: RouteDef): 'generic' | 'transactional' | 'none' {
  return route.idempotency ?? (route.method === 'POST' && route.access === 'write' ? 'generic' : 'none');
}
