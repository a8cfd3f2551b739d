import * as z from '../zod.js';
import { CODE_CHARACTERS, MAX_CODE_LENGTH } from './code-generator.js';

const codePart = z.string().check(z.maxLength(MAX_CODE_LENGTH), z.regex(CODE_CHARACTERS, 'must hold printable ASCII characters without spaces'));

/** `code_config` as a client sends it; completed by resolveCodeConfig. */
export const codeConfigSchema = z.strictObject({
  length: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_CODE_LENGTH))),
  charset: z.optional(codePart.check(z.minLength(1))),
  prefix: z.optional(codePart),
  postfix: z.optional(codePart),
  pattern: z.optional(codePart.check(z.minLength(1))),
  initial_count: z.optional(z.int().check(z.nonnegative())),
});

export const redemptionSchema = z.strictObject({
  quantity: z.optional(z.nullable(z.int().check(z.nonnegative(), z.maximum(1_000_000_000)))),
});
