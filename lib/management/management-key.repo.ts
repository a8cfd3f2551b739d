import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { managementKey } from '../db/entities.js';
import { NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { ManagementKey } from './management-key.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

export function getManagementKey(deps: Deps, managementId: string): Promise<ManagementKey | null> {
  return managementKey.get(deps, managementKey.key(managementId), { consistent: true });
}

/** Inserts a new key; ids are random, so the condition only guards against a bug or a fixed dev id in use. */
export async function insertManagementKey(deps: Deps, key: ManagementKey): Promise<void> {
  await deps.ddb.send(new PutCommand(managementKey.putIfAbsent(deps, key).Put));
}

/** Every management key, oldest first (one small partition of GSI1). */
export function listManagementKeys(deps: Deps): Promise<ManagementKey[]> {
  return managementKey.query(deps, { index: [] });
}

/**
 * Sets fields of an existing key (never creates one).
 * @throws NotFoundError when the key does not exist.
 */
export async function updateManagementKey(
  deps: Deps,
  managementId: string,
  patch: Partial<Pick<ManagementKey, 'status' | 'tokenHash' | 'ipAllowList'>>,
  updatedAt: string,
): Promise<ManagementKey> {
  const updated = await managementKey.update(deps, managementKey.key(managementId), { updatedAt, ...patch });
  if (!updated) throw new NotFoundError('management_key', managementId);
  return updated;
}

/** @throws NotFoundError when the key does not exist. */
export async function deleteManagementKey(deps: Deps, managementId: string): Promise<void> {
  try {
    await deps.ddb.send(new DeleteCommand({ TableName: deps.tableName, Key: managementKey.key(managementId), ConditionExpression: 'attribute_exists(PK)' }));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError('management_key', managementId);
    throw error;
  }
}
