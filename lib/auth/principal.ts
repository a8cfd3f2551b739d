import type { Scope } from './scopes.js';

/** Who is calling, once credentials have been checked. */
export interface Principal {
  projectId: string;
  appId: string;
  via: 'key_pair' | 'oauth_token';
  /** The key's permissions as they are now (null = all). */
  keyPermissions: Scope[] | null;
  /** An OAuth token's scopes; null for a key-pair request. */
  tokenScopes: Scope[] | null;
}
