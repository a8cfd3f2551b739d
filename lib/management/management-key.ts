/** Whether a management key opens the Management API: a blocked key is refused like a wrong pair. */
export type ManagementKeyStatus = 'ACTIVE' | 'BLOCKED';

/**
 * An operator's Management API key pair (`X-Management-Id` / `X-Management-Token`): it opens
 * `/management/v1/*` only, for every project of the deployment (docs/auth.md "Management keys").
 * The token itself is never stored, only its SHA-256.
 */
export interface ManagementKey {
  managementId: string;
  name: string;
  tokenHash: string;
  status: ManagementKeyStatus;
  /** CIDRs requests must come from; null = any address. */
  ipAllowList: string[] | null;
  createdAt: string;
  updatedAt: string;
}

/** What operators see: everything but the hash. */
export type ManagementKeyView = Omit<ManagementKey, 'tokenHash'>;

export const managementKeyView = ({ tokenHash: _hash, ...rest }: ManagementKey): ManagementKeyView => rest;

/** A freshly made management key pair: the only moment the token exists in clear. */
export interface IssuedManagementKey {
  management_id: string;
  management_token: string;
}

/**
 * What a management key's request acts within, in place of a project id: that key's own space,
 * which holds its Idempotency-Key records and its request budget. No project id can equal it:
 * project ids are `proj_…` and hold no colon.
 */
export const managementSpaceOf = (managementId: string): string => `management:${managementId}`;
