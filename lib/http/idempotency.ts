import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { toEpochSeconds } from '../clock.js';
import { keys } from '../db/keys.js';
import { transact, type TransactItem, type TransactOutcome } from '../db/transact.js';
import { BadRequestError, IdempotencyKeyInUseError, IdempotencyKeyReusedError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { HttpReply } from './reply.js';
import { headerOf } from './request.js';

/**
 * Idempotency keys for POST endpoints (Stripe's `Idempotency-Key`, the IETF httpapi draft).
 *
 * A request sent with a key is carried out at most once per project and key within 24 hours:
 * the operation's final write and a record of its reply are committed in ONE transaction, the
 * record on condition that no live record of the key exists. So a retry, or a concurrent
 * duplicate, either finds the record and gets the first reply back without doing anything, or
 * loses the commit race and gets the winner's reply: the effects happen once. The record holds
 * a fingerprint of the request (operation + canonical body); the same key with another request
 * is refused with 422 `idempotency_key_reused`. Failed requests record nothing, so they can be
 * retried with the same key. Operations adopting this must do everything that matters in their
 * final transaction and keep the steps before it idempotent (reads, upserts).
 *
 * That is the `transactional` path (`commitOnce`). Every other write POST takes the `generic` path
 * (`runOnce`, run by the endpoint chain): a lease record around the operation, with a weaker
 * guarantee spelled out on `runOnce`.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** How long a key and its reply are kept (and honoured). */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;

const KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;
const SCHEMA_VERSION = 1;

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** One keyed request: whose key it is, and what request it stands for. */
export interface IdempotencyScope {
  projectId: string;
  key: string;
  /** SHA-256 of the operation and the canonical request body. */
  fingerprint: string;
}

/** JSON with object keys sorted at every level, so equal bodies hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const requestFingerprint = (operationId: string, body: unknown): string =>
  createHash('sha256').update(`${operationId}\n${canonical(body)}`).digest('hex');

/**
 * The idempotency scope of a request, or null when it carries no `Idempotency-Key`.
 * @throws BadRequestError (400 `invalid_idempotency_key`) for a key that is not 1–255 printable ASCII characters without spaces.
 */
export function idempotencyScopeOf(event: APIGatewayProxyEventV2, projectId: string, operationId: string, body: unknown): IdempotencyScope | null {
  const key = headerOf(event, IDEMPOTENCY_HEADER);
  if (key === undefined) return null;
  if (!KEY_PATTERN.test(key)) {
    throw new BadRequestError(
      'invalid_idempotency_key',
      'Invalid idempotency key',
      `${IDEMPOTENCY_HEADER} must be 1 to 255 printable ASCII characters without spaces`,
    );
  }
  return { projectId, key, fingerprint: requestFingerprint(operationId, body) };
}

/**
 * The reply recorded for the key, if a live record exists (expiry is checked here: TTL deletion lags).
 * @throws IdempotencyKeyReusedError when the key was used with a different request.
 */
export async function recordedReply<T>(deps: Deps, scope: IdempotencyScope, now: Date): Promise<T | undefined> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.idempotencyRecord(scope.projectId, scope.key), ConsistentRead: true }),
  );
  const item = res.Item;
  if (!item || (item.expiresAt as number) <= toEpochSeconds(now)) return undefined;
  if (item.fingerprint !== scope.fingerprint) throw new IdempotencyKeyReusedError(scope.key);
  return item.reply as T;
}

/** The transaction item recording `reply` for the key; its condition fails while a live record of the key exists. */
export function recordReplyItem(deps: Deps, scope: IdempotencyScope, reply: unknown, now: Date): TransactItem {
  const nowSeconds = toEpochSeconds(now);
  const expiresAt = nowSeconds + IDEMPOTENCY_WINDOW_SECONDS;
  return {
    Put: {
      TableName: deps.tableName,
      Item: {
        ...keys.idempotencyRecord(scope.projectId, scope.key),
        entity: 'idempotency_record',
        v: SCHEMA_VERSION,
        fingerprint: scope.fingerprint,
        reply,
        createdAt: now.toISOString(),
        expiresAt,
        ttl: expiresAt,
      },
      ConditionExpression: 'attribute_not_exists(PK) OR expiresAt <= :now',
      ExpressionAttributeValues: { ':now': nowSeconds },
    },
  };
}

