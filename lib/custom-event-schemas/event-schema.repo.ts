import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import { queryAll } from '../db/query.js';
import { tableDesign } from '../db/table.js';
import { backoff, MAX_CONFLICT_ATTEMPTS, transact } from '../db/transact.js';
import { ConflictRetryError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { CustomEventSchema } from './event-schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const SCHEMA_VERSION = 1;

const toDomain = (item: Record<string, unknown>): CustomEventSchema => {
  const { PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g2, entity: _e, v: _v, ...rest } = item;
  return rest as unknown as CustomEventSchema;
};

/**
 * Writes a schema under its event name, with a pointer from its id, in one transaction.
 * @returns false when the project already has a schema of that name (nothing is written).
 */
export async function insertEventSchema(deps: Deps, schema: CustomEventSchema): Promise<boolean> {
  const p = schema.projectId;
  for (let attempt = 0; attempt < MAX_CONFLICT_ATTEMPTS; attempt += 1) {
    const outcome = await transact(deps, [
      {
        Put: {
          TableName: deps.tableName,
          Item: {
            ...keys.customEventSchema(p, schema.name),
            ...keys.customEventSchemaListEntry(p, schema.createdAt, schema.id),
            entity: 'custom_event_schema',
            v: SCHEMA_VERSION,
            ...schema,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: deps.tableName,
          Item: { ...keys.customEventSchemaId(p, schema.id), entity: 'custom_event_schema_id', v: SCHEMA_VERSION, name: schema.name },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
    if (outcome.ok) return true;
    if ('failed' in outcome) {
      if (outcome.failed.includes(0)) return false;
      throw new Error(`Custom event schema id ${schema.id} is already taken`);
    }
    await backoff(attempt);
  }
  throw new ConflictRetryError(`Too many concurrent writes of custom event schema ${schema.name}`);
}

/** The schema of an event name (strongly consistent: usable the moment it was created); null if none. */
export async function getEventSchemaByName(deps: Deps, projectId: string, name: string): Promise<CustomEventSchema | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.customEventSchema(projectId, name), ConsistentRead: true }),
  );
  return res.Item ? toDomain(res.Item) : null;
}

/** The event name a schema id points at; null if none. */
export async function getEventSchemaNameById(deps: Deps, projectId: string, schemaId: string): Promise<string | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.customEventSchemaId(projectId, schemaId), ConsistentRead: true }),
  );
  return res.Item ? (res.Item.name as string) : null;
}

/**
 * Every schema of a project, oldest first: a Query on GSI1 (index reads are eventually
 * consistent, so a schema made a moment ago may be missing for a moment).
 */
export async function listEventSchemas(deps: Deps, projectId: string): Promise<CustomEventSchema[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    IndexName: tableDesign.indexes.gsi1.name,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.customEventSchemasPartition(projectId) },
  });
  return items.map(toDomain);
}
