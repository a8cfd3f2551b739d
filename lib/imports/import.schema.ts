import * as z from '../zod.js';

/**
 * The parts of a CSV import's multipart/form-data body (lib/http/request.ts reads each part as
 * text): `file`, the CSV. `webhooks_enable` is read and has no effect (no voucher webhooks here).
 */
export const importCsvBody = z.strictObject({
  file: z.string(),
  webhooks_enable: z.optional(z.enum(['true', 'false'])),
});
export type ImportCsvBody = z.output<typeof importCsvBody>;
