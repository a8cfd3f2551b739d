import { hashSecret } from './secrets.js';
import type { Principal } from './principal.js';
import { TtlCache } from '../ttl-cache.js';

/** The credentials a request presents, as read from its headers (a signed link is not one). */
export type PresentedCredentials =
  | { kind: 'key_pair'; appId: string; appToken: string }
  | { kind: 'client_key'; appId: string; appToken: string }
  | { kind: 'management_key'; appId: string; appToken: string }
  | { kind: 'bearer'; token: string };

/**
 * How long a principal is remembered. It never admits anyone (every request's credentials are
 * read afresh), so the age only bounds the memory and the work a blocked key's holder can make
 * a container start and throw away.
 */
export const CREDENTIAL_HINT_SECONDS = 600;

/**
 * The principal each set of credentials had when this container last admitted them, so a route
 * that `startsBeforeCredentials` can start its work for that principal while the credentials
 * are read again (lib/http/endpoint.ts). A hint is only a guess: the request is answered from
 * that work only when the fresh check admits the same principal.
 *
 * Entries are keyed by a SHA-256 of the secret, never the secret itself, so the container's
 * memory holds no more than the key table does, and a presented token is never compared with a
 * remembered one character by character.
 */
export class CredentialHints {
  private readonly principals: TtlCache<Principal>;

  constructor(now: () => number, maxEntries = 1000) {
    this.principals = new TtlCache(CREDENTIAL_HINT_SECONDS * 1000, now, maxEntries);
  }

  /** The principal the credentials of `key` (credentialKey) had when last admitted here, if remembered. */
  expected(key: string): Principal | undefined {
    return this.principals.get(key);
  }

  /** Remembers who the credentials of `key` turned out to be. */
  learn(key: string, principal: Principal): void {
    this.principals.set(key, principal);
  }
}

/** What a set of credentials is remembered under: a digest, never the secret. */
export const credentialKey = (c: PresentedCredentials): string =>
  c.kind === 'bearer'
    ? `bearer:${hashSecret(c.token)}`
    : `${c.kind === 'key_pair' ? 'pair' : c.kind === 'client_key' ? 'client' : 'management'}:${c.appId}:${hashSecret(c.appToken)}`;

/** Whether two principals are the same caller with the same rights: work done for one answers the other. */
export function samePrincipal(a: Principal, b: Principal): boolean {
  return (
    a.projectId === b.projectId &&
    a.appId === b.appId &&
    a.via === b.via &&
    sameScopes(a.keyPermissions, b.keyPermissions) &&
    sameScopes(a.tokenScopes, b.tokenScopes)
  );
}

const sameScopes = (a: readonly string[] | null, b: readonly string[] | null): boolean =>
  a === b || (a !== null && b !== null && a.length === b.length && a.every((s, i) => s === b[i]));
