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
const schemaDefinition = z.strictObject(
  {
    properties: z
      .record(z.string().check(z.minLength(1), z.maxLength(100)), propertyDefinition)
      .check(z.refine((p) => Object.keys(p).length <= MAX_SCHEMA_PROPERTIES, `must define at most ${MAX_SCHEMA_PROPERTIES} properties`)),
  },
  { error: 'is required' },
);

export const createEventSchemaBody = z.strictObject({
  name: eventName,
  schema: schemaDefinition,
});
export type CreateEventSchemaBody = z.output<typeof createEventSchemaBody>;

export const eventSchemaParams = z.strictObject({ schemaId: z.string().check(z.minLength(1), z.maxLength(1000)) });

/*
 * The Management API's custom event schema routes (/management/v1/projects/{projectId}/custom-event-schemas/{customEventSchemaId}).
 */

/** `{projectId}` and `{customEventSchemaId}` (an `ms_…` id or the event name, as GET /v1/custom-event-schemas/{schemaId} takes). */
export const managementEventSchemaParams = z.strictObject({
  projectId: z.string().check(z.minLength(1), z.maxLength(100)),
  customEventSchemaId: z.string().check(z.minLength(1), z.maxLength(1000)),
});

/** update-custom-event-schema: the properties sent replace those of the same name; the others stay (`deleted: true` retires one). */
export const updateEventSchemaBody = z.strictObject({ schema: schemaDefinition });
export type UpdateEventSchemaBody = z.output<typeof updateEventSchemaBody>;
