import type * as z from '../zod.js';
import type { Export } from './export.js';
import type { ExportListReply, exportReplySchema } from './export.reply.js';

/**
 * The export object (Voucherify's ExportPointsExpiration). `result` is null until the export is
 * final: `{url}` once DONE (the download cluster, with a fresh token), `{message}` with the reason
 * once ERROR (as async actions report failures).
 */
export function toExportReply(e: Export, downloadUrl: string | null = null): z.output<typeof exportReplySchema> {
  return {
    id: e.id,
    object: 'export' as const,
    created_at: e.createdAt,
    status: e.status,
    channel: e.channel,
    exported_object: e.exportedObject,
    parameters: e.parameters as z.output<typeof exportReplySchema>['parameters'],
    result: e.status === 'DONE' && downloadUrl ? { url: downloadUrl } : e.status === 'ERROR' ? { message: e.failure ?? 'Export failed' } : null,
    user_id: null,
  };
}

/** GET /v1/exports: a page of exports, each DONE one with a fresh download link. */
export function toExportListReply(page: { items: Array<{ record: Export; url: string | null }>; total: number }): ExportListReply {
  return { object: 'list', data_ref: 'exports', exports: page.items.map((e) => toExportReply(e.record, e.url)), total: page.total };
}
