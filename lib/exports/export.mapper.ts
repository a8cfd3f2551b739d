import type * as z from '../zod.js';
import type { Export } from './export.js';
import type { exportReplySchema } from './export.reply.js';

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
    parameters: e.parameters,
    result: e.status === 'DONE' && downloadUrl ? { url: downloadUrl } : e.status === 'ERROR' ? { message: e.failure ?? 'Export failed' } : null,
    user_id: null,
  };
}
