import type { WalkState } from './walk-state.js';

/**
 * A deleted project's tombstone (lib/db/entities.ts `deletedProject`), which is also the subject
 * of the job that removes its data (`remove-project-data`): its status and checkpoint. Tombstones
 * written before that job existed have none of the job's fields (no removal ran for them).
 */
export interface DeletedProject extends Partial<WalkState> {
  projectId: string;
  name: string;
  deletedAt: string;
  /** The data removal: IN_PROGRESS until every item of the project is gone, then DONE; FAILED with `failure`. */
  status?: 'IN_PROGRESS' | 'DONE' | 'FAILED';
  /** `removed`: items deleted so far. */
  counts?: { removed: number };
  failure?: string | null;
  updatedAt?: string;
}
