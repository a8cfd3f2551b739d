/**
 * The only place item keys are built. Tenant-owned keys start with `P#<projectId>#`, so a
 * read for one project cannot address another's items. The two exceptions are credential
 * lookups (application keys and OAuth tokens), which arrive before the project is known:
 * they are keyed by the credential itself (a public app id, or a token's SHA-256) and carry
 * the project as an attribute. Codes and ids are case-sensitive; never change their case.
 */
export interface ItemKey {
  PK: string;
  SK: string;
}

const project = (projectId: string): string => `P#${projectId}`;

export const keys = {
  project: (projectId: string): ItemKey => ({ PK: project(projectId), SK: 'PROJECT' }),

  /** Live-token ledger of a project: the expiry of every unexpired token, for the 1000 cap. */
  oauthLedger: (projectId: string): ItemKey => ({ PK: project(projectId), SK: 'OAUTH_LEDGER' }),

  appKey: (appId: string): ItemKey => ({ PK: `APPKEY#${appId}`, SK: 'APPKEY' }),
  /** GSI1 entry listing a project's application keys by creation time. */
  appKeyByProject: (projectId: string, createdAt: string, appId: string) => ({
    GSI1PK: `${project(projectId)}#APPKEYS`,
    GSI1SK: `${createdAt}#${appId}`,
  }),
  appKeysOfProjectPartition: (projectId: string): string => `${project(projectId)}#APPKEYS`,

  oauthToken: (tokenHash: string): ItemKey => ({ PK: `OAUTH#${tokenHash}`, SK: 'OAUTH' }),
} as const;
