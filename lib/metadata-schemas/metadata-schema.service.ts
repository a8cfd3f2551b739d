import { RETRY, retryOnConflict } from '../db/transact.js';
import { DuplicateError, InvalidPayloadError, NotFoundError } from '../errors.js';
import { getProjectConsistently } from '../projects/project.repo.js';
import type { Runtime } from '../runtime.js';
import { forgetMetadataSchema } from './metadata-enforcement.js';
import type { MetadataPropertyDefinition, MetadataSchema } from './metadata-schema.js';
import * as repo from './metadata-schema.repo.js';
import type { CreateMetadataSchemaBody, PropertyDefinitionBody, UpdateMetadataSchemaBody } from './metadata-schema.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;
type WriteDeps = Deps & Pick<Runtime, 'clock' | 'ids' | 'metadataSchemaCache'>;

/** How a request names a schema: the Management API by id within a project, the public read by related object. */
export type MetadataSchemaRef = { managedId: string } | { relatedObject: string };

const definitionOf = (p: PropertyDefinitionBody): MetadataPropertyDefinition => ({
  type: p.type,
  optional: p.optional,
  array: p.array,
  deleted: p.deleted ?? false,
  objectType: p.object_type ?? null,
  minLength: p.min_length ?? null,
  maxLength: p.max_length ?? null,
  exactLength: p.exact_length ?? null,
  eq: p.eq ?? null,
  ne: p.ne ?? null,
  lt: p.lt ?? null,
  lte: p.lte ?? null,
  gt: p.gt ?? null,
  gte: p.gte ?? null,
});

const definitionsOf = (properties: Record<string, PropertyDefinitionBody>): Record<string, MetadataPropertyDefinition> =>
  Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, definitionOf(p)]));

/** @throws NotFoundError (project) when the Management API names a project that does not exist. */
async function requireProject(deps: Deps, projectId: string): Promise<void> {
  if (!(await getProjectConsistently(deps, projectId))) throw new NotFoundError('project', projectId);
}

/**
 * POST /management/v1/projects/{projectId}/metadata-schemas: the project's schema of one related object.
 * @throws NotFoundError (project); DuplicateError when the project already has a schema of that related object.
 */
export async function createMetadataSchema(deps: WriteDeps, projectId: string, body: CreateMetadataSchemaBody): Promise<MetadataSchema> {
  await requireProject(deps, projectId);
  const schema: MetadataSchema = {
    id: deps.ids.id('ms'),
    projectId,
    relatedObject: body.related_object,
    properties: definitionsOf(body.properties),
    allowDefinedOnly: body.allow_defined_only ?? null,
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
    revision: 0,
  };
  if (!(await repo.insertMetadataSchema(deps, schema))) {
    throw new DuplicateError('metadata_schema', `Duplicated metadata_schema exists with related_object ${schema.relatedObject}`, schema.relatedObject);
  }
  forgetMetadataSchema(deps, projectId, schema.relatedObject);
  return schema;
}

/** The schema a managed id names, as last written; null if none. */
async function byManagedId(deps: Deps, projectId: string, schemaId: string): Promise<MetadataSchema | null> {
  const relatedObject = await repo.getRelatedObjectById(deps, projectId, schemaId);
  if (relatedObject === null) return null;
  const schema = await repo.getMetadataSchemaOf(deps, projectId, relatedObject);
  return schema?.id === schemaId ? schema : null;
}

/**
 * GET /management/v1/projects/{projectId}/metadata-schemas/{metadataSchemaId} (by id) and
 * GET /v1/metadata-schemas/{resource} (by related object).
 * @throws NotFoundError (project: a managed project that does not exist; metadata_schema).
 */
export async function getMetadataSchema(deps: Deps, projectId: string, ref: MetadataSchemaRef): Promise<MetadataSchema> {
  if ('managedId' in ref) {
    const [, schema] = await Promise.all([requireProject(deps, projectId), byManagedId(deps, projectId, ref.managedId)]);
    if (!schema) throw new NotFoundError('metadata_schema', ref.managedId);
    return schema;
  }
  const schema = await repo.getMetadataSchemaOf(deps, projectId, ref.relatedObject);
  if (!schema) throw new NotFoundError('metadata_schema', ref.relatedObject);
  return schema;
}

/**
 * GET /management/v1/projects/{projectId}/metadata-schemas (`managed`: the project must exist) and
 * GET /v1/metadata-schemas: every schema of the project, oldest first.
 * @throws NotFoundError (project) for a managed project that does not exist.
 */
export async function listMetadataSchemas(deps: Deps, projectId: string, managed = false): Promise<MetadataSchema[]> {
  const [, schemas] = await Promise.all([managed ? requireProject(deps, projectId) : Promise.resolve(), repo.listMetadataSchemas(deps, projectId)]);
  return schemas;
}

/** The schema with the properties sent replacing theirs (new names added), the others kept. @throws InvalidPayloadError on a changed type. */
export function schemaAfterUpdate(current: MetadataSchema, body: UpdateMetadataSchemaBody, now: string): MetadataSchema {
  for (const [name, p] of Object.entries(body.properties)) {
    const was = current.properties[name];
    if (was !== undefined && was.type !== p.type) {
      throw new InvalidPayloadError(`Property .properties.${name}.type cannot be changed (it is ${was.type})`);
    }
  }
  return {
    ...current,
    properties: { ...current.properties, ...definitionsOf(body.properties) },
    allowDefinedOnly: body.allow_defined_only !== undefined ? body.allow_defined_only : current.allowDefinedOnly,
    updatedAt: now,
    revision: current.revision + 1,
  };
}

/**
 * PUT /management/v1/projects/{projectId}/metadata-schemas/{metadataSchemaId}: each property sent
 * replaces its definition (its type may not change; `deleted: true` stops its check), the others stay.
 * @throws NotFoundError (project, metadata_schema), InvalidPayloadError (a type change), ConflictRetryError.
 */
export async function updateMetadataSchema(deps: WriteDeps, projectId: string, schemaId: string, body: UpdateMetadataSchemaBody): Promise<MetadataSchema> {
  await requireProject(deps, projectId);
  return retryOnConflict(`Too many concurrent writes of metadata schema ${schemaId}`, async () => {
    const current = await byManagedId(deps, projectId, schemaId);
    if (!current) throw new NotFoundError('metadata_schema', schemaId);
    const next = schemaAfterUpdate(current, body, deps.clock.now().toISOString());
    if (!(await repo.replaceMetadataSchema(deps, current, next))) return RETRY;
    forgetMetadataSchema(deps, projectId, next.relatedObject);
    return next;
  });
}

/**
 * DELETE /management/v1/projects/{projectId}/metadata-schemas/{metadataSchemaId}: the schema and
 * its checks go; objects keep their metadata.
 * @throws NotFoundError (project, metadata_schema), ConflictRetryError.
 */
export async function deleteMetadataSchema(deps: WriteDeps, projectId: string, schemaId: string): Promise<void> {
  await requireProject(deps, projectId);
  await retryOnConflict(`Too many concurrent writes of metadata schema ${schemaId}`, async () => {
    const current = await byManagedId(deps, projectId, schemaId);
    if (!current) throw new NotFoundError('metadata_schema', schemaId);
    const outcome = await repo.deleteMetadataSchemaItems(deps, current);
    if (outcome === 'conflict') return RETRY;
    forgetMetadataSchema(deps, projectId, current.relatedObject);
    if (outcome === 'gone') throw new NotFoundError('metadata_schema', schemaId);
    return true;
  });
}
