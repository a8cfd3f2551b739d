import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a `result.url` works after GET /v1/exports/{id} made it. */
export const DOWNLOAD_TOKEN_SECONDS = 3600;

const mac = (secret: string, projectId: string, exportId: string, expiresAt: number): Buffer =>
  createHmac('sha256', secret).update(`${projectId}\n${exportId}\n${expiresAt}`).digest();

/**
 * A download token: `<base64url(projectId)>.<expiry, Unix s>.<base64url(HMAC-SHA256)>`, keyed by the
 * export's own secret. It names the project (the download cluster has no other credentials) and
 * binds project, export and expiry, so none can be changed; nothing is written to make one.
 */
export function mintDownloadToken(secret: string, projectId: string, exportId: string, now: Date): string {
  const expiresAt = Math.floor(now.getTime() / 1000) + DOWNLOAD_TOKEN_SECONDS;
  return `${Buffer.from(projectId).toString('base64url')}.${expiresAt}.${mac(secret, projectId, exportId, expiresAt).toString('base64url')}`;
}

export interface TokenClaims {
  projectId: string;
  expiresAt: number;
  signature: Buffer;
}

/** The token's parts, unverified; null when it is not shaped like a token. */
export function readDownloadToken(token: string): TokenClaims | null {
  const match = /^([A-Za-z0-9_-]{1,200})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  const projectId = Buffer.from(match[1], 'base64url').toString('utf8');
  if (!/^[\x21-\x7e]{1,100}$/.test(projectId)) return null;
  return { projectId, expiresAt: Number(match[2]), signature: Buffer.from(match[3], 'base64url') };
}

/** True when the claims were signed with this export's secret and have not expired at `now`. */
export function verifyDownloadToken(claims: TokenClaims, secret: string, exportId: string, now: Date): boolean {
  if (claims.expiresAt <= Math.floor(now.getTime() / 1000)) return false;
  const expected = mac(secret, claims.projectId, exportId, claims.expiresAt);
  return expected.length === claims.signature.length && timingSafeEqual(expected, claims.signature);
}
