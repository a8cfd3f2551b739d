import * as z from '../zod.js';
import { queryBoolean } from '../http/query-params.js';
import { CODE_CHARACTERS, MAX_CODE_LENGTH } from './code-generator.js';

/** A voucher code as a client may choose it. */
export const codeSchema = z
  .string()
  .check(z.minLength(1), z.maxLength(MAX_CODE_LENGTH), z.regex(CODE_CHARACTERS, 'must hold printable ASCII characters without spaces'));

/** GET and DELETE /v1/vouchers/{code}: a code or a voucher id. Any string: one that cannot exist is simply not found. */
export const voucherParams = z.strictObject({ code: z.string().check(z.minLength(1), z.maxLength(1000)) });

export const deleteVoucherQuery = z.strictObject({ force: z.optional(queryBoolean) });
