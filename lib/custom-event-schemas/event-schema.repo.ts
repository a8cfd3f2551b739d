import { customEventSchema, customEventSchemaId } from '../db/entities.js';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { putUnique, RETRY, retryOnConflict, transact } from '../db/transact.js';
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

/** The condition that the stored schema is still the one `read` (same id, not changed since). */
function unchangedSince(read: CustomEventSchema): { expression: string; values: Record<string, unknown> } {
  return read.updatedAt === null
    ? { expression: 'id = :id AND attribute_type(updatedAt, :null)', values: { ':id': read.id, ':null': 'NULL' } }
    : { expression: 'id = :id AND updatedAt = :u', values: { ':id': read.id, ':u': read.updatedAt } };
}

/**
 * Writes `next` over the schema `read` (same event name), if it is still as read.
 * @returns false when it changed or went since it was read (nothing is written).
 */
export async function replaceEventSchema(deps: Deps, read: CustomEventSchema, next: CustomEventSchema): Promise<boolean> {
  const condition = unchangedSince(read);
  try {
    await deps.ddb.send(
      new PutCommand({
        TableName: deps.tableName,
        Item: customEventSchema.toItem(next),
        ConditionExpression: condition.expression,
        ExpressionAttributeValues: condition.values,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Deletes the schema `read` and its id pointer in one transaction.
 * @returns false when it is gone already (nothing is written).
 */
export function removeEventSchema(deps: Deps, read: CustomEventSchema): Promise<boolean> {
  return retryOnConflict(`Too many concurrent writes of custom event schema ${read.name}`, async () => {
    const outcome = await transact(deps, [
      {
        Delete: {
          TableName: deps.tableName,
          Key: customEventSchema.key(read.projectId, read.name),
          ConditionExpression: 'id = :id',
          ExpressionAttributeValues: { ':id': read.id },
        },
      },
      { Delete: { TableName: deps.tableName, Key: customEventSchemaId.key(read.projectId, read.id) } },
    ]);
    if (outcome.ok) return true;
    return 'failed' in outcome ? false : RETRY;
  });
}