export type CommitOutcome<T> = { ok: true; reply: T; replayed: boolean } | Exclude<TransactOutcome, { ok: true }>;

/** What a transactional operation returns: its result, and whether that is the first request's, replayed for a retry. */
export interface Committed<T> {
  value: T;
  replayed: boolean;
}

/** 200 with `map(value)`, marked `Idempotent-Replayed: true` (as the generic path marks it) when replayed. */
export const okCommitted = <T>(committed: Committed<T>, map: (value: T) => unknown): HttpReply => ({
  statusCode: 200,
  body: map(committed.value),
  ...(committed.replayed ? { headers: { [REPLAYED_HEADER]: 'true' } } : {}),
});

/**
 * Commits an operation's final write (`items`, at most 99) and, when the request has a key, the
 * record of its `reply`, all or nothing. If another request with the key committed first, nothing
 * of this one is written and the first reply is returned (`replayed`). Failed conditions of
 * `items` are reported by their indexes; a conflict means the caller may retry the same commit.
 * @throws IdempotencyKeyReusedError when the winner was a different request with the same key.
 */
export async function commitOnce<T>(deps: Deps, scope: IdempotencyScope | null, items: TransactItem[], reply: T, now: Date): Promise<CommitOutcome<T>> {
  const outcome = await transact(deps, scope ? [...items, recordReplyItem(deps, scope, reply, now)] : items);
  if (outcome.ok) return { ok: true, reply, replayed: false };
  if (scope && 'failed' in outcome && outcome.failed.includes(items.length)) {
    const first = await recordedReply<T>(deps, scope, now);
    // The record that beat us may have expired in between: then the same commit can simply be retried.
    return first !== undefined ? { ok: true, reply: first, replayed: true } : { ok: false, conflict: true };
  }
  return outcome;
}

/**
 * How long a generic request holds its key before another request may take the key over. Longer
 * than an API function may run (10 s), so a request still running is never taken over.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 60;
/** Replies above this size are stored gzip-compressed (an item holds at most 400 KB). */
const COMPRESS_ABOVE_BYTES = 64 * 1024;
/** Marks a reply served from the record of an earlier request with the same key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

type GenericDeps = Pick<Runtime, 'ddb' | 'tableName' | 'logger'>;

interface StoredReply {
  statusCode: number;
  headers?: Record<string, string>;
  /** The body's JSON text, byte for byte as first sent (DynamoDB maps do not keep key order). */
  body?: string;
  bodyGz?: Uint8Array;
}

function storedReply(reply: HttpReply): StoredReply {
  const text = reply.body === undefined ? undefined : JSON.stringify(reply.body);
  const compress = text !== undefined && Buffer.byteLength(text) > COMPRESS_ABOVE_BYTES;
  return {
    statusCode: reply.statusCode,
    ...(reply.headers ? { headers: reply.headers } : {}),
    ...(text !== undefined ? (compress ? { bodyGz: gzipSync(text) } : { body: text }) : {}),
  };
}

function replayOf(stored: StoredReply): HttpReply {
  const text = stored.bodyGz ? gunzipSync(stored.bodyGz).toString('utf8') : stored.body;
  return {
    statusCode: stored.statusCode,
    headers: { ...stored.headers, [REPLAYED_HEADER]: 'true' },
    ...(text !== undefined ? { body: JSON.parse(text) as unknown } : {}),
  };
}

/**
 * Claims the key for this request: succeeds if no live record exists, or the one there is an
 * abandoned lease (its request crashed or timed out). Returns the record that blocked the claim.
 */
