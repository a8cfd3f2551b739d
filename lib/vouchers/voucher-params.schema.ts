import * as z from '../zod.js';
import { queryBoolean } from '../http/query-params.js';
import { CODE_CHARACTERS, isDotSegment, MAX_CODE_LENGTH } from './code-generator.js';

/** What a voucher code looks like: the test of a lookup by code (a code stored before dot-segments were refused is still found). */
export const codeSchema = z
  .string()
  .check(z.minLength(1), z.maxLength(MAX_CODE_LENGTH), z.regex(CODE_CHARACTERS, 'must hold printable ASCII characters without spaces'));

/** A voucher code as a client may choose it for a new voucher: also not `.` or `..` (see isDotSegment). */
export const newCodeSchema = codeSchema.check(
  z.refine(
    (code) => !isDotSegment(code),
    'must not be "." or "..": HTTP clients remove these path segments from a URL, so /v1/vouchers/{code} could never reach the voucher',
  ),
);

/** GET and DELETE /v1/vouchers/{code}: a code or a voucher id. Any string: one that cannot exist is simply not found. */
export const voucherParams = z.strictObject({ code: z.string().check(z.minLength(1), z.maxLength(1000)) });

export const deleteVoucherQuery = z.strictObject({ force: z.optional(queryBoolean) });
