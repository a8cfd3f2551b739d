import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of the branding routes (branding.mapper.ts writes these shapes). Only the OpenAPI
 * generator and the tests import this module: handler bundles stay small.
 */

export const brandingReplySchema = z.strictObject({
  id: z.string().check(z.regex(/^brd_/)),
  brand: z.strictObject({
    name: z.string(),
    privacy_policy_url: z.nullable(z.string()),
    terms_of_use_url: z.nullable(z.string()),
    permission_reminder: z.string(),
    website_url: z.nullable(z.string()),
  }),
  address: z.strictObject({
    street: z.string(),
    city: z.string(),
    postal: z.nullable(z.string()),
    state: z.nullable(z.string()),
    country: z.string(),
  }),
  contact: z.strictObject({ email: z.string(), phone: z.nullable(z.string()) }),
});

export const brandingListReplySchema = listReply(brandingReplySchema, { dataRef: 'data' });