async function claim(deps: GenericDeps, scope: IdempotencyScope, owner: string, now: Date): Promise<Record<string, unknown> | null> {
  const nowSeconds = toEpochSeconds(now);
  const expiresAt = nowSeconds + IDEMPOTENCY_WINDOW_SECONDS;
  const key = keys.idempotencyRecord(scope.projectId, scope.key);
  try {
    await deps.ddb.send(
      new PutCommand({
        TableName: deps.tableName,
        Item: {
          ...key,
          entity: 'idempotency_record',
          v: SCHEMA_VERSION,
          fingerprint: scope.fingerprint,
          state: 'IN_PROGRESS',
          owner,
          leaseUntil: nowSeconds + IDEMPOTENCY_LEASE_SECONDS,
          createdAt: now.toISOString(),
          expiresAt,
          ttl: expiresAt,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR expiresAt <= :now OR (#state = :inProgress AND leaseUntil <= :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':now': nowSeconds, ':inProgress': 'IN_PROGRESS' },
      }),
    );
    return null;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const res = await deps.ddb.send(new GetCommand({ TableName: deps.tableName, Key: key, ConsistentRead: true }));
    return res.Item ?? {};
  }
}

/**
 * Runs a POST at most once per project and key within 24 hours, whatever the operation (the
 * generic path of every write POST; POST /v1/events has its own, transactional one):
 * 1. claim the key with a lease record (conditional Put);
 * 2. a retry whose key holds a finished reply gets that reply back (status, headers, body, plus
 *    `Idempotent-Replayed: true`) without running anything; one whose key is leased by a running
 *    request gets 409 `idempotency_key_in_use`;
 * 3. run the operation; a success (status < 400) is recorded as the key's reply, a failure
 *    deletes the lease so the same key can be sent again.
 * The gap: if the process dies after the operation's write and before its reply is recorded (a
 * Lambda timeout, a crash), the lease ends after IDEMPOTENCY_LEASE_SECONDS and a retry runs the
 * operation again. Operations that must be exactly-once even then use the transactional path.
 * @throws IdempotencyKeyReusedError (422) when the key was used with a different request;
 *         IdempotencyKeyInUseError (409) while another request holds the key; whatever `run` throws.
 */
export async function runOnce(deps: GenericDeps, scope: IdempotencyScope, now: () => Date, run: () => Promise<HttpReply>): Promise<HttpReply> {
  const owner = randomUUID();
  const key = keys.idempotencyRecord(scope.projectId, scope.key);
  for (let attempt = 0; ; attempt++) {
    const at = now();
    const blocking = await claim(deps, scope, owner, at);
    if (!blocking) break;
    const nowSeconds = toEpochSeconds(at);
    // The record vanished or expired between the Put and the Get: claim again.
    const live = typeof blocking.expiresAt === 'number' && blocking.expiresAt > nowSeconds;
    if (live && blocking.fingerprint !== scope.fingerprint) throw new IdempotencyKeyReusedError(scope.key);
    if (live && blocking.state === 'DONE') return replayOf(blocking.reply as StoredReply);
    const leased = live && blocking.state === 'IN_PROGRESS' && typeof blocking.leaseUntil === 'number' && blocking.leaseUntil > nowSeconds;
    if (leased || attempt >= 2) throw new IdempotencyKeyInUseError(scope.key, 1);
  }

  let reply: HttpReply;
  try {
    reply = await run();
  } catch (error) {
    await release(deps, key, owner);
    throw error;
  }
  if (reply.statusCode >= 400) {
    await release(deps, key, owner);
    return reply;
  }
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: key,
        UpdateExpression: 'SET #state = :done, reply = :reply REMOVE leaseUntil',
        ConditionExpression: '#owner = :owner',
        ExpressionAttributeNames: { '#state': 'state', '#owner': 'owner' },
        ExpressionAttributeValues: { ':done': 'DONE', ':reply': storedReply(reply), ':owner': owner },
      }),
    );
  } catch (error) {
    // The operation is done: its reply is the truth for this caller even if it cannot be kept.
    deps.logger.warn('idempotency reply not recorded', { project_id: scope.projectId, error: error instanceof Error ? error.name : typeof error });
  }
  return reply;
}

/**
 * Frees the key after a failure, if this request still holds it, by deleting its lease record, so
 * a refused request leaves nothing behind. A lost release ends with the lease.
 */
async function release(deps: GenericDeps, key: { PK: string; SK: string }, owner: string): Promise<void> {
  try {
    await deps.ddb.send(
      new DeleteCommand({
        TableName: deps.tableName,
        Key: key,
        ConditionExpression: '#owner = :owner AND #state = :inProgress',
        ExpressionAttributeNames: { '#owner': 'owner', '#state': 'state' },
        ExpressionAttributeValues: { ':owner': owner, ':inProgress': 'IN_PROGRESS' },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) {
      deps.logger.warn('idempotency lease not released', { error: error instanceof Error ? error.name : typeof error });
    }
  }
}
