import type * as z from '../zod.js';
import type { MetadataPropertyDefinition, MetadataSchema } from './metadata-schema.js';
import type {
  managedMetadataSchemaListReplySchema,
  managedMetadataSchemaReplySchema,
  metadataSchemaListReplySchema,
  metadataSchemaReplySchema,
} from './metadata-schema.reply.js';

/** The constraints an operator set, under the given names; unset ones are left out. */
function constraints(d: MetadataPropertyDefinition, lengths: { min: string; max: string; exact: string }): Record<string, unknown> {
  const set: [string, unknown][] = [
    ['eq', d.eq],
    ['ne', d.ne],
    ['lt', d.lt],
    ['lte', d.lte],
    ['gt', d.gt],
    ['gte', d.gte],
    [lengths.min, d.minLength],
    [lengths.max, d.maxLength],
    [lengths.exact, d.exactLength],
  ];
  return Object.fromEntries(set.filter(([, v]) => v !== null));
}

const managedDefinition = (d: MetadataPropertyDefinition) => ({
  type: d.type,
  array: d.array,
  optional: d.optional,
  object_type: d.objectType,
  ...constraints(d, { min: 'min_length', max: 'max_length', exact: 'exact_length' }),
  ...(d.deleted ? { deleted: true as const } : {}),
});

/** The Management API's metadata schema (ManagementProjectsMetadataSchema): snake_case definitions. */
export const toManagedMetadataSchemaReply = (s: MetadataSchema): z.input<typeof managedMetadataSchemaReplySchema> => ({
  id: s.id,
  related_object: s.relatedObject,
  properties: Object.fromEntries(Object.entries(s.properties).map(([name, d]) => [name, managedDefinition(d)])),
  allow_defined_only: s.allowDefinedOnly,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
  object: 'metadata_schema',
});

export const toManagedMetadataSchemaListReply = (schemas: MetadataSchema[]): z.input<typeof managedMetadataSchemaListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: schemas.map(toManagedMetadataSchemaReply),
  total: schemas.length,
});

const publicDefinition = (d: MetadataPropertyDefinition) => ({
  type: d.type,
  array: d.array,
  optional: d.optional,
  objectType: d.objectType,
  ...constraints(d, { min: 'minLength', max: 'maxLength', exact: 'exactLength' }),
  ...(d.deleted ? { deleted: true as const } : {}),
});

/** The public API's metadata schema (MetadataSchemaDeprecated): camelCase definitions, as the reference shows them. */
export const toMetadataSchemaReply = (s: MetadataSchema): z.input<typeof metadataSchemaReplySchema> => ({
  id: s.id,
  related_object: s.relatedObject,
  properties: Object.fromEntries(Object.entries(s.properties).map(([name, d]) => [name, publicDefinition(d)])),
  allow_defined_only: s.allowDefinedOnly,
  created_at: s.createdAt,
  updated_at: s.updatedAt,
  object: 'metadata_schema',
});

export const toMetadataSchemaListReply = (schemas: MetadataSchema[]): z.input<typeof metadataSchemaListReplySchema> => ({
  object: 'list',
  data_ref: 'schemas',
  schemas: schemas.map(toMetadataSchemaReply),
  total: schemas.length,
});
