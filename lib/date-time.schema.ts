import * as z from './zod.js';

/** ISO 8601 date-time with `Z` or an offset; normalised to UTC milliseconds (`...000Z`), as Voucherify replies. */
export const dateTime = z.pipe(
  z.iso.datetime({ offset: true }),
  z.transform((s: string) => new Date(s).toISOString()),
);
export const isoDuration = z.iso.duration();
