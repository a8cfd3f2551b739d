import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { exportRecord } from '../db/entities.js';
import { updateStatusIf, updateStatusWith } from '../db/status-update.js';
import { transact } from '../db/transact.js';
import { queryPage } from '../db/query-page.js';
import type { JobType } from '../jobs/job.js';
import { openJobDelete, openJobKey, openJobPut } from '../jobs/open-job.repo.js';
import type { Runtime } from '../runtime.js';
import type { Export } from './export.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Writes a new export with its open-job marker (lib/jobs/open-job.ts) in one transaction; its id must be free.
 * @throws Error when it could not be written (an id taken, or a conflict: a new random id never meets another writer).
 */
export async function insertExport(deps: Deps, record: Export, jobType: Extract<JobType, 'export' | 'export-points-expiration'>): Promise<void> {
  const marker = openJobPut(deps, { type: jobType, projectId: record.projectId, subjectId: record.id, createdAt: record.createdAt });
  const outcome = await transact(deps, [exportRecord.putIfAbsent(deps, record), marker]);
  if (!outcome.ok) throw new Error(`Export ${record.id} could not be written`);
}

export function getExport(deps: Deps, projectId: string, exportId: string): Promise<Export | null> {
  return exportRecord.get(deps, exportRecord.key(projectId, exportId));
}

/** A conditional status move; null when the condition failed (it moved on, or never existed). */
const update = (deps: Deps, projectId: string, exportId: string, set: string, condition: string, values: Record<string, unknown>): Promise<Export | null> =>
  updateStatusIf(deps, exportRecord, exportRecord.key(projectId, exportId), set, condition, values);

/** SCHEDULED → IN_PROGRESS (or stays IN_PROGRESS on a redelivery). @returns null when the export is final or missing. */
export const startExport = (deps: Deps, projectId: string, exportId: string, now: string) =>
  update(deps, projectId, exportId, 'SET #s = :ip, updatedAt = :now', '#s IN (:sch, :ip)', { ':ip': 'IN_PROGRESS', ':sch': 'SCHEDULED', ':now': now });

/** A move to a final status, in one transaction with the Delete of the export's open-job marker. */
const end = (deps: Deps, projectId: string, exportId: string, move: { set: string; condition: string; values: Record<string, unknown> }) =>
  updateStatusWith(deps, exportRecord, exportRecord.key(projectId, exportId), move, [openJobDelete(deps, projectId, exportId)], `Export ${exportId} is busy`);

/**
 * IN_PROGRESS → DONE, only from IN_PROGRESS: a final export never moves. Its open-job marker goes in the same transaction.
 * @returns the export as read after the move; null when it was not IN_PROGRESS.
 */
export const finishExport = (deps: Deps, projectId: string, exportId: string, rowCount: number, now: string) =>
  end(deps, projectId, exportId, {
    set: 'SET #s = :done, rowCount = :n, updatedAt = :now, finishedAt = :now',
    condition: '#s = :ip',
    values: { ':done': 'DONE', ':ip': 'IN_PROGRESS', ':n': rowCount, ':now': now },
  });

/**
 * SCHEDULED / IN_PROGRESS → ERROR with the reason; its open-job marker goes in the same transaction.
 * @returns the export as read after the move; null when it was already final or is missing.
 */
export const failExportRecord = (deps: Deps, projectId: string, exportId: string, reason: string, now: string) =>
  end(deps, projectId, exportId, {
    set: 'SET #s = :err, failure = :why, updatedAt = :now, finishedAt = :now',
    condition: '#s IN (:sch, :ip)',
    values: { ':err': 'ERROR', ':sch': 'SCHEDULED', ':ip': 'IN_PROGRESS', ':why': reason.slice(0, 1000), ':now': now },
  });

/**
 * Records that a customer's permanent deletion deleted a DONE export's file (the status stays DONE;
 * a download answers 404 saying why).
 * @returns null when the export is not DONE (deleted meanwhile).
 */
export const markExportFileErased = (deps: Deps, projectId: string, exportId: string, now: string) =>
  update(deps, projectId, exportId, 'SET fileErasedAt = :now, updatedAt = :now', '#s = :done', { ':done': 'DONE', ':now': now });

/** Every export of the project, oldest first, a page at a time (GSI1: eventually consistent). */
export const exportPages = (deps: Deps, projectId: string): AsyncGenerator<Export[]> =>
  exportRecord.queryPages(deps, { index: [projectId] }, { ascending: true });

/**
 * A page of the project's exports by creation (GSI1; eventually consistent: one made a moment ago
 * may be missing), reading `skip + take + 1` entries at most.
 */
export function listExports(
  deps: Deps,
  projectId: string,
  o: { skip: number; take: number; ascending: boolean },
): Promise<{ items: Export[]; hasMore: boolean }> {
  return queryPage((pageSize) => exportRecord.queryPages(deps, { index: [projectId] }, { ascending: o.ascending, pageSize }), o.skip, o.take);
}

/** How many exports the project has (a COUNT Query of its GSI1 partition). */
export const countExports = (deps: Deps, projectId: string): Promise<number> => exportRecord.count(deps, { index: [projectId] });

/**
 * Deletes an export, then its open-job marker (a job still queued then finds no export and does
 * nothing; a marker left behind by a failure between the two is dropped by the open-jobs
 * reconcile, which finds its export gone).
 * @returns the export as it was; null when there was none.
 */
export async function deleteExportRecord(deps: Deps, projectId: string, exportId: string): Promise<Export | null> {
  const key = exportRecord.key(projectId, exportId);
  const res = await deps.ddb.send(new DeleteCommand({ TableName: deps.tableName, Key: key, ReturnValues: 'ALL_OLD' }));
  if (!res.Attributes) return null;
  await deps.ddb.send(new DeleteCommand({ TableName: deps.tableName, Key: openJobKey(projectId, exportId) }));
  return exportRecord.fromItem(res.Attributes);
}

/**
 * Marks an export ERROR with the reason, unless it is already final.
 * @returns true when this call moved the export to ERROR; false when it was final or missing.
 */
export async function failExport(deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock'>, projectId: string, exportId: string, reason: string): Promise<boolean> {
  return (await failExportRecord(deps, projectId, exportId, reason, deps.clock.now().toISOString())) !== null;
}
