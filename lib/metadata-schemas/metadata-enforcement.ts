import type { Runtime } from '../runtime.js';
import { checkMetadata } from './metadata-check.js';
import type { EnforcedObject, MetadataSchema } from './metadata-schema.js';
import { getMetadataSchemaOf } from './metadata-schema.repo.js';

/** Without a cache (a caller that builds its own deps) every check reads the schema. */
type Deps = Pick<Runtime, 'ddb' | 'tableName'> & Partial<Pick<Runtime, 'metadataSchemaCache'>>;

const cacheKey = (projectId: string, relatedObject: string): string => `${projectId}\u0000${relatedObject}`;

/**
 * The project's schema of `relatedObject` (null: none), through the container's cache: a write
 * reads it at most once per cache age (runtime.ts METADATA_SCHEMA_CACHE_SECONDS), so a schema
 * change reaches other containers within that age.
 */
export async function cachedMetadataSchema(deps: Deps, projectId: string, relatedObject: string): Promise<MetadataSchema | null> {
  const key = cacheKey(projectId, relatedObject);
  const hit = deps.metadataSchemaCache?.get(key);
  if (hit !== undefined) return hit;
  const read = await getMetadataSchemaOf(deps, projectId, relatedObject);
  deps.metadataSchemaCache?.set(key, read);
  return read;
}

/** Forgets this container's copy, so the container that changed a schema applies it from its next write. */
export function forgetMetadataSchema(deps: Pick<Runtime, 'metadataSchemaCache'>, projectId: string, relatedObject: string): void {
  deps.metadataSchemaCache.delete(cacheKey(projectId, relatedObject));
}

/**
 * Checks the metadata a write of `object` sets against the project's schema of it. `undefined`
 * (the write sets no metadata) is not checked: the object keeps what it has.
 * @throws MetadataValidationError naming each offending property.
 */
export async function enforceMetadata(
  deps: Deps,
  projectId: string,
  object: EnforcedObject,
  metadata: Readonly<Record<string, unknown>> | undefined,
): Promise<void> {
  if (metadata === undefined) return;
  checkMetadata(await cachedMetadataSchema(deps, projectId, object), metadata);
}
