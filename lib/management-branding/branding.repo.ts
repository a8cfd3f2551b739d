import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { branding } from '../db/entities.js';
import type { Runtime } from '../runtime.js';
import type { Branding } from './branding.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const conditionFailed = (error: unknown): boolean => error instanceof ConditionalCheckFailedException;

/**
 * Writes the project's brand configuration where it has none.
 * @returns false when the project has one already (nothing is written).
 */
export async function insertBranding(deps: Deps, value: Branding): Promise<boolean> {
  try {
    await deps.ddb.send(new PutCommand(branding.putIfAbsent(deps, value).Put));
    return true;
  } catch (error) {
    if (conditionFailed(error)) return false;
    throw error;
  }
}

/** The project's brand configuration (strongly consistent); null if none. */
export function getBranding(deps: Deps, projectId: string): Promise<Branding | null> {
  return branding.get(deps, branding.key(projectId));
}

/**
 * Writes `next` over the configuration `read`, if it is still as read (same id, same `updatedAt`).
 * @returns false when it changed or went since it was read (nothing is written).
 */
export async function replaceBranding(deps: Deps, read: Branding, next: Branding): Promise<boolean> {
  const unchanged =
    read.updatedAt === null
      ? { ConditionExpression: 'id = :id AND attribute_type(updatedAt, :null)', ExpressionAttributeValues: { ':id': read.id, ':null': 'NULL' } }
      : { ConditionExpression: 'id = :id AND updatedAt = :u', ExpressionAttributeValues: { ':id': read.id, ':u': read.updatedAt } };
  try {
    await deps.ddb.send(new PutCommand({ TableName: deps.tableName, Item: branding.toItem(next), ...unchanged }));
    return true;
  } catch (error) {
    if (conditionFailed(error)) return false;
    throw error;
  }
}

/**
 * Deletes the project's configuration if its id is `brandingId`.
 * @returns false when the project has none of that id (nothing is deleted).
 */
export async function removeBranding(deps: Deps, projectId: string, brandingId: string): Promise<boolean> {
  try {
    await deps.ddb.send(
      new DeleteCommand({
        TableName: deps.tableName,
        Key: branding.key(projectId),
        ConditionExpression: 'id = :id',
        ExpressionAttributeValues: { ':id': brandingId },
      }),
    );
    return true;
  } catch (error) {
    if (conditionFailed(error)) return false;
    throw error;
  }
}
