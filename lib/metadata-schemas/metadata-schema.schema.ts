import * as z from '../zod.js';
import { METADATA_TYPES } from './metadata-schema.js';

/*
 * Request schemas of the metadata schema endpoints: the Management API's
 * (ManagementProjectsMetadataSchemasCreateRequestBody / UpdateRequestBody) and the public read's path.
 */

/** Properties per schema: keeps the schema item, read by the writes it checks, small. */
export const MAX_SCHEMA_PROPERTIES = 100;
/** Allowed or refused values per property. */
export const MAX_LISTED_VALUES = 100;

const length = z.nullable(z.optional(z.int().check(z.nonnegative(), z.maximum(16 * 1024))));
const bound = z.nullable(z.optional(z.number()));

/** The constraints each type takes (the reference: lengths for strings, eq for strings and numbers, the rest for numbers). */
const CONSTRAINTS_OF = {
  min_length: ['string'],
  max_length: ['string'],
  exact_length: ['string'],
  eq: ['string', 'number'],
  ne: ['number'],
  lt: ['number'],
  lte: ['number'],
  gt: ['number'],
  gte: ['number'],
} as const;

export const propertyDefinition = z
  .strictObject({
    type: z.enum(METADATA_TYPES),
    optional: z.boolean({ error: 'is required (true or false)' }),
    array: z.boolean({ error: 'is required (true or false)' }),
    deleted: z.nullable(z.optional(z.boolean())),
    object_type: z.nullable(z.optional(z.string().check(z.minLength(1), z.maxLength(100)))),
    min_length: length,
    max_length: length,
    exact_length: length,
    eq: z.nullable(z.optional(z.array(z.union([z.number(), z.string().check(z.maxLength(1000))])).check(z.maxLength(MAX_LISTED_VALUES)))),
    ne: z.nullable(z.optional(z.array(z.number()).check(z.maxLength(MAX_LISTED_VALUES)))),
    lt: bound,
    lte: bound,
    gt: bound,
    gte: bound,
  })
  .check(
    z.superRefine((d, ctx) => {
      for (const [field, types] of Object.entries(CONSTRAINTS_OF)) {
        const value = d[field as keyof typeof CONSTRAINTS_OF];
        if (value === undefined || value === null) continue;
        if (!(types as readonly string[]).includes(d.type)) {
          ctx.issues.push({ code: 'custom', path: [field], input: value, message: `is available only for the ${types.join(' and ')} type` });
        }
      }
      // An allowed value of another type could never be met: every write would be refused.
      (d.eq ?? []).forEach((v, i) => {
        if (typeof v !== d.type) ctx.issues.push({ code: 'custom', path: ['eq', i], input: v, message: `must be ${d.type}` });
      });
    }),
  );
export type PropertyDefinitionBody = z.output<typeof propertyDefinition>;

const propertyName = z.string().check(z.minLength(1), z.maxLength(100));
const properties = z
  .record(propertyName, propertyDefinition)
  .check(z.refine((p) => Object.keys(p).length <= MAX_SCHEMA_PROPERTIES, `must define at most ${MAX_SCHEMA_PROPERTIES} properties`));

/** The object a schema describes: a standard one (`customer`, `order`, …) or a custom name. */
export const relatedObject = z.string({ error: 'is required' }).check(z.minLength(1, 'must not be empty'), z.maxLength(100));

/** POST /management/v1/projects/{projectId}/metadata-schemas. */
export const createMetadataSchemaBody = z.strictObject({
  related_object: relatedObject,
  allow_defined_only: z.nullable(z.optional(z.boolean())),
  properties,
});
export type CreateMetadataSchemaBody = z.output<typeof createMetadataSchemaBody>;

/** PUT /management/v1/projects/{projectId}/metadata-schemas/{metadataSchemaId}: the properties sent replace theirs, the others stay. */
export const updateMetadataSchemaBody = z.strictObject({
  allow_defined_only: z.nullable(z.optional(z.boolean())),
  properties,
});
export type UpdateMetadataSchemaBody = z.output<typeof updateMetadataSchemaBody>;

const projectId = z.string().check(z.minLength(1), z.maxLength(100));

export const managedMetadataSchemasParams = z.strictObject({ projectId });
export const managedMetadataSchemaParams = z.strictObject({ projectId, metadataSchemaId: z.string().check(z.minLength(1), z.maxLength(100)) });

/** GET /v1/metadata-schemas/{resource}: the related object. */
export const metadataSchemaResourceParams = z.strictObject({ resource: relatedObject });
