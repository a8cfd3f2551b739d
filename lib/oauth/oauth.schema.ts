import * as z from 'zod';

/** POST /v1/oauth/token, form-encoded. `grant_type`'s value is checked by the service (its own error key). */
export const tokenRequestBody = z.object({
  grant_type: z.string({ error: 'is required' }),
  scope: z.string().max(2000).optional(),
});

/** POST /v1/oauth/introspect, form-encoded. */
export const introspectRequestBody = z.object({
  access_token: z.string({ error: 'is required' }).min(1, 'is required').max(512),
});

export const tokenReplySchema = z.object({
  access_token: z.string(),
  client_id: z.string(),
  expires_at: z.number().int(),
  expires_in: z.number().int(),
  scope: z.string(),
  token_type: z.literal('Bearer'),
});

export const introspectionReplySchema = z.union([
  tokenReplySchema.extend({ active: z.literal(true) }),
  z.strictObject({ active: z.literal(false) }),
]);
