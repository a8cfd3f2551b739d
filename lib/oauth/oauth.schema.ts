import * as z from '../zod.js';

/** POST /v1/oauth/token, form-encoded. `grant_type`'s value is checked by the service (its own error key). */
export const tokenRequestBody = z.object({
  grant_type: z.string({ error: 'is required' }),
  scope: z.optional(z.string().check(z.maxLength(2000))),
});

/** POST /v1/oauth/introspect, form-encoded. */
export const introspectRequestBody = z.object({
  access_token: z.string({ error: 'is required' }).check(z.minLength(1, 'is required'), z.maxLength(512)),
});

/** POST /v1/oauth/token/revoke, form-encoded. */
export const revokeRequestBody = z.object({
  access_token: z.string({ error: 'is required' }).check(z.minLength(1, 'is required'), z.maxLength(512)),
});
