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
  createdAt: string;
  updatedAt: string;
}

/** What operators see: everything but the hash. */
export type AppKeyView = Omit<AppKey, 'tokenHash'>;

export const viewOf = ({ tokenHash: _hash, ...rest }: AppKey): AppKeyView => rest;
