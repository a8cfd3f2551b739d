import type { Scope } from './scopes.js';

/** Who is calling, once credentials have been checked. */
export interface Principal {
  projectId: string;
  /** The key that acts ('' for a signed link whose key is unknown: an export stored before it was recorded). */
  appId: string;
  /** `client_key`: a client-side (publishable) pair on `/client/v1/*`, its Origin already checked. `signed_link`: a link token in place of credentials (an export's download URL), standing for the key it was made for. */
  via: 'key_pair' | 'client_key' | 'oauth_token' | 'signed_link';
  /** The key's permissions as they are now (null = all). */
  keyPermissions: Scope[] | null;
  /** An OAuth token's scopes; null for a key-pair request. */
  tokenScopes: Scope[] | null;
}
