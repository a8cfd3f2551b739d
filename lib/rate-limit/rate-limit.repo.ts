import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { rateLimitWindow } from '../db/entities.js';
import type { ItemKey } from '../db/entity.js';
import type { Runtime } from '../runtime.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Adds one to a project's counter of the window starting at `windowStart` (Unix seconds); the
 * item expires by TTL at `expiresAt`. The ADD is blind on purpose (see rate-limit.service.ts).
 * @returns the window's count after this request.
 */
export function countInWindow(deps: Deps, projectId: string, windowStart: number, expiresAt: number): Promise<number> {
  return addOne(deps, rateLimitWindow.key(projectId, windowStart), rateLimitWindow, expiresAt);
}

/** Adds one to the counter item at `key` (of the `counter` entity), expiring at `expiresAt`. @returns the count after it. */
export async function addOne(deps: Deps, key: ItemKey, counter: { name: string; version: number }, expiresAt: number): Promise<number> {
  const res = await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.tableName,
      Key: key,
      UpdateExpression: 'SET entity = :entity, v = :v, #ttl = :ttl ADD requests :one',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':entity': counter.name, ':v': counter.version, ':ttl': expiresAt, ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(res.Attributes?.requests ?? 1);
}
