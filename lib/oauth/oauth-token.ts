import type { Scope } from '../auth/scopes.js';

/** Spec, Limits: tokens live 900 s; a project holds at most 1000 live tokens. */
export const TOKEN_LIFETIME_SECONDS = 900;
export const MAX_LIVE_TOKENS_PER_PROJECT = 1000;

export interface OAuthToken {
  tokenHash: string;
  projectId: string;
  /** The application key that generated the token; its status, permissions and allow-list apply. */
  appId: string;
  scopes: Scope[];
  issuedAt: number;
  /** Unix seconds. The token is live while now < expiresAt. */
  expiresAt: number;
}

export const isLive = (token: Pick<OAuthToken, 'expiresAt'>, nowSeconds: number): boolean => nowSeconds < token.expiresAt;
