import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type AsyncAction, type BulkActionType, type ImportFailure, newAsyncAction } from '../async-actions/async-action.js';
import { failAsyncAction, finishImport, getAsyncAction, importProgressItem, insertAsyncAction, startAsyncAction } from '../async-actions/async-action.repo.js';
import { type BulkRow, bulkChunk } from '../db/entities.js';
import { RETRY, retryOnConflict, transact } from '../db/transact.js';
import { AppError, ConflictRetryError } from '../errors.js';
import type { JobQueue } from '../jobs/job.js';
import type { JobRunner } from '../jobs/job-worker.js';
import { stopIfAsked } from '../jobs/job-stop.js';
import type { Runtime } from '../runtime.js';
import { chunkImport } from '../vouchers/voucher-import-chunks.js';
import { applyUpsertChunk, CHUNKED_TYPES } from './bulk-chunks.js';
import { applyBulkRow } from './bulk-rows.js';

/** A chunk item of a bulk action. */
type BulkChunkItem = { rows: BulkRow[] };

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** Rows per chunk: one checkpoint per chunk, so a redelivery repeats at most this many (idempotent) row writes. */
const ROWS_PER_CHUNK = 25;
/**
 * Rows per chunk of a product upsert: a new product is two items (its reservation and itself), so
 * 49 of them, the project's counter and the checkpoint make one transaction (lib/bulk/bulk-chunks.ts).
 */
const PRODUCT_ROWS_PER_CHUNK = 49;
/** JSON bytes of one chunk item: well under DynamoDB's 400 KB item limit. */
const MAX_CHUNK_BYTES = 300_000;

/**
 * Starts a bulk action: stores its rows as chunk items (before the action exists, so nothing reads
 * a partial list), then the async action (ENQUEUED, `failedAlready` in its result) with its open-job
 * marker in one transaction, then the job. When the queue refuses, the action is marked FAILED.
 * @throws Error (queue or table unavailable).
 */
export async function enqueueBulk(
  deps: Deps & { jobs: JobQueue },
  projectId: string,
  type: BulkActionType,
  rows: readonly BulkRow[],
  requestId: string,
  failedAlready: readonly ImportFailure[] = [],
): Promise<AsyncAction> {
  const chunks = chunkImport(
    rows,
    type === 'PRODUCTS.IMPORT_CSV' || type === 'PRODUCTS.BULK_UPDATE' ? PRODUCT_ROWS_PER_CHUNK : ROWS_PER_CHUNK,
    MAX_CHUNK_BYTES,
  );
  const now = deps.clock.now().toISOString();
  const action = newAsyncAction(
    {
      id: deps.ids.id('aa'),
      projectId,
      type,
      requestId,
      campaignId: 'none',
      requested: rows.length + failedAlready.length,
      import: { chunks: chunks.length, chunksDone: 0, failed: [...failedAlready] },
    },
    now,
  );
  await Promise.all(
    chunks.map((chunk, index) =>
      deps.ddb.send(new PutCommand({ TableName: deps.tableName, Item: bulkChunk.toItem({ rows: chunk }, projectId, action.id, index) })),
    ),
  );
  await insertAsyncAction(deps, action);
  try {
    await deps.jobs.send({ type: 'bulk-update', projectId, asyncActionId: action.id });
  } catch (error) {
    await failAsyncAction(deps, projectId, action.id, 'The job could not be enqueued', deps.clock.now().toISOString());
    throw error;
  }
  return action;
}

/** A row's failure: what names it, its line when it came from a file, and why. */
function failureOf(row: BulkRow, error: AppError): ImportFailure {
  const reason = (error.details ?? error.message).slice(0, 200);
  return { code: row.ref.slice(0, 100), reason, ...(row.line !== undefined ? { line: row.line } : {}) };
}

/**
 * The worker's side of a bulk action, safe to run any number of times for one action, even at
 * once. Each row is an upsert or a set of metadata, so writing it again writes the same thing
 * (an upsert that changes nothing writes nothing); the action's checkpoint (`chunksDone`, with
 * the chunk's count and failures) moves only from the count this run read, so each chunk is
 * counted once however many runs wrote its rows. A final action is left as it is.
 * @throws Error, ConflictRetryError: transient. JobStoppedError when `signal` stopped the run.
 */
export async function runBulkUpdate(
  deps: Deps & Pick<Runtime, 'metadataSchemaCache'> & { signal?: AbortSignal | undefined },
  projectId: string,
  asyncActionId: string,
): Promise<AsyncAction | null> {
  let action: AsyncAction | null = await startAsyncAction(deps, projectId, asyncActionId, deps.clock.now().toISOString());
  if (!action) return getAsyncAction(deps, projectId, asyncActionId);
  let ahead: { index: number; chunk: BulkChunkItem } | null = null;
  for (;;) {
    const progress = action.import;
    if (!progress) throw new Error(`Async action ${asyncActionId} has no rows`);
    if (progress.chunksDone >= progress.chunks) break;
    stopIfAsked(deps.signal, `Bulk action ${asyncActionId}`);
    const index = progress.chunksDone;
    // Chunk items never change once the action exists: one read ahead is as good as one now.
    const chunk = ahead?.index === index ? ahead.chunk : await bulkChunk.get(deps, bulkChunk.key(projectId, asyncActionId, index));
    if (!chunk) throw new Error(`Chunk ${index} of bulk action ${asyncActionId} is missing`);
    const failed: ImportFailure[] = [];
    let done = 0;
    const read: AsyncAction = action;
    const type = read.type as BulkActionType;
    const progressItem = (n: number, f: ImportFailure[]) => importProgressItem(deps, read, index, n, f, deps.clock.now().toISOString());
    let checkpointed = false;
    if (CHUNKED_TYPES.has(type)) {
      const outcome = await applyUpsertChunk(deps, projectId, type, chunk.rows, (o) =>
        progressItem(
          o.done,
          o.failed.map(({ row, error }) => failureOf(row, error)),
        ),
      );
      done = outcome.done;
      checkpointed = outcome.checkpointed;
      failed.push(...outcome.failed.map(({ row, error }) => failureOf(row, error)));
    } else
      for (const row of chunk.rows) {
        try {
          await applyBulkRow(deps, projectId, type, row);
          done += 1;
        } catch (error) {
          if (!(error instanceof AppError) || error instanceof ConflictRetryError) throw error;
          failed.push(failureOf(row, error));
        }
      }
    if (!checkpointed)
      await retryOnConflict(`Too many concurrent writes to bulk action ${asyncActionId}`, async () => {
        const outcome = await transact(deps, [progressItem(done, failed)]);
        return outcome.ok || 'failed' in outcome ? true : RETRY;
      });
    const following: number | null = index + 1 < progress.chunks ? index + 1 : null;
    const nextRead: Promise<BulkChunkItem | null> =
      following === null ? Promise.resolve(null) : bulkChunk.get(deps, bulkChunk.key(projectId, asyncActionId, following)).catch(() => null);
    const fresh: AsyncAction | null = await getAsyncAction(deps, projectId, asyncActionId);
    const next = await nextRead;
    ahead = following !== null && next ? { index: following, chunk: next } : null;
    if (fresh?.status !== 'IN_PROGRESS') return fresh;
    action = fresh;
  }
  await finishImport(deps, action, deps.clock.now().toISOString());
  return getAsyncAction(deps, projectId, asyncActionId);
}

/** The `bulk-update` job's runner on the jobs queue. */
export const runBulkUpdateJob: JobRunner<'bulk-update'> = async (deps, job) => (await runBulkUpdate(deps, job.projectId, job.asyncActionId)) !== null;
