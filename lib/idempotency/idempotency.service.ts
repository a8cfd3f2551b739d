import { randomUUID } from 'node:crypto';
import { zlib } from '../builtins.js';
import { toEpochSeconds } from '../clock.js';
import { transact, type TransactItem, type TransactOutcome } from '../db/transact.js';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { IdempotencyScope } from './idempotency-scope.js';
import {
  COMPRESS_ABOVE_BYTES,
  finishIdempotencyLease,
  getIdempotencyRecord,
  leaseIdempotencyKey,
  recordedReplyOf,
  recordReplyItem,
  releaseIdempotencyLease,
} from './idempotency.repo.js';

/**
 * Idempotency keys for POST endpoints.
 *
 * A request sent with a key is carried out at most once per project and key within 24 hours:
 * the operation's final write and a record of its reply are committed in ONE transaction, the
 * record on condition that no live record of the key exists. So a retry, or a concurrent
 * duplicate, either finds the record and gets the first reply back without doing anything, or
 * loses the commit race and gets the winner's reply: the effects happen once. The record holds
 * a fingerprint of the request (operation + canonical request); the same key with another request
 * is refused with 422 `idempotency_key_reused`. Failed requests record nothing, so they can be
 * retried with the same key. Operations adopting this must do everything that matters in their
 * final transaction and keep the steps before it idempotent (reads, upserts).
 *
 * That is the `transactional` path (`commitOnce`, called by services with the scope their
 * endpoint built). Every other write POST takes the `generic` path (`runOnce`, run by the endpoint
 * chain): a lease record around the operation, with a weaker guarantee spelled out on `runOnce`.
 */

/** Marks a reply served from the record of an earlier request with the same key. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;
type GenericDeps = Pick<Runtime, 'ddb' | 'tableName' | 'logger'>;

/**
 * The reply recorded for the key, if a live record exists (expiry is checked here: TTL deletion lags).
 * @throws IdempotencyKeyReusedError when the key was used with a different request.
 */
export async function recordedReply<T>(deps: Deps, scope: IdempotencyScope, now: Date): Promise<T | undefined> {
  const record = await getIdempotencyRecord(deps, scope);
  if (!record || record.expiresAt <= toEpochSeconds(now)) return undefined;
  if (record.fingerprint !== scope.fingerprint) throw new IdempotencyKeyReusedError(scope.key);
  return recordedReplyOf(record) as T;
}

export type CommitOutcome<T> = { ok: true; reply: T; replayed: boolean } | Exclude<TransactOutcome, { ok: true }>;

/** What a transactional operation returns: its result, and whether that is the first request's, replayed for a retry. */
export interface Committed<T> {
  value: T;
  replayed: boolean;
}

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

/** A reply as the generic path keeps it: the status, headers and body an endpoint answered with. */
export interface ReplayableReply {
  statusCode: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface StoredReply {
  statusCode: number;
  headers?: Record<string, string>;
  /** The body's JSON text, byte for byte as first sent (DynamoDB maps do not keep key order). */
  body?: string;
  bodyGz?: Uint8Array;
}

function storedReply(reply: ReplayableReply): StoredReply {
  const text = reply.body === undefined ? undefined : JSON.stringify(reply.body);
  const compress = text !== undefined && Buffer.byteLength(text) > COMPRESS_ABOVE_BYTES;
  return {
    statusCode: reply.statusCode,
    ...(reply.headers ? { headers: reply.headers } : {}),
    ...(text !== undefined ? (compress ? { bodyGz: zlib().gzipSync(text) } : { body: text }) : {}),
  };
}

function replayOf(stored: StoredReply): ReplayableReply {
  const text = stored.bodyGz ? zlib().gunzipSync(stored.bodyGz).toString('utf8') : stored.body;
  return {
    statusCode: stored.statusCode,
    headers: { ...stored.headers, [REPLAYED_HEADER]: 'true' },
    ...(text !== undefined ? { body: JSON.parse(text) as unknown } : {}),
  };
}

/**
 * Runs a POST at most once per project and key within 24 hours, whatever the operation (the
 * generic path of every write POST; the transactional routes have their own):
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
export async function runOnce<R extends ReplayableReply>(deps: GenericDeps, scope: IdempotencyScope, now: () => Date, run: () => Promise<R>): Promise<R> {
  const owner = randomUUID();
  for (let attempt = 0; ; attempt++) {
    const at = now();
    const blocking = await leaseIdempotencyKey(deps, scope, owner, at);
    if (!blocking) break;
    const nowSeconds = toEpochSeconds(at);
    // The record vanished or expired between the Put and the Get: claim again.
    const live = typeof blocking.expiresAt === 'number' && blocking.expiresAt > nowSeconds;
    if (live && blocking.fingerprint !== scope.fingerprint) throw new IdempotencyKeyReusedError(scope.key);
    // A replay is the reply first sent for this very request: the route's own reply type.
    if (live && blocking.state === 'DONE') return replayOf(blocking.reply as StoredReply) as R;
    const leased = live && blocking.state === 'IN_PROGRESS' && typeof blocking.leaseUntil === 'number' && blocking.leaseUntil > nowSeconds;
    if (leased || attempt >= 2) throw new IdempotencyKeyInUseError(scope.key, 1);
  }

  let reply: R;
  try {
    reply = await run();
  } catch (error) {
    await release(deps, scope, owner);
    throw error;
  }
  if (reply.statusCode >= 400) {
    await release(deps, scope, owner);
    return reply;
  }
  try {
    await finishIdempotencyLease(deps, scope, owner, storedReply(reply));
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
async function release(deps: GenericDeps, scope: IdempotencyScope, owner: string): Promise<void> {
  try {
    await releaseIdempotencyLease(deps, scope, owner);
  } catch (error) {
    deps.logger.warn('idempotency lease not released', { error: error instanceof Error ? error.name : typeof error });
  }
}
