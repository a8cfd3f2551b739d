import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { oauthLedger, oauthToken } from '../db/entities.js';
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
  const ledger = await oauthLedger.get(deps, oauthLedger.key(projectId));
  return ledger ? { expiries: ledger.expiries ?? [], revision: ledger.revision } : { expiries: [], revision: null };
}

/**
 * Writes the token and the ledger that counts it in one transaction, on condition that the
 * ledger is still at the revision the caller read.
 * @returns false when another writer moved the ledger first (the caller re-reads and retries).
 */
export async function insertTokenWithLedger(deps: Deps, token: OAuthToken, ledger: { expiries: number[]; expectedRevision: number | null }): Promise<boolean> {
  const nextRevision = (ledger.expectedRevision ?? 0) + 1;
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          oauthToken.putIfAbsent(deps, token),
          {
            Put: {
              TableName: deps.tableName,
              Item: oauthLedger.toItem({ expiries: ledger.expiries, revision: nextRevision }, token.projectId),
              ConditionExpression: ledger.expectedRevision === null ? 'attribute_not_exists(PK)' : 'revision = :expected',
              ExpressionAttributeValues: ledger.expectedRevision === null ? undefined : { ':expected': ledger.expectedRevision },
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

/**
 * Deletes the token and writes the ledger without its slot, in one transaction, on condition that
 * the token is still there (in its project) and the ledger still at the revision the caller read.
 * @returns false when either moved first (the caller re-reads: the token may be gone, or the ledger busy).
 */
export async function deleteTokenWithLedger(deps: Deps, token: OAuthToken, ledger: { expiries: number[]; expectedRevision: number | null }): Promise<boolean> {
  const nextRevision = (ledger.expectedRevision ?? 0) + 1;
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: deps.tableName,
              Key: oauthToken.key(token.tokenHash),
              ConditionExpression: 'attribute_exists(PK) AND projectId = :project',
              ExpressionAttributeValues: { ':project': token.projectId },
            },
          },
          {
            Put: {
              TableName: deps.tableName,
              Item: oauthLedger.toItem({ expiries: ledger.expiries, revision: nextRevision }, token.projectId),
              ConditionExpression: ledger.expectedRevision === null ? 'attribute_not_exists(PK)' : 'revision = :expected',
              ExpressionAttributeValues: ledger.expectedRevision === null ? undefined : { ':expected': ledger.expectedRevision },
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

/**
 * The token item, read strongly consistently: a revoked (deleted) token must stop working on the
 * very next request, which an eventually consistent read could still find for a moment.
 */
export function getToken(deps: Deps, tokenHash: string): Promise<OAuthToken | null> {
  return oauthToken.get(deps, oauthToken.key(tokenHash), { consistent: true });
}
