import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import type { Runtime } from '../runtime.js';
import type { OAuthToken } from './oauth-token.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * The project's live-token ledger: the expiry (Unix s) of every token it has issued that may
 * still be live, and a revision number for optimistic locking. One small item, so the cap check
 * costs one read however many tokens exist.
 */
export interface TokenLedger {
  expiries: number[];
  revision: number | null;
}

export async function getLedger(deps: Deps, projectId: string): Promise<TokenLedger> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.oauthLedger(projectId), ConsistentRead: true }),
  );
  if (!res.Item) return { expiries: [], revision: null };
  return { expiries: (res.Item.expiries as number[] | undefined) ?? [], revision: res.Item.revision as number };
}

/**
 * Writes the token and the ledger that counts it in one transaction, on condition that the
 * ledger is still at the revision the caller read.
 * @returns false when another writer moved the ledger first (the caller re-reads and retries).
 */
export async function insertTokenWithLedger(
  deps: Deps,
  token: OAuthToken,
  ledger: { expiries: number[]; expectedRevision: number | null },
): Promise<boolean> {
  const nextRevision = (ledger.expectedRevision ?? 0) + 1;
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: deps.tableName,
              Item: { ...keys.oauthToken(token.tokenHash), entity: 'oauth_token', v: 1, ttl: token.expiresAt, ...token },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: deps.tableName,
              Item: {
                ...keys.oauthLedger(token.projectId),
                entity: 'oauth_ledger',
                v: 1,
                expiries: ledger.expiries,
                revision: nextRevision,
              },
              ConditionExpression:
                ledger.expectedRevision === null ? 'attribute_not_exists(PK)' : 'revision = :expected',
              ExpressionAttributeValues:
                ledger.expectedRevision === null ? undefined : { ':expected': ledger.expectedRevision },
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof TransactionCanceledException || error instanceof TransactionConflictException) return false;
    throw error;
  }
}

export async function getToken(deps: Deps, tokenHash: string): Promise<OAuthToken | null> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.tableName, Key: keys.oauthToken(tokenHash) }));
  if (!res.Item) return null;
  const i = res.Item as OAuthToken;
  return {
    tokenHash: i.tokenHash,
    projectId: i.projectId,
    appId: i.appId,
    scopes: i.scopes,
    issuedAt: i.issuedAt,
    expiresAt: i.expiresAt,
  };
}
