import { customEventSchema, customEventSchemaId } from '../db/entities.js';
import { putUnique } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { CustomEventSchema } from './event-schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Writes a schema under its event name, with a pointer from its id, in one transaction.
 * @returns false when the project already has a schema of that name (nothing is written).
 */
export function insertEventSchema(deps: Deps, schema: CustomEventSchema): Promise<boolean> {
  const idRef = customEventSchemaId.toItem({ name: schema.name }, schema.projectId, schema.id);
  return putUnique(deps, customEventSchema.toItem(schema), [idRef], {
    busy: `Too many concurrent writes of custom event schema ${schema.name}`,
    taken: `Custom event schema id ${schema.id} is already taken`,
  });
}

/** The schema of an event name (strongly consistent: usable the moment it was created); null if none. */
export function getEventSchemaByName(deps: Deps, projectId: string, name: string): Promise<CustomEventSchema | null> {
  return customEventSchema.get(deps, customEventSchema.key(projectId, name));
}

/** The event name a schema id points at; null if none. */
export async function getEventSchemaNameById(deps: Deps, projectId: string, schemaId: string): Promise<string | null> {
  return (await customEventSchemaId.get(deps, customEventSchemaId.key(projectId, schemaId)))?.name ?? null;
}

/**
 * Every schema of a project, oldest first: a Query on GSI1 (index reads are eventually
 * consistent, so a schema made a moment ago may be missing for a moment).
 */
export function listEventSchemas(deps: Deps, projectId: string): Promise<CustomEventSchema[]> {
  return customEventSchema.query(deps, { index: [projectId] });
}
