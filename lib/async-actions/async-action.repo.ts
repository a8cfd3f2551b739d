import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { asyncAction } from '../db/entities.js';
import { updateStatusIf } from '../db/status-update.js';
import { ExtraItemsConflictError, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { AsyncAction } from './async-action.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Writes a new action; its id must be free. `extra` items (a new category's) join it in one
 * transaction; their failed condition throws ExtraItemsConflictError (nothing is written).
 */
export async function insertAsyncAction(deps: Deps, action: AsyncAction, extra: readonly TransactItem[] = []): Promise<void> {
  const put = asyncAction.putIfAbsent(deps, action);
  if (extra.length === 0) {
    await deps.ddb.send(new PutCommand(put.Put));
    return;
  }
  const outcome = await transact(deps, [put, ...extra]);
  if (outcome.ok) return;
  if ('failed' in outcome && outcome.failed.some((i) => i > 0)) throw new ExtraItemsConflictError();
  throw new Error(`Async action ${action.id} could not be written`);
}

export function getAsyncAction(deps: Deps, projectId: string, asyncActionId: string): Promise<AsyncAction | null> {
  return asyncAction.get(deps, asyncAction.key(projectId, asyncActionId));
}

/** A conditional status move; null when the condition failed (it moved on, or never existed). */
const update = (
  deps: Deps,
  projectId: string,
  asyncActionId: string,
  set: string,
  condition: string,
  values: Record<string, unknown>,
): Promise<AsyncAction | null> => updateStatusIf(deps, asyncAction, asyncAction.key(projectId, asyncActionId), set, condition, values);

/** ENQUEUED → IN_PROGRESS (or stays IN_PROGRESS on a redelivery). @returns null when the action is final or missing. */
export function startAsyncAction(deps: Deps, projectId: string, asyncActionId: string, now: string): Promise<AsyncAction | null> {
  return update(deps, projectId, asyncActionId, 'SET #s = :ip, updatedAt = :now', '#s IN (:enq, :ip)', {
    ':ip': 'IN_PROGRESS',
    ':enq': 'ENQUEUED',
    ':now': now,
  });
}

/**
 * The transaction item that records `n` more vouchers as done. It holds only while the action is
 * IN_PROGRESS at exactly `doneBefore`, so two workers on the same action (a redelivered message)
 * can never both count, or both write, the same batch.
 */
export function progressItem(deps: Deps, action: AsyncAction, doneBefore: number, n: number, now: string): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: asyncAction.key(action.projectId, action.id),
      UpdateExpression: 'SET doneCount = doneCount + :n, updatedAt = :now',
      ConditionExpression: '#s = :ip AND doneCount = :k',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':n': n, ':now': now, ':ip': 'IN_PROGRESS', ':k': doneBefore },
    },
  };
}

/** IN_PROGRESS with every voucher done → DONE. @returns null when it is not (already DONE, FAILED, or short). */
export function finishAsyncAction(deps: Deps, action: AsyncAction, now: string): Promise<AsyncAction | null> {
  return update(deps, action.projectId, action.id, 'SET #s = :done, updatedAt = :now, finishedAt = :now', '#s = :ip AND doneCount = :req', {
    ':done': 'DONE',
    ':ip': 'IN_PROGRESS',
    ':req': action.requested,
    ':now': now,
  });
}

/** ENQUEUED or IN_PROGRESS → FAILED with a reason. @returns null when the action is final or missing. */
export function failAsyncAction(deps: Deps, projectId: string, asyncActionId: string, reason: string, now: string): Promise<AsyncAction | null> {
  return update(deps, projectId, asyncActionId, 'SET #s = :failed, failure = :reason, updatedAt = :now, finishedAt = :now', '#s IN (:enq, :ip)', {
    ':failed': 'FAILED',
    ':reason': reason.slice(0, 1000),
    ':now': now,
    ':enq': 'ENQUEUED',
    ':ip': 'IN_PROGRESS',
  });
}
