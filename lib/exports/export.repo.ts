import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { exportRecord } from '../db/entities.js';
import { updateStatusIf } from '../db/status-update.js';
import type { Runtime } from '../runtime.js';
import type { Export } from './export.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Writes a new export; its id must be free. */
export async function insertExport(deps: Deps, record: Export): Promise<void> {
  await deps.ddb.send(new PutCommand(exportRecord.putIfAbsent(deps, record).Put));
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

/** IN_PROGRESS → DONE, only from IN_PROGRESS: a final export never moves. @returns null when it was not IN_PROGRESS. */
export const finishExport = (deps: Deps, projectId: string, exportId: string, rowCount: number, now: string) =>
  update(deps, projectId, exportId, 'SET #s = :done, rowCount = :n, updatedAt = :now, finishedAt = :now', '#s = :ip', {
    ':done': 'DONE',
    ':ip': 'IN_PROGRESS',
    ':n': rowCount,
    ':now': now,
  });

/** SCHEDULED / IN_PROGRESS → ERROR with the reason. @returns null when the export was already final or is missing. */
export const failExportRecord = (deps: Deps, projectId: string, exportId: string, reason: string, now: string) =>
  update(deps, projectId, exportId, 'SET #s = :err, failure = :why, updatedAt = :now, finishedAt = :now', '#s IN (:sch, :ip)', {
    ':err': 'ERROR',
    ':sch': 'SCHEDULED',
    ':ip': 'IN_PROGRESS',
    ':why': reason.slice(0, 1000),
    ':now': now,
  });
