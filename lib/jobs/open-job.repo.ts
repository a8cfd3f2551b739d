import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { openJob } from '../db/entities.js';
import type { ItemKey } from '../db/entity.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import { OPEN_JOB_SHARDS, type OpenJob, openJobShard } from './open-job.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The marker's key, from the ids the job's subject already has. */
export const openJobKey = (projectId: string, subjectId: string): ItemKey => openJob.key(openJobShard(subjectId), projectId, subjectId);

/** The Put of a new job's marker: joins the transaction that creates the async action or export. */
export const openJobPut = (deps: Pick<Runtime, 'tableName'>, job: OpenJob): TransactItem => openJob.putIfAbsent(deps, job);

/**
 * The Delete of a job's marker: joins the transaction that makes the job final. Unconditional, so
 * a job created before markers existed (none to delete) ends the same way.
 */
export const openJobDelete = (deps: Pick<Runtime, 'tableName'>, projectId: string, subjectId: string): TransactItem => ({
  Delete: { TableName: deps.tableName, Key: openJobKey(projectId, subjectId) },
});

/** Deletes a marker whose job turned out final or gone (found by a reconcile). */
export async function deleteOpenJob(deps: Deps, projectId: string, subjectId: string): Promise<void> {
  await deps.ddb.send(new DeleteCommand({ TableName: deps.tableName, Key: openJobKey(projectId, subjectId) }));
}

/** Every marker, one shard after the other, a Query page at a time (consistent: a marker just written is seen). */
export async function* openJobPages(deps: Deps): AsyncGenerator<OpenJob[]> {
  for (let shard = 0; shard < OPEN_JOB_SHARDS; shard += 1) {
    yield* openJob.queryPages(deps, { key: [shard] }, { consistent: true });
  }
}
