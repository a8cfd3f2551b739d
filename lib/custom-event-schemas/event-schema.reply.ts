import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { PROPERTY_TYPES } from './event-schema.js';

/*
 * Reply schemas of the custom event schema endpoints (lib/event-schemas/event-schema.mapper.ts writes these shapes).
 * Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

const propertyReply = z.strictObject({ type: z.enum(PROPERTY_TYPES), optional: z.boolean(), deleted: z.optional(z.literal(true)) });

export const eventSchemaReplySchema = z.strictObject({
  id: z.string().check(z.regex(/^ms_/)),
  name: z.string(),
  schema: z.strictObject({ properties: z.record(z.string(), propertyReply) }),
  created_at: z.iso.datetime(),
  updated_at: z.optional(z.iso.datetime()),
  object: z.literal('custom-event-schema'),
});

export const eventSchemaListReplySchema = listReply(eventSchemaReplySchema, { dataRef: 'data' });
