import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_CONFLICT_ATTEMPTS } from '../db/transact.js';
import { csvRow } from '../exports/csv.js';
import type { Export } from '../exports/export.js';
import type { ReadableExportFiles } from '../exports/export-files.js';
import { exportPages, getExport, markExportFileErased } from '../exports/export.repo.js';
import { runExport } from '../exports/points-expiration-export.js';
import { createCsvParser } from '../imports/csv.js';
import { stopIfAsked } from '../jobs/job-stop.js';
import type { Runtime } from '../runtime.js';
import { fileErasurePlan, redactCsvRow, rowHoldsPersonal } from './customer-erasure-csv.rules.js';
import type { PersonalData } from './customer-erasure.rules.js';
import { type CustomerErasure, erasureKey, getCustomerErasure } from './customer-erasure.service.js';

/**
 * The export-file stage of a customer's erasure (customer-erasure.job.ts runs it after the table
 * walk, on the export jobs worker: the one with the export bucket). Every export of the project
 * created before the walk ended is taken in creation order: one still open is run to its end first
 * (runExport: after the walk it reads anonymised items), then a DONE one's file is streamed through
 * customer-erasure-csv.rules.ts into a new object under the same key, which replaces the old one
 * only when the upload completes (S3 never shows a half-written file), or deleted when its rows
 * cannot be told apart. Each export done moves the checkpoint on the erasure item, so a run killed
 * mid-way starts again at the file it was on.
 */

export type FilesDeps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'logger'> & {
  files: ReadableExportFiles;
  signal?: AbortSignal | undefined;
  sort?: { chunkRows?: number; tmpDir?: string };
};

/** Records read from a file: a field may be long (JSON metadata), and a one-column file's empty cell is a row. */
const CSV_LIMITS = { maxFieldChars: 10_000_000, maxFields: 10_000, keepEmptyLines: true };
/** Characters of CSV gathered before one upload write. */
const WRITE_CHARS = 256 * 1024;

/** What one export needed. */
export type FileOutcome = 'rewritten' | 'deleted' | 'unchanged';

/** The file's records, decoded and parsed piece by piece; 'missing' when there is no file. */
async function recordsOf(files: ReadableExportFiles, key: string): Promise<AsyncGenerator<string[]> | 'missing'> {
  const body = await files.read(key);
  if (body === 'missing') return 'missing';
  return (async function* () {
    const decoder = new TextDecoder('utf-8');
    const parser = createCsvParser(CSV_LIMITS);
    for await (const piece of body) {
      for (const r of parser.push(decoder.decode(piece, { stream: true }))) yield r.fields;
    }
    for (const r of parser.push(decoder.decode())) yield r.fields;
    for (const r of parser.end()) yield r.fields;
  })();
}

/** Streams the file into a new object with the customer's rows anonymised; nothing is written when no row changes. */
async function rewriteFile(deps: FilesDeps, e: Export, p: PersonalData, what: string): Promise<FileOutcome> {
  const records = await recordsOf(deps.files, e.objectKey);
  if (records === 'missing') return 'unchanged';
  const upload = await deps.files.upload(e.objectKey, { contentType: 'text/csv; charset=utf-8', downloadName: `${e.id}.csv` });
  let header: string[] | null = null;
  let changed = 0;
  let pending = '';
  try {
    for await (const fields of records) {
      let cells = fields;
      if (header === null) header = fields;
      else {
        const redacted = redactCsvRow(e.exportedObject, header, fields, p);
        if (redacted) {
          cells = redacted;
          changed += 1;
        }
      }
      pending += csvRow(cells);
      if (pending.length >= WRITE_CHARS) {
        stopIfAsked(deps.signal, what);
        await upload.write(Buffer.from(pending));
        pending = '';
      }
    }
    if (changed === 0) {
      await upload.abort();
      return 'unchanged';
    }
    if (pending) await upload.write(Buffer.from(pending));
    stopIfAsked(deps.signal, what);
    await upload.complete();
  } catch (error) {
    await upload.abort();
    throw error;
  }
  // Deleted meanwhile (DELETE /v1/exports/{id} removed the old file): the new one goes too.
  if (!(await getExport(deps, e.projectId, e.id))) await deps.files.delete(e.objectKey);
  return 'rewritten';
}

