import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { toEpochSeconds } from '../clock.js';
import { keys } from '../db/keys.js';
import { transact, type TransactItem, type TransactOutcome } from '../db/transact.js';
import { BadRequestError, IdempotencyKeyReusedError } from '../errors.js';
import type { Runtime } from '../runtime.js';
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
