import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { zlib } from '../builtins.js';
import { toEpochSeconds } from '../clock.js';
import { type IdempotencyRecord, idempotencyRecord } from '../db/entities.js';
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

/** Replies above this size are stored gzip-compressed (an item holds at most 400 KB). */
export const COMPRESS_ABOVE_BYTES = 64 * 1024;

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

export type { IdempotencyRecord };

const keyOf = (scope: Pick<IdempotencyScope, 'projectId' | 'key'>) => idempotencyRecord.key(scope.projectId, scope.key);

/** The key's record as stored (live or not), or null. */
export async function getIdempotencyRecord(deps: Deps, scope: Pick<IdempotencyScope, 'projectId' | 'key'>): Promise<IdempotencyRecord | null> {
  return idempotencyRecord.get(deps, keyOf(scope));
}

/** The item of a new record of `scope`, created now and kept (and honoured) for the idempotency window. */
function recordItem(
  scope: IdempotencyScope,
  now: Date,
  fields: Pick<IdempotencyRecord, 'replyText' | 'replyGz' | 'state' | 'owner' | 'leaseUntil'>,
): Record<string, unknown> {
  const record: IdempotencyRecord = {
    fingerprint: scope.fingerprint,
    ...fields,
    createdAt: now.toISOString(),
    expiresAt: toEpochSeconds(now) + IDEMPOTENCY_WINDOW_SECONDS,
  };
  return idempotencyRecord.toItem(record, scope.projectId, scope.key);
}

/**
 * A transactional reply as the record keeps it: its JSON text, so that a replay is the first reply
 * byte for byte (a DynamoDB map gives its keys back in its own order; issue 41 item 8), compressed
 * when large.
 */
function replyFields(reply: unknown): Pick<IdempotencyRecord, 'replyText' | 'replyGz'> {
  const text: string | undefined = JSON.stringify(reply);
  if (text === undefined) return {};
  return Buffer.byteLength(text) > COMPRESS_ABOVE_BYTES ? { replyGz: zlib().gzipSync(text) } : { replyText: text };
}

/** The transactional reply a record holds (its text parsed; a record written before text was kept holds it as a map). */
export function recordedReplyOf(record: IdempotencyRecord): unknown {
  if (record.replyGz !== undefined) return JSON.parse(zlib().gunzipSync(record.replyGz).toString('utf8')) as unknown;
  if (record.replyText !== undefined) return JSON.parse(record.replyText) as unknown;
  return record.reply;
}

/** The transaction item recording `reply` for the key; its condition fails while a live record of the key exists. */
export function recordReplyItem(deps: Deps, scope: IdempotencyScope, reply: unknown, now: Date): TransactItem {
  return {
    Put: {
      TableName: deps.tableName,
      Item: recordItem(scope, now, replyFields(reply)),
      ConditionExpression: 'attribute_not_exists(PK) OR expiresAt <= :now',
      ExpressionAttributeValues: { ':now': toEpochSeconds(now) },
    },
  };
}

/**
 * Puts a lease for `owner` if no live record exists, or the one there is an abandoned lease.
 * @returns null when leased; otherwise the record that blocked it (`{}` if it vanished meanwhile).
 */
export async function leaseIdempotencyKey(
  deps: Deps,
  scope: IdempotencyScope,
  owner: string,
  now: Date,
): Promise<IdempotencyRecord | Record<string, never> | null> {
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
      Key: keyOf(scope),
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
        Key: keyOf(scope),
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
