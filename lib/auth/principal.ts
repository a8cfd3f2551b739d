import type { Scope } from './scopes.js';

/** Who is calling, once credentials have been checked. */
export interface Principal {
  /** The tenant the request acts in; a management key's requests act in that key's own space (managementSpaceOf, lib/management/management-key.ts), no project. */
  projectId: string;
  /** The key that acts ('' for a signed link whose key is unknown: an export stored before it was recorded). */
  appId: string;
  /** `client_key`: a client-side (publishable) pair on `/client/v1/*`, its Origin already checked. `management_key`: an operator's X-Management-Id / X-Management-Token pair on `/management/v1/*`, its `appId` the management id. `signed_link`: a link token in place of credentials (an export's download URL), standing for the key it was made for. */
  via: 'key_pair' | 'client_key' | 'oauth_token' | 'signed_link' | 'management_key';
  /** The key's permissions as they are now (null = all). */
  keyPermissions: Scope[] | null;
  /** An OAuth token's scopes; null for a key-pair request. */
  tokenScopes: Scope[] | null;
}
