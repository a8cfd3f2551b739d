import { expect } from 'vitest';
import { csvRow } from '../../../lib/exports/csv.js';
import type { ExportFiles } from '../../../lib/exports/export-files.js';
import { exportReplySchema } from '../../../lib/exports/export.reply.js';
import type { Runtime } from '../../../lib/runtime.js';
import type { RecordingJobQueue } from '../../support/api.js';
import type { ApiClient } from '../../support/api-client.js';
import { makeJobWorkers } from '../../support/job-workers.js';
import { sqsRecord } from '../../support/sqs-record.js';

export type Json = Record<string, unknown>;

/** The download cluster's base URL the export tests hand the handlers. */
export const DOWNLOAD_BASE = 'http://download.test';

/** The CSV text of a header and rows, as the worker writes it. */
export const csv = (header: string[], rows: Array<Array<string | number | null | undefined>>): string => csvRow(header) + rows.map((r) => csvRow(r)).join('');

/**
 * Runs exports end to end for one project: the create call (any export door), its job through the
 * export worker (s3rver), the export's link from GET /v1/exports/{exportId}, and the CSV downloaded by it.
 */
export function exportRunner(ctx: { api: ApiClient; jobs: RecordingJobQueue; files: ExportFiles; runtime: Runtime; projectId: string }) {
  async function deliver(): Promise<void> {
    const sent = ctx.jobs.sent.splice(0);
    const result = await makeJobWorkers({ runtime: ctx.runtime, files: ctx.files })({ Records: sent.map((j) => sqsRecord(JSON.stringify(j))) }, {} as never);
    expect(result.batchItemFailures).toEqual([]);
  }

  return async function runExport(
    operationId: string,
    request: { params?: Record<string, string>; json?: unknown },
  ): Promise<{ id: string; csv: string; created: Json; done: Json }> {
    const created = await ctx.api.call(operationId, { params: request.params, json: request.json ?? {} });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const reply = exportReplySchema.parse(created.json);
    expect(reply).toMatchObject({ object: 'export', status: 'SCHEDULED', channel: 'API', result: null, user_id: null });
    expect(ctx.jobs.sent).toEqual([{ type: 'export', projectId: ctx.projectId, exportId: reply.id }]);
    await deliver();
    const done = await ctx.api.call('get-export', { params: { exportId: reply.id } });
    expect(done.json).toMatchObject({ status: 'DONE' });
    const url = new URL((done.json.result as { url: string }).url);
    const file = await ctx.api.call('download-export', { params: { exportId: reply.id }, query: url.search.slice(1), headers: {} });
    expect(file.status).toBe(200);
    return { id: reply.id, csv: file.text ?? '', created: created.json, done: done.json };
  };
}
