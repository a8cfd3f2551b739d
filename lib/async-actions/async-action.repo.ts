import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import { ExtraItemsConflictError, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { AsyncAction } from './async-action.js';
import { updateStatusIf } from '../db/status-update.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const ENTITY = 'async_action';
const SCHEMA_VERSION = 1;

const toDomain = (item: Record<string, unknown>): AsyncAction => {
  const { PK: _pk, SK: _sk, entity: _e, v: _v, ...rest } = item;
  const a = rest as unknown as AsyncAction;
  return { ...a, failure: a.failure ?? null, finishedAt: a.finishedAt ?? null };
};

/**
 * Writes a new action; its id must be free. `extra` items (a new category's) join it in one
 * transaction; their failed condition throws ExtraItemsConflictError (nothing is written).
 */
export async function insertAsyncAction(deps: Deps, action: AsyncAction, extra: readonly TransactItem[] = []): Promise<void> {
  const put = {
    TableName: deps.tableName,
    Item: { ...keys.asyncAction(action.projectId, action.id), entity: ENTITY, v: SCHEMA_VERSION, ...action },
    ConditionExpression: 'attribute_not_exists(PK)',
  };
  if (extra.length === 0) {
    await deps.ddb.send(new PutCommand(put));
    return;
  }
  const outcome = await transact(deps, [{ Put: put }, ...extra]);
  if (outcome.ok) return;
  if ('failed' in outcome && outcome.failed.some((i) => i > 0)) throw new ExtraItemsConflictError();
  throw new Error(`Async action ${action.id} could not be written`);
}

export async function getAsyncAction(deps: Deps, projectId: string, asyncActionId: string): Promise<AsyncAction | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.asyncAction(projectId, asyncActionId), ConsistentRead: true }),
  );
  return res.Item ? toDomain(res.Item) : null;
}

/** A conditional status move; null when the condition failed (it moved on, or never existed). */
async function update(deps: Deps, projectId: string, asyncActionId: string, set: string, condition: string, values: Record<string, unknown>): Promise<AsyncAction | null> {
  const item = await updateStatusIf(deps, keys.asyncAction(projectId, asyncActionId), set, condition, values);
  return item ? toDomain(item) : null;
}

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
      Key: keys.asyncAction(action.projectId, action.id),
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
  return update(
    deps,
    projectId,
    asyncActionId,
    'SET #s = :failed, failure = :reason, updatedAt = :now, finishedAt = :now',
    '#s IN (:enq, :ip)',
    { ':failed': 'FAILED', ':reason': reason.slice(0, 1000), ':now': now, ':enq': 'ENQUEUED', ':ip': 'IN_PROGRESS' },
  );
}
