import * as z from '../zod.js';
import { PROPERTY_TYPES } from './event-schema.js';

/** Spec limit on custom event names (Limits table). */
export const MAX_EVENT_NAME_LENGTH = 300;
/** Properties per schema: keeps the schema item, read on every event, small. */
export const MAX_SCHEMA_PROPERTIES = 100;

export const eventName = z
  .string({ error: 'is required' })
  .check(z.minLength(1, 'must not be empty'), z.maxLength(MAX_EVENT_NAME_LENGTH, `must be at most ${MAX_EVENT_NAME_LENGTH} characters`));

const propertyDefinition = z.strictObject({
  type: z.enum(PROPERTY_TYPES),
  optional: z.boolean({ error: 'is required (true or false)' }),
  deleted: z.optional(z.boolean()),
});

/** POST /v1/custom-event-schemas: Voucherify's custom event schema (management API) request. */
export const createEventSchemaBody = z.strictObject({
  name: eventName,
  schema: z.strictObject(
    {
      properties: z
        .record(z.string().check(z.minLength(1), z.maxLength(100)), propertyDefinition)
        .check(z.refine((p) => Object.keys(p).length <= MAX_SCHEMA_PROPERTIES, `must define at most ${MAX_SCHEMA_PROPERTIES} properties`)),
    },
    { error: 'is required' },
  ),
});
export type CreateEventSchemaBody = z.output<typeof createEventSchemaBody>;

export const eventSchemaParams = z.strictObject({ schemaId: z.string().check(z.minLength(1), z.maxLength(1000)) });
