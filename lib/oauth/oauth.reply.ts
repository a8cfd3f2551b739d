import * as z from '../zod.js';

/*
 * Reply schemas of the OAuth endpoints (lib/oauth/oauth.service.ts writes these shapes).
 * Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

export const tokenReplySchema = z.object({
  access_token: z.string(),
  client_id: z.string(),
  expires_at: z.int(),
  expires_in: z.int(),
  scope: z.string(),
  token_type: z.literal('Bearer'),
});

export const introspectionReplySchema = z.union([z.extend(tokenReplySchema, { active: z.literal(true) }), z.strictObject({ active: z.literal(false) })]);
