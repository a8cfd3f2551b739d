import { asyncAction } from '../db/entities.js';
import { updateStatusIf, updateStatusWith } from '../db/status-update.js';
import { ExtraItemsConflictError, transact, type TransactItem } from '../db/transact.js';
import type { OpenJobType } from '../jobs/open-job.js';
import { openJobDelete, openJobPut } from '../jobs/open-job.repo.js';
import type { Runtime } from '../runtime.js';
import type { AsyncAction, ImportFailure } from './async-action.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Writes a new action with its open-job marker (lib/jobs/open-job.ts) in one transaction; its id
 * must be free. `extra` items (a new category's) join the same transaction; their failed
 * condition throws ExtraItemsConflictError (nothing is written).
 */
export async function insertAsyncAction(deps: Deps, action: AsyncAction, extra: readonly TransactItem[] = []): Promise<void> {
  const outcome = await transact(deps, [...asyncActionPuts(deps, action), ...extra]);
  if (outcome.ok) return;
  if ('failed' in outcome && outcome.failed.some((i) => i > 1)) throw new ExtraItemsConflictError();
  throw new Error(`Async action ${action.id} could not be written`);
}

/** The job that carries out each kind of action (its open-job marker names it, for a resume). */
const jobTypeOfAction: Record<AsyncAction['type'], OpenJobType> = {
  'CAMPAIGN.VOUCHERS_GENERATE': 'generate-vouchers',
  'CAMPAIGN.VOUCHERS_IMPORT': 'voucher-import',
  'VOUCHERS.IMPORT': 'voucher-import',
  'CAMPAIGN.VOUCHERS_DELETE': 'delete-campaign-vouchers',
  'CAMPAIGN.VOUCHERS_UPDATE': 'update-campaign-vouchers',
  'VOUCHERS.IMPORT_CSV': 'voucher-import',
  'CAMPAIGN.VOUCHERS_IMPORT_CSV': 'voucher-import',
  'VOUCHERS.BULK_UPDATE': 'bulk-update',
  'VOUCHERS.METADATA_UPDATE': 'bulk-update',
  'PRODUCTS.IMPORT_CSV': 'bulk-update',
  'SKUS.IMPORT_CSV': 'bulk-update',
  'CUSTOMERS.IMPORT_CSV': 'bulk-update',
  'PRODUCTS.BULK_UPDATE': 'bulk-update',
  'PRODUCTS.METADATA_UPDATE': 'bulk-update',
  'CUSTOMERS.BULK_UPDATE': 'bulk-update',
  'CUSTOMERS.METADATA_UPDATE': 'bulk-update',
  'ORDERS.IMPORT': 'bulk-update',
};

/** The Puts of a new action (index 0) and its open-job marker (index 1), for a caller's own transaction. */
export function asyncActionPuts(deps: Pick<Runtime, 'tableName'>, action: AsyncAction): TransactItem[] {
  const type = jobTypeOfAction[action.type];
  return [asyncAction.putIfAbsent(deps, action), openJobPut(deps, { type, projectId: action.projectId, subjectId: action.id, createdAt: action.createdAt })];
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

/** A move to a final status, in one transaction with the Delete of the action's open-job marker. */
const end = (
  deps: Deps,
  projectId: string,
  asyncActionId: string,
  move: { set: string; condition: string; values: Record<string, unknown>; names?: Record<string, string> },
) =>
  updateStatusWith(
    deps,
    asyncAction,
    asyncAction.key(projectId, asyncActionId),
    move,
    [openJobDelete(deps, projectId, asyncActionId)],
    `Async action ${asyncActionId} is busy`,
  );

/**
 * IN_PROGRESS with every voucher done → DONE; its open-job marker goes in the same transaction.
 * @returns the action as read after the move; null when it was not IN_PROGRESS with every voucher done (already DONE, FAILED, or short).
 * @throws ConflictRetryError when concurrent writes to the action outlast the retries.
 */
export function finishAsyncAction(deps: Deps, action: AsyncAction, now: string): Promise<AsyncAction | null> {
  return end(deps, action.projectId, action.id, {
    set: 'SET #s = :done, updatedAt = :now, finishedAt = :now',
    condition: '#s = :ip AND doneCount = :req',
    values: { ':done': 'DONE', ':ip': 'IN_PROGRESS', ':req': action.requested, ':now': now },
  });
}

/**
 * ENQUEUED or IN_PROGRESS → FAILED with a reason; its open-job marker goes in the same transaction.
 * @returns the action as read after the move; null when it was final already or is missing.
 * @throws ConflictRetryError when concurrent writes to the action outlast the retries.
 */
export function failAsyncAction(deps: Deps, projectId: string, asyncActionId: string, reason: string, now: string): Promise<AsyncAction | null> {
  return end(deps, projectId, asyncActionId, {
    set: 'SET #s = :failed, failure = :reason, updatedAt = :now, finishedAt = :now',
    condition: '#s IN (:enq, :ip)',
    values: { ':failed': 'FAILED', ':reason': reason.slice(0, 1000), ':now': now, ':enq': 'ENQUEUED', ':ip': 'IN_PROGRESS' },
  });
}

/**
 * The transaction item that records an import's chunk `chunk` as written: `done` more vouchers and
 * `failed` appended. It holds only while the action is IN_PROGRESS with exactly `chunk` chunks done,
 * so two workers on one action (a redelivered message, a resumed job) never write or count a chunk twice.
 */
export function importProgressItem(deps: Deps, action: AsyncAction, chunk: number, done: number, failed: ImportFailure[], now: string): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: asyncAction.key(action.projectId, action.id),
      UpdateExpression:
        'SET doneCount = doneCount + :n, #imp.chunksDone = #imp.chunksDone + :one, #imp.failed = list_append(#imp.failed, :f), updatedAt = :now',
      ConditionExpression: '#s = :ip AND #imp.chunksDone = :k',
      ExpressionAttributeNames: { '#s': 'status', '#imp': 'import' },
      ExpressionAttributeValues: { ':n': done, ':one': 1, ':f': failed, ':now': now, ':ip': 'IN_PROGRESS', ':k': chunk },
    },
  };
}

