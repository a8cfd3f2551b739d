import { NotFoundError } from '../errors.js';
import { ASYNC_ACTION_ID } from '../jobs/job.js';
import type { Runtime } from '../runtime.js';
import type { AsyncAction } from './async-action.js';
import * as repo from './async-action.repo.js';
import type { ListAsyncActionsQuery } from './async-action.schema.js';

/**
 * GET /v1/async-actions/{asyncActionId}.
 * @throws NotFoundError (resource_type `async_action`, resource_id = the given id).
 */
export async function getAsyncAction(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, asyncActionId: string): Promise<AsyncAction> {
  const found = ASYNC_ACTION_ID.test(asyncActionId) ? await repo.getAsyncAction(deps, projectId, asyncActionId) : null;
  if (!found) throw new NotFoundError('async_action', asyncActionId);
  return found;
}

/**
 * GET /v1/async-actions: one page of the project's actions, newest first, created before
 * `end_date` when given (the reference's only filter; the next page is asked with the last
 * action's `created_at` as `end_date`).
 */
export function listAsyncActions(
  deps: Pick<Runtime, 'ddb' | 'tableName'>,
  projectId: string,
  query: ListAsyncActionsQuery,
): Promise<{ actions: AsyncAction[]; hasMore: boolean }> {
  return repo.listAsyncActions(deps, projectId, { limit: query.limit, before: query.end_date });
}
