import { getAppKey, listAppKeys } from '../app-keys/app-key.repo.js';
import type { AppKey } from '../app-keys/app-key.js';
import { toEpochSeconds } from '../clock.js';
import { ForbiddenError, MissingPermissionError, UnauthorizedError } from '../errors.js';
import { hashSecret, secretMatches } from './secrets.js';
import { getToken } from '../oauth/oauth.repo.js';
import { isLive } from '../oauth/oauth-token.js';
import type { Runtime } from '../runtime.js';
import { ipAllowed } from './ip-allow-list.js';
import type { Principal } from './principal.js';
import { grantCovers, type ScopeRequirement } from './scopes.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'appKeyCache'>;

/** A hash no real token can match, so an unknown app id costs the same comparison as a known one. */
const UNKNOWN_KEY_HASH = hashSecret('unknown-application-key');

/**
 * Longest X-App-Id looked up. Real ids are UUIDs; a longer value cannot name a key, and one over
 * DynamoDB's 2 KB key limit would fail the read with a 500 instead of a 401.
 */
const MAX_APP_ID_LENGTH = 256;

/**
 * What a 401 says. An unknown app id, a wrong app token and a deleted key read the same, so a
 * caller without the token learns nothing about which app ids exist.
 */
export const UNAUTHORIZED_DETAILS = {
  missing: 'Send X-App-Id and X-App-Token, or Authorization: Bearer <access token>',
  halfPair: 'Send both X-App-Id and X-App-Token',
  badPair: 'The X-App-Id and X-App-Token pair is not valid',
  malformedBearer: 'The Authorization header must be Bearer followed by an access token',
  badToken: 'The access token is unknown, expired or revoked',
  keyGone: "The access token's application key no longer exists",
  linkKeyGone: 'The application key that created this export no longer exists',
} as const;

/** The 403 of a request from outside a key's IP allow-list: the same on both clusters. */
const outsideAllowList = (sourceIp: string | undefined): ForbiddenError =>
  new ForbiddenError(`Requests with this application key are not allowed from ${sourceIp ?? 'an unknown address'}`);

function checkKeyUsable(key: AppKey | null, sourceIp: string | undefined, missing: string = UNAUTHORIZED_DETAILS.badPair): AppKey {
  if (!key) throw new UnauthorizedError(missing);
  if (key.status !== 'ACTIVE') throw new UnauthorizedError('The application key is blocked');
  if (!ipAllowed(key.ipAllowList, sourceIp)) throw outsideAllowList(sourceIp);
  return key;
}

/**
 * Checks an X-App-Id / X-App-Token pair, always against a fresh, strongly consistent read of the key, so blocking,
 * deleting or regenerating a key takes effect on its next request.
 * @throws UnauthorizedError (wrong pair, blocked key), ForbiddenError (IP allow-list).
 */
export async function authenticateKeyPair(deps: Deps, appId: string, appToken: string, sourceIp: string | undefined): Promise<Principal> {
  const key = appId.length <= MAX_APP_ID_LENGTH ? await getAppKey(deps, appId, true) : null;
  const matches = secretMatches(appToken, key?.tokenHash ?? UNKNOWN_KEY_HASH);
  // A client-side key is published in web pages: it never opens the server API, and reads as any wrong pair there.
  const usable = checkKeyUsable(matches && key?.side !== 'client' ? key : null, sourceIp);
  return { projectId: usable.projectId, appId: usable.appId, via: 'key_pair', keyPermissions: usable.permissions, tokenScopes: null };
}

/**
 * Checks an X-Client-Application-Id / X-Client-Token pair (a client-side key, `/client/v1/*`) like
 * a server pair, then the request's `Origin` against the key's trusted origins: an Origin the key
 * does not list is refused, and so is a request without one unless the key admits those.
 * @throws UnauthorizedError (wrong pair, a server key, blocked key), ForbiddenError (origin, IP allow-list).
 */
export async function authenticateClientKey(
  deps: Deps,
  appId: string,
  appToken: string,
  origin: string | undefined,
  sourceIp: string | undefined,
): Promise<Principal> {
  const key = appId.length <= MAX_APP_ID_LENGTH ? await getAppKey(deps, appId, true) : null;
  const matches = secretMatches(appToken, key?.tokenHash ?? UNKNOWN_KEY_HASH);
  const usable = checkKeyUsable(matches && key?.side === 'client' ? key : null, sourceIp, 'The X-Client-Application-Id and X-Client-Token pair is not valid');
  if (origin === undefined ? !usable.originless : !(usable.trustedOrigins ?? []).includes(origin)) {
    throw new ForbiddenError(
      origin === undefined
        ? 'This client-side key accepts requests from its trusted origins only, and this request sends no Origin'
        : `Origin ${origin.slice(0, 200)} is not trusted by this client-side key`,
    );
  }
  return { projectId: usable.projectId, appId: usable.appId, via: 'client_key', keyPermissions: usable.permissions, tokenScopes: null };
}