/** Reads the file; when a row holds a personal value, marks the export and deletes the file. */
async function scanFile(deps: FilesDeps, e: Export, p: PersonalData): Promise<FileOutcome> {
  const records = await recordsOf(deps.files, e.objectKey);
  if (records === 'missing') return 'unchanged';
  let first = true;
  let holds = false;
  for await (const fields of records) {
    if (!first && rowHoldsPersonal(fields, p)) {
      holds = true;
      break;
    }
    first = false;
  }
  if (!holds) return 'unchanged';
  // Marked first: a run killed between the two leaves a file no download serves, and the next run deletes it.
  await markExportFileErased(deps, e.projectId, e.id, deps.clock.now().toISOString());
  await deps.files.delete(e.objectKey);
  return 'deleted';
}

/** What one export needs, once it is final. */
async function eraseExport(deps: FilesDeps, e: Export, p: PersonalData, what: string): Promise<FileOutcome> {
  if (e.status !== 'DONE' || e.fileErasedAt) return 'unchanged';
  const plan = fileErasurePlan(e.exportedObject, e.fields);
  if (plan === 'skip') return 'unchanged';
  return plan === 'rewrite' ? rewriteFile(deps, e, p, what) : scanFile(deps, e, p);
}

/** The checkpoint after one export: holds only if the erasure is open and still at `prev`. */
async function checkpoint(deps: FilesDeps, erasure: CustomerErasure, prev: string | undefined, at: string, outcome: FileOutcome): Promise<boolean> {
  const add = outcome === 'rewritten' ? ' ADD filesRewritten :one' : outcome === 'deleted' ? ' ADD filesDeleted :one' : '';
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: erasureKey(erasure.projectId, erasure.customerId),
        UpdateExpression: `SET filesCursor = :at, updatedAt = :now${add}`,
        ConditionExpression: `#s = :open AND ${prev === undefined ? 'attribute_not_exists(filesCursor)' : 'filesCursor = :prev'}`,
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':at': at,
          ':now': deps.clock.now().toISOString(),
          ':open': 'IN_PROGRESS',
          ...(prev === undefined ? {} : { ':prev': prev }),
          ...(add ? { ':one': 1 } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Runs (or resumes, from `filesCursor`) the file stage of an erasure whose walk has ended.
 * @returns the erasure as stored when the stage is over; null when it is no longer open (another run ended it).
 * @throws JobStoppedError (the stop signal; the file in hand is left as it was); Error (transient: the message is retried).
 */
export async function eraseExportFiles(deps: FilesDeps, start: CustomerErasure): Promise<CustomerErasure | null> {
  const what = `Erasure of customer ${start.customerId} (export files)`;
  let erasure = start;
  for (let lost = 0; lost < MAX_CONFLICT_ATTEMPTS; lost += 1) {
    const p = erasure.personal;
    const until = erasure.walkEndedAt;
    if (!p || !until) return erasure;
    let cursor = erasure.filesCursor;
    let moved = true;
    pages: for await (const page of exportPages(deps, erasure.projectId)) {
      for (const listed of page) {
        const at = `${listed.createdAt}#${listed.id}`;
        if (cursor !== undefined && at <= cursor) continue;
        // Later exports read the table after the walk: nothing of the customer is left to copy.
        if (listed.createdAt > until) break pages;
        stopIfAsked(deps.signal, what);
        let e = await getExport(deps, erasure.projectId, listed.id);
        // Still being written (it may have read the customer before the walk): run it to its end here, then erase.
        if (e && (e.status === 'SCHEDULED' || e.status === 'IN_PROGRESS')) e = await runExport(deps, erasure.projectId, e.id);
        const outcome = e ? await eraseExport(deps, e, p, what) : 'unchanged';
        if (!(await checkpoint(deps, erasure, cursor, at, outcome))) {
          moved = false;
          break pages;
        }
        cursor = at;
      }
    }
    if (moved) return getCustomerErasure(deps, erasure.projectId, erasure.customerId);
    // Another run moved the checkpoint: go on from what is stored, or stop when it ended.
    const fresh = await getCustomerErasure(deps, erasure.projectId, erasure.customerId);
    if (fresh?.status !== 'IN_PROGRESS') return null;
    erasure = fresh;
  }
  throw new Error(`${what}: too many lost checkpoints`);
}
