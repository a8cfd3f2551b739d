import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { appKey } from '../db/entities.js';
import { NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { AppKey } from './app-key.js';
import type { Scope } from '../auth/scopes.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

export function getAppKey(deps: Deps, appId: string, consistent = false): Promise<AppKey | null> {
  return appKey.get(deps, appKey.key(appId), { consistent });
}

/** Inserts a new key; app ids are random UUIDs, so the condition only guards against a bug. */
export async function insertAppKey(deps: Deps, key: AppKey): Promise<void> {
  await deps.ddb.send(new PutCommand(appKey.putIfAbsent(deps, key).Put));
}

export function listAppKeys(deps: Deps, projectId: string): Promise<AppKey[]> {
  return appKey.query(deps, { index: [projectId] });
}

export type AppKeyPatch = Partial<Pick<AppKey, 'status' | 'tokenHash' | 'name'>> & {
  permissions?: Scope[] | null;
  ipAllowList?: string[] | null;
};

/**
 * Applies a patch to an existing key.
 * @throws NotFoundError when the key does not exist (never creates one).
 */
export async function updateAppKey(deps: Deps, appId: string, patch: AppKeyPatch, updatedAt: string): Promise<AppKey> {
  const updated = await appKey.update(deps, appKey.key(appId), { updatedAt, ...patch });
  if (!updated) throw new NotFoundError('app_key', appId);
  return updated;
}

/** @throws NotFoundError when the key does not exist. */
export async function deleteAppKey(deps: Deps, appId: string): Promise<void> {
  try {
    await deps.ddb.send(new DeleteCommand({ TableName: deps.tableName, Key: appKey.key(appId), ConditionExpression: 'attribute_exists(PK)' }));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError('app_key', appId);
    throw error;
  }
}