/** Whether `key` lets a token through from `sourceIp` for an endpoint needing `need`: what a refusal would be decided on. */
function keyAdmits(key: AppKey | null, sourceIp: string | undefined, need: ScopeRequirement | null): key is AppKey {
  return !!key && key.status === 'ACTIVE' && ipAllowed(key.ipAllowList, sourceIp) && (need === null || grantCovers(key.permissions, need));
}

/**
 * The token's key, read through a short cache when it lets the request through. A refusal is
 * never decided on the cache: the key is read again, strongly consistently, first. So lifting a
 * block, widening an IP allow-list or granting a permission works for the very next request,
 * while a block or narrowing may take the cache's age to reach tokens (the spec allows a minute).
 */
async function keyForToken(deps: Deps, appId: string, sourceIp: string | undefined, need: ScopeRequirement | null): Promise<AppKey | null> {
  const cached = deps.appKeyCache.get(appId);
  if (cached !== undefined && keyAdmits(cached, sourceIp, need)) return cached;
  const fresh = await getAppKey(deps, appId, true);
  deps.appKeyCache.set(appId, fresh);
  return fresh;
}

/**
 * Checks a bearer token: it must exist, be unexpired (checked here; TTL deletion lags) and its
 * key must still be active and allow the caller's address (and, given `need`, the endpoint's
 * scopes). The key comes through a short cache when it admits the request (see keyForToken).
 * @throws UnauthorizedError, ForbiddenError.
 */
export async function authenticateToken(
  deps: Deps,
  accessToken: string,
  sourceIp: string | undefined,
  need: ScopeRequirement | null = null,
): Promise<Principal> {
  const token = await getToken(deps, hashSecret(accessToken));
  if (!token || !isLive(token, toEpochSeconds(deps.clock.now()))) throw new UnauthorizedError(UNAUTHORIZED_DETAILS.badToken);
  const key = checkKeyUsable(await keyForToken(deps, token.appId, sourceIp, need), sourceIp, UNAUTHORIZED_DETAILS.keyGone);
  if (key.projectId !== token.projectId) throw new UnauthorizedError(UNAUTHORIZED_DETAILS.keyGone);
  return {
    projectId: token.projectId,
    appId: token.appId,
    via: 'oauth_token',
    keyPermissions: key.permissions,
    tokenScopes: token.scopes,
  };
}

/**
 * A signed link made for key `appId` of `projectId` (an export's download link, made for the key
 * that created the export): the key must still exist in the project, be active and admit
 * `sourceIp`, exactly as if it presented itself. Read like a bearer token's key (keyForToken).
 * @throws UnauthorizedError (key gone or blocked), ForbiddenError (IP allow-list).
 */
export async function authenticateLinkKey(deps: Deps, projectId: string, appId: string, sourceIp: string | undefined): Promise<Principal> {
  const key = checkKeyUsable(await keyForToken(deps, appId, sourceIp, null), sourceIp, UNAUTHORIZED_DETAILS.linkKeyGone);
  if (key.projectId !== projectId) throw new UnauthorizedError(UNAUTHORIZED_DETAILS.linkKeyGone);
  return { projectId, appId, via: 'signed_link', keyPermissions: key.permissions, tokenScopes: null };
}

/**
 * A signed link of `projectId` whose key is not known (made before links recorded it): honoured
 * only where any key of the project could have made it, i.e. from an address every key's IP
 * allow-list admits, while the project has an active key. The principal names no key (`appId` '').
 * @throws UnauthorizedError (no active key), ForbiddenError (some key's IP allow-list refuses the address).
 */
export async function authenticateProjectLink(deps: Deps, projectId: string, sourceIp: string | undefined): Promise<Principal> {
  const keys = await listAppKeys(deps, projectId);
  if (!keys.some((k) => k.status === 'ACTIVE')) throw new UnauthorizedError('The project has no active application key');
  if (!keys.every((k) => ipAllowed(k.ipAllowList, sourceIp))) throw outsideAllowList(sourceIp);
  return { projectId, appId: '', via: 'signed_link', keyPermissions: null, tokenScopes: null };
}

/** Whether the principal's grants cover `need`: a token is limited by its own scopes and, like its key, by the key's current permissions. */
export const permits = (principal: Principal, need: ScopeRequirement): boolean =>
  grantCovers(principal.tokenScopes, need) && grantCovers(principal.keyPermissions, need);

/**
 * @throws MissingPermissionError when the principal's scopes do not cover the endpoint.
 */
export function authorize(principal: Principal, need: ScopeRequirement): void {
  if (!permits(principal, need)) {
    const wanted = [need.side === 'server' ? 'api' : 'client_api', ...need.scopes].join(' or ');
    throw new MissingPermissionError(`This operation needs the ${wanted} scope`);
  }
}
