import type { PointsBucket } from '../loyalty/points-bucket.js';
import { campaignBucketPages } from '../loyalty/points-bucket.repo.js';
import type { Runtime } from '../runtime.js';
import { csvRow } from './csv.js';
import type { Export, PointsExpirationField } from './export.js';
import type { ExportFiles } from './export-files.js';
import { compileFilters } from './export-filters.js';
import { failExportRecord, finishExport, getExport, startExport } from './export.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'logger'> & { files: ExportFiles };

/** Buckets read per Query page: what the worker holds in memory besides one upload part. */
const PAGE_SIZE = 1000;

/**
 * A bucket's cells as text. `status` is ACTIVE or EXPIRED as of `today`: an ACTIVE bucket past
 * its expiry date is reported EXPIRED even before anything has moved it (expiry is checked in code).
 */
export function bucketCells(b: PointsBucket, today: string): Record<PointsExpirationField, string> {
  const expired = b.status === 'EXPIRED' || (b.expiresAt !== null && b.expiresAt < today);
  return {
    id: b.id,
    campaign_id: b.campaignId,
    voucher_id: b.voucherId,
    status: expired ? 'EXPIRED' : 'ACTIVE',
    expires_at: b.expiresAt ?? '',
    points: String(b.points),
  };
}

/**
 * Runs one export job: SCHEDULED/IN_PROGRESS → IN_PROGRESS, streams the campaign's buckets page
 * by page in key (expiry) order through the filters into CSV parts of a multipart upload under
 * the export's fixed key, then IN_PROGRESS → DONE. Buckets spent to zero (USED) are left out.
 * A redelivered job of a final export does nothing; one of an IN_PROGRESS export (a worker died)
 * writes the same key again. On any failure the upload is aborted and the error rethrown.
 * @returns the export as it ends, or null when it does not exist.
 */
export async function runPointsExpirationExport(deps: Deps, projectId: string, exportId: string): Promise<Export | null> {
  const started = await startExport(deps, projectId, exportId, deps.clock.now().toISOString());
  if (!started) return getExport(deps, projectId, exportId);
  const upload = await deps.files.upload(started.objectKey, { contentType: 'text/csv; charset=utf-8', downloadName: `${exportId}.csv` });
  let rows = 0;
  try {
    await upload.write(Buffer.from(csvRow(started.fields)));
    const matches = compileFilters(started.filters);
    const today = deps.clock.now().toISOString().slice(0, 10);
    for await (const page of campaignBucketPages(deps, projectId, started.campaignId, { ascending: started.ascending, pageSize: PAGE_SIZE })) {
      let text = '';
      for (const bucket of page) {
        if (bucket.status === 'USED') continue;
        const cells = bucketCells(bucket, today);
        if (!matches(cells)) continue;
        text += csvRow(started.fields.map((f) => cells[f]));
        rows += 1;
      }
      if (text) await upload.write(Buffer.from(text));
    }
    await upload.complete();
  } catch (error) {
    await upload.abort();
    throw error;
  }
  const done = await finishExport(deps, projectId, exportId, rows, deps.clock.now().toISOString());
  return done ?? getExport(deps, projectId, exportId);
}

/** Marks an export ERROR with the reason, unless it is already final. */
export async function failExport(deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock'>, projectId: string, exportId: string, reason: string): Promise<void> {
  await failExportRecord(deps, projectId, exportId, reason, deps.clock.now().toISOString());
}
