import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { rateLimitWindow } from '../db/entities.js';
import type { Runtime } from '../runtime.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * Adds one to a project's counter of the window starting at `windowStart` (Unix seconds); the
 * item expires by TTL at `expiresAt`. The ADD is blind on purpose (see rate-limit.service.ts).
 * @returns the window's count after this request.
 */
export async function countInWindow(deps: Deps, projectId: string, windowStart: number, expiresAt: number): Promise<number> {
  const res = await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.tableName,
      Key: rateLimitWindow.key(projectId, windowStart),
      UpdateExpression: 'SET entity = :entity, v = :v, #ttl = :ttl ADD requests :one',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':entity': rateLimitWindow.name, ':v': rateLimitWindow.version, ':ttl': expiresAt, ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(res.Attributes?.requests ?? 1);
}
