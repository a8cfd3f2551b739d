import type { Scope } from '../auth/scopes.js';

export type AppKeyStatus = 'ACTIVE' | 'BLOCKED';

/** An application key pair of a project. The token itself is never stored, only its hash. */
export interface AppKey {
  appId: string;
  projectId: string;
  name: string;
  tokenHash: string;
  status: AppKeyStatus;
  /** Scopes the key may use; null = all. */
  permissions: Scope[] | null;
  /** CIDRs requests must come from; null = any address. */
  ipAllowList: string[] | null;
  /**
   * `server`: X-App-Id / X-App-Token on `/v1/*`. `client`: a publishable pair, X-Client-Application-Id /
   * X-Client-Token, on `/client/v1/*` only (docs/decisions.md "Client-side keys").
   */
  side: 'server' | 'client';
  /** A client key's trusted browser origins (lib/auth/origins.ts form); null on server keys. */
  trustedOrigins: string[] | null;
  /** Whether a client key admits requests that send no `Origin` (mobile apps, servers). */
  originless: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What operators see: everything but the hash. */
export type AppKeyView = Omit<AppKey, 'tokenHash'>;

export const viewOf = ({ tokenHash: _hash, ...rest }: AppKey): AppKeyView => rest;
