import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { METADATA_TYPES } from './metadata-schema.js';

/*
 * Reply schemas of the metadata schema endpoints (metadata-schema.mapper.ts writes these shapes).
 * Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

const value = z.union([z.string(), z.number()]);
const bounds = {
  eq: z.optional(z.array(value)),
  ne: z.optional(z.array(z.number())),
  lt: z.optional(z.number()),
  lte: z.optional(z.number()),
  gt: z.optional(z.number()),
  gte: z.optional(z.number()),
};
const length = z.optional(z.int().check(z.nonnegative()));

const managedDefinition = z.strictObject({
  type: z.enum(METADATA_TYPES),
  array: z.boolean(),
  optional: z.boolean(),
  object_type: z.nullable(z.string()),
  ...bounds,
  min_length: length,
  max_length: length,
  exact_length: length,
  deleted: z.optional(z.literal(true)),
});

const publicDefinition = z.strictObject({
  type: z.enum(METADATA_TYPES),
  array: z.boolean(),
  optional: z.boolean(),
  objectType: z.nullable(z.string()),
  ...bounds,
  minLength: length,
  maxLength: length,
  exactLength: length,
  deleted: z.optional(z.literal(true)),
});

const envelope = {
  id: z.string().check(z.regex(/^ms_/)),
  related_object: z.string(),
};
const after = {
  allow_defined_only: z.nullable(z.boolean()),
  created_at: z.iso.datetime(),
  updated_at: z.nullable(z.iso.datetime()),
  object: z.literal('metadata_schema'),
};

/** ManagementProjectsMetadataSchema. */
export const managedMetadataSchemaReplySchema = z.strictObject({ ...envelope, properties: z.record(z.string(), managedDefinition), ...after });
export const managedMetadataSchemaListReplySchema = listReply(managedMetadataSchemaReplySchema, { dataRef: 'data' });

/** MetadataSchemaDeprecated: the public read's shape. */
export const metadataSchemaReplySchema = z.strictObject({ ...envelope, properties: z.record(z.string(), publicDefinition), ...after });
export const metadataSchemaListReplySchema = listReply(metadataSchemaReplySchema, { dataRef: 'schemas' });
