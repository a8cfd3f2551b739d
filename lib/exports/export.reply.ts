import * as z from '../zod.js';
import { EXPORT_ID } from './export.js';
import { exportParameters } from './export.schema.js';

/** The export object on the wire (Voucherify's ExportPointsExpiration; lib/exports/export.mapper.ts); not imported by handlers. */
export const exportReplySchema = z.strictObject({
  id: z.string().check(z.regex(EXPORT_ID)),
  object: z.literal('export'),
  created_at: z.iso.datetime(),
  status: z.enum(['SCHEDULED', 'IN_PROGRESS', 'DONE', 'ERROR']),
  channel: z.literal('API'),
  exported_object: z.literal('points_expiration'),
  /** The request's parameters, echoed. */
  parameters: exportParameters,
  result: z.union([z.strictObject({ url: z.url() }), z.strictObject({ message: z.string() }), z.null()]),
  user_id: z.null(),
});
