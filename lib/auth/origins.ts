/**
 * Browser origins of the client-side API (`/client/v1/*`): the form a key's trusted origins are
 * kept in, and the CORS headers its replies and preflights carry. Pure: no I/O.
 */

/** Most trusted origins one client key may list; an origin is about 60 bytes, the key item stays small. */
export const MAX_TRUSTED_ORIGINS = 50;

/**
 * An origin as browsers send it in `Origin`: `scheme://host[:port]`, lower-case, without the
 * default port, path, query or credentials. Null for anything else (`null`, a path, a bare host).
 */
export function normalizeOrigin(raw: string): string | null {
  const text = raw.trim();
  if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '') return null;
  return url.origin;
}

/** The methods and request headers a client route's preflight allows: the official client SDK's (it sends X-Voucherify-Channel), and our Idempotency-Key. */
export const CLIENT_CORS = {
  methods: 'GET, POST, OPTIONS',
  headers: 'X-Client-Application-Id, X-Client-Token, X-Voucherify-Channel, Content-Type, Idempotency-Key, Authorization',
  exposed: 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After',
  maxAgeSeconds: 600,
} as const;

/** Headers of a client route's reply to a request from a trusted `origin`: never `*`, and caches keyed by Origin. */
export const corsReplyHeaders = (origin: string): Record<string, string> => ({
  'Access-Control-Allow-Origin': origin,
  'Access-Control-Expose-Headers': CLIENT_CORS.exposed,
  Vary: 'Origin',
});

/** Headers of a preflight answer for a trusted `origin`. */
export const preflightHeaders = (origin: string): Record<string, string> => ({
  'Access-Control-Allow-Origin': origin,
  'Access-Control-Allow-Methods': CLIENT_CORS.methods,
  'Access-Control-Allow-Headers': CLIENT_CORS.headers,
  'Access-Control-Max-Age': String(CLIENT_CORS.maxAgeSeconds),
  Vary: 'Origin',
});

/** Path prefix of the client-side API: the only paths a client key opens and the only ones with CORS. */
export const CLIENT_PATH_PREFIX = '/client/';
