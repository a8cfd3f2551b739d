import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../db/keys.js';
import { queryAll } from '../db/query.js';
import { tableDesign } from '../db/table.js';
import { NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { AppKey } from './app-key.js';
import type { Scope } from '../auth/scopes.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const ENTITY = 'app_key';
const SCHEMA_VERSION = 1;

interface AppKeyItem extends AppKey {
  PK: string;
  SK: string;
  GSI1PK: string;
  GSI1SK: string;
  entity: typeof ENTITY;
  v: number;
}

const toDomain = (item: Record<string, unknown>): AppKey => {
  const i = item as unknown as AppKeyItem;
  return {
    appId: i.appId,
    projectId: i.projectId,
    name: i.name,
    tokenHash: i.tokenHash,
    status: i.status,
    permissions: i.permissions ?? null,
    ipAllowList: i.ipAllowList ?? null,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
};

export async function getAppKey(deps: Deps, appId: string, consistent = false): Promise<AppKey | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.appKey(appId), ConsistentRead: consistent }),
  );
  return res.Item ? toDomain(res.Item) : null;
}

/** Inserts a new key; app ids are random UUIDs, so the condition only guards against a bug. */
export async function insertAppKey(deps: Deps, key: AppKey): Promise<void> {
  const item: AppKeyItem = {
    ...keys.appKey(key.appId),
    ...keys.appKeyByProject(key.projectId, key.createdAt, key.appId),
    entity: ENTITY,
    v: SCHEMA_VERSION,
    ...key,
  };
  await deps.ddb.send(
    new PutCommand({ TableName: deps.tableName, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }),
  );
}

export async function listAppKeys(deps: Deps, projectId: string): Promise<AppKey[]> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.tableName,
    IndexName: tableDesign.indexes.gsi1.name,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.appKeysOfProjectPartition(projectId) },
  });
  return items.map(toDomain);
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
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':u': updatedAt };
  const sets = ['updatedAt = :u'];
  for (const [field, value] of Object.entries({ ...patch })) {
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  try {
    const res = await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: keys.appKey(appId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toDomain(res.Attributes ?? {});
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError('app_key', appId);
    throw error;
  }
}

/** @throws NotFoundError when the key does not exist. */
export async function deleteAppKey(deps: Deps, appId: string): Promise<void> {
  try {
    await deps.ddb.send(
      new DeleteCommand({ TableName: deps.tableName, Key: keys.appKey(appId), ConditionExpression: 'attribute_exists(PK)' }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new NotFoundError('app_key', appId);
    throw error;
  }
}
