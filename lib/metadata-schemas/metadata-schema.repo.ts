import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { metadataSchemaId, metadataSchemaItem } from '../db/entities.js';
import { transact, putUnique } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { MetadataSchema } from './metadata-schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Writes a schema under its related object, with a pointer from its id, in one transaction.
 * @returns false when the project already has a schema of that related object (nothing is written).
 */
export function insertMetadataSchema(deps: Deps, schema: MetadataSchema): Promise<boolean> {
  const idRef = metadataSchemaId.toItem({ relatedObject: schema.relatedObject }, schema.projectId, schema.id);
  return putUnique(deps, metadataSchemaItem.toItem(schema), [idRef], {
    busy: `Too many concurrent writes of metadata schema ${schema.relatedObject}`,
    taken: `Metadata schema id ${schema.id} is already taken`,
  });
}

/** The schema of a related object, as last written; null if none. */
export function getMetadataSchemaOf(deps: Deps, projectId: string, relatedObject: string): Promise<MetadataSchema | null> {
  return metadataSchemaItem.get(deps, metadataSchemaItem.key(projectId, relatedObject), { consistent: true });
}

/** The related object a schema id points at; null if none. */
export async function getRelatedObjectById(deps: Deps, projectId: string, schemaId: string): Promise<string | null> {
  return (await metadataSchemaId.get(deps, metadataSchemaId.key(projectId, schemaId), { consistent: true }))?.relatedObject ?? null;
}

/** Every schema of a project, oldest first: a Query on GSI1 (eventually consistent). */
export function listMetadataSchemas(deps: Deps, projectId: string): Promise<MetadataSchema[]> {
  return metadataSchemaItem.query(deps, { index: [projectId] });
}

/**
 * Replaces a schema with `next`, only if it is still at `previous.revision` and keeps its id.
 * @returns false when it changed or went meanwhile.
 */
export async function replaceMetadataSchema(deps: Deps, previous: MetadataSchema, next: MetadataSchema): Promise<boolean> {
  try {
    await deps.ddb.send(
      new PutCommand({
        TableName: deps.tableName,
        Item: metadataSchemaItem.toItem(next),
        ConditionExpression: '#id = :id AND #revision = :revision',
        ExpressionAttributeNames: { '#id': 'id', '#revision': 'revision' },
        ExpressionAttributeValues: { ':id': previous.id, ':revision': previous.revision },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Deletes a schema and its id pointer together, only if the schema still has that id.
 * @returns 'gone' when it was deleted meanwhile; 'conflict' on a lost race (try again).
 */
export async function deleteMetadataSchemaItems(deps: Deps, schema: MetadataSchema): Promise<'ok' | 'gone' | 'conflict'> {
  const outcome = await transact(deps, [
    {
      Delete: {
        TableName: deps.tableName,
        Key: metadataSchemaItem.key(schema.projectId, schema.relatedObject),
        ConditionExpression: '#id = :id',
        ExpressionAttributeNames: { '#id': 'id' },
        ExpressionAttributeValues: { ':id': schema.id },
      },
    },
    { Delete: { TableName: deps.tableName, Key: metadataSchemaId.key(schema.projectId, schema.id) } },
  ]);
  if (outcome.ok) return 'ok';
  return 'failed' in outcome ? 'gone' : 'conflict';
}
