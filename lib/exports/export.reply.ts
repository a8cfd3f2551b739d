import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { EXPORT_ID, EXPORTED_OBJECTS } from './export.js';

/**
 * An export's parameters as the reply echoes them: the request's, as sent (each exported object
 * takes its own `fields`, `order` and `filters`: export.schema.ts).
 */
const exportParametersReply = z.strictObject({
  order: z.optional(z.string()),
  fields: z.optional(z.array(z.string())),
  filters: z.optional(z.record(z.string(), z.unknown())),
  campaign_id: z.optional(z.string()),
});

/** The export object on the wire (Voucherify's Export; lib/exports/export.mapper.ts); not imported by handlers. */
export const exportReplySchema = z.strictObject({
  id: z.string().check(z.regex(EXPORT_ID)),
  object: z.literal('export'),
  created_at: z.iso.datetime(),
  status: z.enum(['SCHEDULED', 'IN_PROGRESS', 'DONE', 'ERROR']),
  channel: z.literal('API'),
  exported_object: z.enum(EXPORTED_OBJECTS),
  /** The request's parameters, echoed. */
  parameters: exportParametersReply,
  result: z.union([z.strictObject({ url: z.url() }), z.strictObject({ message: z.string() }), z.null()]),
  user_id: z.null(),
});

/** GET /v1/exports: one page of the project's exports; `total` counts them all. */
export const exportListReplySchema = listReply(exportReplySchema, { dataRef: 'exports', total: "The number of the project's exports (all pages)" });
export type ExportListReply = z.output<typeof exportListReplySchema>;
