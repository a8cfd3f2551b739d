import { hashSecret } from '../auth/secrets.js';
import type { Principal } from '../auth/principal.js';
import { parseScopeString, permissionAllowsScope, SCOPES, type Scope } from '../auth/scopes.js';
import { sleep } from '../builtins.js';
import { toEpochSeconds } from '../clock.js';
import { BadRequestError, ConflictRetryError, OAuthTokenNotFoundError, TooManyTokensError } from '../errors.js';
import { getAppKey } from '../app-keys/app-key.repo.js';
import type { Runtime } from '../runtime.js';
import { deleteTokenWithLedger, getLedger, getToken, insertTokenWithLedger } from './oauth.repo.js';
import { isLive, MAX_LIVE_TOKENS_PER_PROJECT, type OAuthToken, TOKEN_LIFETIME_SECONDS } from './oauth-token.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** The token object of the spec, without `active`. */
export interface TokenReply {
  access_token: string;
  client_id: string;
  expires_at: number;
  expires_in: number;
  scope: string;
  token_type: 'Bearer';
}

/** An unknown, expired or revoked token shows nothing but `active: false`. */
export type IntrospectionReply = (TokenReply & { active: true }) | { active: false };

/** Losing the ledger race this many times in a row means something is wrong, not busy. */
const MAX_LEDGER_ATTEMPTS = 200;

/**
 * Decides the token's scopes: the requested ones, each of which the key must be allowed to use;
 * without a request, `api` (Voucherify's default) or, for a key without `api`, its own permissions.
 * @throws BadRequestError `invalid_scope` naming the first offending value.
 */
export function resolveTokenScopes(requested: string | undefined, permissions: Scope[] | null): Scope[] {
  if (requested === undefined || requested.trim() === '') {
    if (permissionAllowsScope(permissions, 'api')) return ['api'];
    return permissions ?? ['api'];
  }
  const { scopes, invalid } = parseScopeString(requested);
  if (invalid.length > 0) {
    const details = invalid.some((part) => part.includes(','))
      ? 'Scopes are separated by spaces, not commas (e.g. scope=vouchers campaigns)'
      : `Unknown scope; the scopes are ${SCOPES.join(', ')}`;
    throw new BadRequestError('invalid_scope', `Invalid scope: ${invalid.join(' ')}`, details);
  }
  const denied = scopes.filter((s) => !permissionAllowsScope(permissions, s));
  if (denied.length > 0) {
    throw new BadRequestError('invalid_scope', `Invalid scope: ${denied.join(' ')}`, 'The application key is not permitted to use this scope');
  }
  return scopes;
}

/**
 * Issues a token for the calling key pair, counted against the project's cap exactly: the token
 * and the ledger that counts it are written in one transaction conditioned on the ledger's
 * revision, so N concurrent requests with K free slots yield exactly min(N, K) tokens.
 * @throws BadRequestError (grant type, scope), TooManyTokensError (cap), ConflictRetryError (lost races).
 */
export async function generateOauthToken(deps: Deps, principal: Principal, request: { grantType: string; scope: string | undefined }): Promise<TokenReply> {
  if (request.grantType !== 'client_credentials') {
    throw new BadRequestError('invalid_grant_type', 'Invalid grant_type', 'The only supported grant_type is client_credentials');
  }
  const requestedScope = request.scope;
  const scopes = resolveTokenScopes(requestedScope, principal.keyPermissions);
  const accessToken = deps.ids.secret();
  for (let attempt = 0; attempt < MAX_LEDGER_ATTEMPTS; attempt += 1) {
    const now = toEpochSeconds(deps.clock.now());
    const ledger = await getLedger(deps, principal.projectId);
    const live = ledger.expiries.filter((expiry) => expiry > now);
    if (live.length >= MAX_LIVE_TOKENS_PER_PROJECT) {
      throw new TooManyTokensError(MAX_LIVE_TOKENS_PER_PROJECT, Math.max(1, Math.min(...live) - now));
    }
    const token: OAuthToken = {
      tokenHash: hashSecret(accessToken),
      projectId: principal.projectId,
      appId: principal.appId,
      scopes,
      issuedAt: now,
      expiresAt: now + TOKEN_LIFETIME_SECONDS,
    };
    const won = await insertTokenWithLedger(deps, token, {
      expiries: [...live, token.expiresAt],
      expectedRevision: ledger.revision,
    });
    if (won) return toReply(accessToken, token, now);
    // Full jitter, capped: contenders spread out instead of colliding again in lockstep.
    await sleep(Math.random() * Math.min(50, 2 + attempt * 4));
  }
  throw new ConflictRetryError('Too many concurrent token requests for this project');
}

function toReply(accessToken: string, token: OAuthToken, now: number): TokenReply {
  return {
    access_token: accessToken,
    client_id: token.appId,
    expires_at: token.expiresAt,
    expires_in: Math.max(0, token.expiresAt - now),
    scope: token.scopes.join(' '),
    token_type: 'Bearer',
  };
}

/**
 * Describes a token of the caller's project. Unknown, expired, foreign and revoked (key blocked
 * or deleted) tokens are all simply inactive: the reply then carries `active: false` and nothing else.
 */
export async function introspectOauthToken(deps: Deps, principal: Principal, accessToken: string): Promise<IntrospectionReply> {
  const token = await getToken(deps, hashSecret(accessToken));
  const now = toEpochSeconds(deps.clock.now());
  if (!token || token.projectId !== principal.projectId || !isLive(token, now)) return { active: false };
  const key = await getAppKey(deps, token.appId);
  if (key?.status !== 'ACTIVE') return { active: false };
  return { ...toReply(accessToken, token, now), active: true };
}

/** `expiries` without one occurrence of `expiry` (several tokens may share an expiry second). */
function withoutOne(expiries: readonly number[], expiry: number): number[] {
  const at = expiries.indexOf(expiry);
  return at === -1 ? [...expiries] : [...expiries.slice(0, at), ...expiries.slice(at + 1)];
}

/**
 * Revokes a live token of the caller's project: the token item is deleted and its slot taken out
 * of the project's ledger in one transaction, so the token stops at once (every bearer request
 * reads the token item, strongly consistently) and a new token fits under the cap at once. Of
 * concurrent revokes of one token exactly one succeeds; the others find it gone. A token whose key
 * is blocked is revoked too: unblocking the key must not bring it back.
 * @throws OAuthTokenNotFoundError for an unknown, expired, already revoked or other project's token; ConflictRetryError (lost races).
 */
export async function revokeOauthToken(deps: Deps, principal: Principal, accessToken: string): Promise<void> {
  const tokenHash = hashSecret(accessToken);
  for (let attempt = 0; attempt < MAX_LEDGER_ATTEMPTS; attempt += 1) {
    const now = toEpochSeconds(deps.clock.now());
    const token = await getToken(deps, tokenHash);
    if (!token || token.projectId !== principal.projectId || !isLive(token, now)) throw new OAuthTokenNotFoundError();
    const ledger = await getLedger(deps, principal.projectId);
    const live = ledger.expiries.filter((expiry) => expiry > now);
    if (await deleteTokenWithLedger(deps, token, { expiries: withoutOne(live, token.expiresAt), expectedRevision: ledger.revision })) return;
    await sleep(Math.random() * Math.min(50, 2 + attempt * 4));
  }
  throw new ConflictRetryError('Too many concurrent token requests for this project');
}
