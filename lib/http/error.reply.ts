import * as z from '../zod.js';

/**
 * The spec's error object, as lib/http/error-responder.ts writes it for every failure. `error`
 * carries a validation rule's own message (`error.message` of the rule that refused a redemption).
 */
export const errorReplySchema = z.strictObject({
  code: z.int().check(z.minimum(400), z.maximum(599)),
  key: z.string(),
  message: z.string(),
  details: z.optional(z.string()),
  request_id: z.string(),
  resource_id: z.optional(z.string()),
  resource_type: z.optional(z.string()),
  error: z.optional(z.strictObject({ message: z.string() })),
});
export type ErrorReply = z.output<typeof errorReplySchema>;
