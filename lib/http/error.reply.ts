import * as z from 'zod';

/**
 * The spec's error object, as lib/http/error-responder.ts writes it for every failure. `error`
 * (a validation rule's own message) is part of the spec's object but no rule produces it here yet.
 */
export const errorReplySchema = z.strictObject({
  code: z.int().min(400).max(599),
  key: z.string(),
  message: z.string(),
  details: z.string().optional(),
  request_id: z.string(),
  resource_id: z.string().optional(),
  resource_type: z.string().optional(),
  error: z.strictObject({ message: z.string() }).optional(),
});
export type ErrorReply = z.output<typeof errorReplySchema>;
