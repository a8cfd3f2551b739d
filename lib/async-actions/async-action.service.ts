import { NotFoundError } from '../errors.js';
import { ASYNC_ACTION_ID } from '../jobs/job.js';
import type { Runtime } from '../runtime.js';
import type { AsyncAction } from './async-action.js';
import * as repo from './async-action.repo.js';

/**
 * GET /v1/async-actions/{asyncActionId}.
 * @throws NotFoundError (resource_type `async_action`, resource_id = the given id).
 */
export async function getAsyncAction(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, asyncActionId: string): Promise<AsyncAction> {
  const found = ASYNC_ACTION_ID.test(asyncActionId) ? await repo.getAsyncAction(deps, projectId, asyncActionId) : null;
  if (!found) throw new NotFoundError('async_action', asyncActionId);
  return found;
}
