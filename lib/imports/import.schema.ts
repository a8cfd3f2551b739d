import * as z from '../zod.js';

/**
 * The parts of a CSV import's multipart/form-data body (lib/http/request.ts reads each part as
 * text): `file`, the CSV. `webhooks_enable` is read and has no effect (imports send no voucher webhooks here).
 */
export const importCsvBody = z.strictObject({
  file: z.string(),
  // Any short text: it changes nothing here, so no value of it is worth a refusal.
  webhooks_enable: z.optional(z.string().check(z.maxLength(10))),
});
export type ImportCsvBody = z.output<typeof importCsvBody>;
