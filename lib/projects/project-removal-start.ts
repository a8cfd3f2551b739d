import type { TransactItem } from '../db/transact.js';
import { openJobPut } from '../jobs/open-job.repo.js';
import type { Runtime } from '../runtime.js';
import type { DeletedProject } from './deleted-project.js';
import { WALK_START } from './walk-state.js';

/**
 * The tombstone's fields that start the `remove-project-data` job, and the job's open-job marker:
 * both join the deleting transaction (project.repo.ts). Apart from the job's code, which the
 * repo's many importers do not need.
 */
export function removalStart(deps: Pick<Runtime, 'tableName'>, projectId: string, now: string): { fields: Partial<DeletedProject>; marker: TransactItem } {
  return {
    fields: { status: 'IN_PROGRESS', walkCursor: WALK_START, walkPass: 0, walkChanged: 0, counts: { removed: 0 }, failure: null, updatedAt: now },
    marker: openJobPut(deps, { type: 'remove-project-data', projectId, subjectId: projectId, createdAt: now }),
  };
}
