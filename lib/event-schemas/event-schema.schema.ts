import * as z from 'zod';
import { PROPERTY_TYPES } from './event-schema.js';

/** Spec limit on custom event names (Limits table). */
export const MAX_EVENT_NAME_LENGTH = 300;
/** Properties per schema: keeps the schema item, read on every event, small. */
export const MAX_SCHEMA_PROPERTIES = 100;

export const eventName = z.string({ error: 'is required' }).min(1, 'must not be empty').max(MAX_EVENT_NAME_LENGTH, `must be at most ${MAX_EVENT_NAME_LENGTH} characters`);

const propertyDefinition = z.strictObject({
  type: z.enum(PROPERTY_TYPES),
  optional: z.boolean({ error: 'is required (true or false)' }),
  deleted: z.boolean().optional(),
});

/** POST /v1/custom-event-schemas: Voucherify's custom event schema (management API) request. */
export const createEventSchemaBody = z.strictObject({
  name: eventName,
  schema: z.strictObject(
    {
      properties: z
        .record(z.string().min(1).max(100), propertyDefinition)
        .refine((p) => Object.keys(p).length <= MAX_SCHEMA_PROPERTIES, `must define at most ${MAX_SCHEMA_PROPERTIES} properties`),
    },
    { error: 'is required' },
  ),
});
export type CreateEventSchemaBody = z.output<typeof createEventSchemaBody>;

export const eventSchemaParams = z.strictObject({ schemaId: z.string().min(1).max(1000) });

const propertyReply = z.strictObject({ type: z.enum(PROPERTY_TYPES), optional: z.boolean(), deleted: z.literal(true).optional() });

export const eventSchemaReplySchema = z.strictObject({
  id: z.string().regex(/^ms_/),
  name: z.string(),
  schema: z.strictObject({ properties: z.record(z.string(), propertyReply) }),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime().optional(),
  object: z.literal('custom-event-schema'),
});

export const eventSchemaListReplySchema = z.strictObject({
  object: z.literal('list'),
  data_ref: z.literal('data'),
  data: z.array(eventSchemaReplySchema),
  total: z.int().nonnegative(),
});
