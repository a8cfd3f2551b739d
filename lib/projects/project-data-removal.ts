import * as entities from '../db/entities.js';
import type { Item } from '../db/entity.js';
import { updateStatusWith } from '../db/status-update.js';
import type { TransactItem } from '../db/transact.js';
import type { JobRunner } from '../jobs/job-worker.js';
import { openJobDelete } from '../jobs/open-job.repo.js';
import type { Runtime } from '../runtime.js';
import type { DeletedProject } from './deleted-project.js';
import { runWalk } from './project-walk.js';
import { WALK_END, WALK_START, type WalkState } from './walk-state.js';

/**
 * The worker's side of DELETE /management/v1/projects/{projectId}: the project's keys and its
 * item are gone already (project.service.ts deleteProject); this removes every item of its
 * partitions, in chunks checkpointed on the tombstone, until a pass over the table finds none.
 */

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'> & { signal?: AbortSignal | undefined };

/** Table items read per Scan page (a page's matches are deleted in transactions of up to 99 plus the checkpoint). */
export const REMOVAL_PAGE = 500;
/** A pass that removed items is followed by another (writes in flight when the keys went); at most this many. */
const MAX_PASSES = 3;

const tombstoneKey = (projectId: string) => entities.deletedProject.key(projectId);

export { removalStart } from './project-removal-start.js';

const walkStateOf = (t: DeletedProject): WalkState => ({ walkCursor: t.walkCursor ?? WALK_START, walkPass: t.walkPass ?? 0, walkChanged: t.walkChanged ?? 0 });

import { getTombstone } from './project.repo.js';

export { getTombstone } from './project.repo.js';

const deleteOf = (deps: Pick<Runtime, 'tableName'>, item: Item): TransactItem => ({
  Delete: { TableName: deps.tableName, Key: { PK: item.PK as string, SK: item.SK as string } },
});

/**
 * Removes a deleted project's data; safe to run any number of times, even at once (runWalk).
 * @returns the tombstone as it ends; null when the project was never deleted.
 * @throws JobStoppedError (stop signal); Error (transient: the message is retried).
 */
export async function runProjectDataRemoval(deps: Deps, projectId: string): Promise<DeletedProject | null> {
  const tombstone = await getTombstone(deps, projectId);
  if (tombstone?.status !== 'IN_PROGRESS') return tombstone;
  await runWalk(
    deps,
    {
      projectId,
      subjectKey: tombstoneKey(projectId),
      evaluate: REMOVAL_PAGE,
      maxPasses: MAX_PASSES,
      what: `Removal of project ${projectId}'s data`,
      plan: async (item) => ({ writes: [deleteOf(deps, item)], tally: { removed: 1 } }),
      reread: async () => {
        const fresh = await getTombstone(deps, projectId);
        return fresh?.status === 'IN_PROGRESS' ? walkStateOf(fresh) : null;
      },
      finish: async (state) => {
        await updateStatusWith(
          deps,
          entities.deletedProject,
          tombstoneKey(projectId),
          {
            set: 'SET #s = :done, updatedAt = :now REMOVE walkCursor, walkPass, walkChanged',
            condition: '#s = :open AND walkCursor = :end AND walkPass = :pass',
            values: { ':done': 'DONE', ':open': 'IN_PROGRESS', ':end': WALK_END, ':pass': state.walkPass, ':now': deps.clock.now().toISOString() },
          },
          [openJobDelete(deps, projectId, projectId)],
          `The removal of project ${projectId}'s data is busy`,
        );
      },
    },
    walkStateOf(tombstone),
  );
  return getTombstone(deps, projectId);
}

/**
 * Marks the removal FAILED with a reason (its marker deleted), unless it is final already.
 * @returns true when this call moved it.
 */
export async function failProjectDataRemoval(deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock'>, projectId: string, reason: string): Promise<boolean> {
  const moved = await updateStatusWith(
    deps,
    entities.deletedProject,
    tombstoneKey(projectId),
    {
      set: 'SET #s = :failed, failure = :reason, updatedAt = :now',
      condition: '#s = :open',
      values: { ':failed': 'FAILED', ':open': 'IN_PROGRESS', ':reason': reason, ':now': deps.clock.now().toISOString() },
    },
    [openJobDelete(deps, projectId, projectId)],
    `The removal of project ${projectId}'s data is busy`,
  );
  return moved !== null;
}

/** The removal's job state for the closers: open while IN_PROGRESS. */
export async function projectDataRemovalState(
  deps: Pick<Runtime, 'ddb' | 'tableName'>,
  projectId: string,
): Promise<{ open: boolean; updatedAt: string } | null> {
  const tombstone = await getTombstone(deps, projectId);
  return tombstone && { open: tombstone.status === 'IN_PROGRESS', updatedAt: tombstone.updatedAt ?? tombstone.deletedAt };
}

/** The `remove-project-data` job's runner on the jobs queue. */
export const runRemoveProjectDataJob: JobRunner<'remove-project-data'> = async (deps, job) => (await runProjectDataRemoval(deps, job.projectId)) !== null;
