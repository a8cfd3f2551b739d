import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { toEpochSeconds } from '../clock.js';
import { keys } from '../db/keys.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { IdempotencyScope } from './idempotency-scope.js';

/** How long a key and its reply are kept (and honoured). */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
/**
 * How long a generic request holds its key before another request may take the key over. Longer
 * than an API function may run (10 s), so a request still running is never taken over.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 60;

const ENTITY = 'idempotency_record';
const SCHEMA_VERSION = 1;

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A key's record: a lease while its generic request runs, then the reply (generic: `StoredReply`; transactional: the service's value). */
export interface IdempotencyRecord {
  fingerprint: string;
  state?: 'IN_PROGRESS' | 'DONE';
  owner?: string;
  leaseUntil?: number;
  reply?: unknown;
  createdAt: string;
  /** Unix seconds; the record means nothing after it (TTL deletion lags). */
  expiresAt: number;
}

const fromItem = (item: Record<string, unknown>): IdempotencyRecord => ({
  fingerprint: String(item.fingerprint),
  ...(item.state === 'IN_PROGRESS' || item.state === 'DONE' ? { state: item.state } : {}),
  ...(typeof item.owner === 'string' ? { owner: item.owner } : {}),
  ...(typeof item.leaseUntil === 'number' ? { leaseUntil: item.leaseUntil } : {}),
  ...('reply' in item ? { reply: item.reply } : {}),
  createdAt: String(item.createdAt),
  expiresAt: Number(item.expiresAt),
});

/** The key's record as stored (live or not), or null. */
export async function getIdempotencyRecord(deps: Deps, scope: Pick<IdempotencyScope, 'projectId' | 'key'>): Promise<IdempotencyRecord | null> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.tableName, Key: keys.idempotencyRecord(scope.projectId, scope.key), ConsistentRead: true }));
  return res.Item ? fromItem(res.Item) : null;
}

function recordItem(scope: IdempotencyScope, now: Date, fields: Record<string, unknown>): Record<string, unknown> {
  const expiresAt = toEpochSeconds(now) + IDEMPOTENCY_WINDOW_SECONDS;
  return {
    ...keys.idempotencyRecord(scope.projectId, scope.key),
    entity: ENTITY,
    v: SCHEMA_VERSION,
    fingerprint: scope.fingerprint,
    ...fields,
    createdAt: now.toISOString(),
    expiresAt,
    ttl: expiresAt,
  };
}

/** The transaction item recording `reply` for the key; its condition fails while a live record of the key exists. */
export function recordReplyItem(deps: Deps, scope: IdempotencyScope, reply: unknown, now: Date): TransactItem {
  return {
    Put: {
      TableName: deps.tableName,
      Item: recordItem(scope, now, { reply }),
      ConditionExpression: 'attribute_not_exists(PK) OR expiresAt <= :now',
      ExpressionAttributeValues: { ':now': toEpochSeconds(now) },
    },
  };
}

/**
 * Puts a lease for `owner` if no live record exists, or the one there is an abandoned lease.
 * @returns null when leased; otherwise the record that blocked it (`{}` if it vanished meanwhile).
 */
export async function leaseIdempotencyKey(deps: Deps, scope: IdempotencyScope, owner: string, now: Date): Promise<IdempotencyRecord | Record<string, never> | null> {
  const nowSeconds = toEpochSeconds(now);
  try {
    await deps.ddb.send(
      new PutCommand({
        TableName: deps.tableName,
        Item: recordItem(scope, now, { state: 'IN_PROGRESS', owner, leaseUntil: nowSeconds + IDEMPOTENCY_LEASE_SECONDS }),
        ConditionExpression: 'attribute_not_exists(PK) OR expiresAt <= :now OR (#state = :inProgress AND leaseUntil <= :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':now': nowSeconds, ':inProgress': 'IN_PROGRESS' },
      }),
    );
    return null;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return (await getIdempotencyRecord(deps, scope)) ?? {};
  }
}

/** Turns `owner`'s lease into the key's finished record holding `reply`. @throws ConditionalCheckFailedException when `owner` lost the lease. */
export async function finishIdempotencyLease(deps: Deps, scope: IdempotencyScope, owner: string, reply: unknown): Promise<void> {
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.tableName,
      Key: keys.idempotencyRecord(scope.projectId, scope.key),
      UpdateExpression: 'SET #state = :done, reply = :reply REMOVE leaseUntil',
      ConditionExpression: '#owner = :owner',
      ExpressionAttributeNames: { '#state': 'state', '#owner': 'owner' },
      ExpressionAttributeValues: { ':done': 'DONE', ':reply': reply, ':owner': owner },
    }),
  );
}

/** Deletes `owner`'s lease if it still holds it. @returns false when it no longer did. */
export async function releaseIdempotencyLease(deps: Deps, scope: IdempotencyScope, owner: string): Promise<boolean> {
  try {
    await deps.ddb.send(
      new DeleteCommand({
        TableName: deps.tableName,
        Key: keys.idempotencyRecord(scope.projectId, scope.key),
        ConditionExpression: '#owner = :owner AND #state = :inProgress',
        ExpressionAttributeNames: { '#owner': 'owner', '#state': 'state' },
        ExpressionAttributeValues: { ':owner': owner, ':inProgress': 'IN_PROGRESS' },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