/**
 * An import IN_PROGRESS with every chunk written → DONE; its open-job marker goes in the same transaction.
 * @returns the action as read after the move; null when it was not IN_PROGRESS with every chunk done.
 * @throws ConflictRetryError when concurrent writes to the action outlast the retries.
 */
export function finishImport(deps: Deps, action: AsyncAction, now: string): Promise<AsyncAction | null> {
  return end(deps, action.projectId, action.id, {
    set: 'SET #s = :done, updatedAt = :now, finishedAt = :now',
    condition: '#s = :ip AND #imp.chunksDone = :chunks',
    values: { ':done': 'DONE', ':ip': 'IN_PROGRESS', ':chunks': action.import?.chunks ?? 0, ':now': now },
    names: { '#imp': 'import' },
  });
}

/**
 * The transaction item that records `n` more vouchers removed by a VOUCHERS_DELETE action: as
 * progressItem, and `requested` follows when the job finds more vouchers than the campaign counted
 * (a voucher added while it was being deleted), so progress never passes 100%.
 */
export function removalProgressItem(deps: Deps, action: AsyncAction, doneBefore: number, n: number, now: string): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: asyncAction.key(action.projectId, action.id),
      UpdateExpression: 'SET doneCount = :after, requested = :req, updatedAt = :now',
      ConditionExpression: '#s = :ip AND doneCount = :k',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: {
        ':after': doneBefore + n,
        ':req': Math.max(action.requested, doneBefore + n),
        ':now': now,
        ':ip': 'IN_PROGRESS',
        ':k': doneBefore,
      },
    },
  };
}

/**
 * IN_PROGRESS → DONE for a VOUCHERS_DELETE action once nothing is left to remove: `requested`
 * becomes the count removed (fewer when some were deleted one by one meanwhile). Holds only at the
 * `doneCount` the caller read, with its open-job marker deleted in the same transaction.
 * @returns the action as read after the move; null when it moved on meanwhile.
 */
export function finishRemoval(deps: Deps, action: AsyncAction, now: string): Promise<AsyncAction | null> {
  return end(deps, action.projectId, action.id, {
    set: 'SET #s = :done, requested = :k, updatedAt = :now, finishedAt = :now',
    condition: '#s = :ip AND doneCount = :k',
    values: { ':done': 'DONE', ':ip': 'IN_PROGRESS', ':k': action.doneCount, ':now': now },
  });
}

/**
 * One page of a project's actions, newest first, created strictly before `before` (an ISO instant)
 * when given: one Query of GSI1 reading at most `limit + 1` entries, the extra one telling whether
 * more follow. Actions written before the list existed are listed once backfilled.
 */
export async function listAsyncActions(
  deps: Deps,
  projectId: string,
  options: { limit: number; before: string | undefined },
): Promise<{ actions: AsyncAction[]; hasMore: boolean }> {
  // The sort key is `<createdAt>#<id>`, so `to = before` (inclusive) leaves out an action created at `before` itself.
  const items = await asyncAction.queryPage(
    deps,
    { index: [projectId] },
    { ascending: false, pageSize: options.limit + 1, sortRange: options.before === undefined ? undefined : { to: options.before } },
  );
  return { actions: items.slice(0, options.limit), hasMore: items.length > options.limit };
}
