import { clientOrigin, appKey } from '../db/entities.js';
import { transact, type TransactItem } from '../db/transact.js';
import { ConflictRetryError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { AppKey } from './app-key.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const putOrigin = (deps: Deps, key: AppKey, origin: string): TransactItem => ({
  Put: { TableName: deps.tableName, Item: clientOrigin.toItem({ origin, appId: key.appId, projectId: key.projectId }) },
});
const deleteOrigin = (deps: Deps, appId: string, origin: string): TransactItem => ({
  Delete: { TableName: deps.tableName, Key: clientOrigin.key(origin, appId) },
});

/** The writes that insert a client-side key: the key and one origin item per trusted origin. */
export const clientKeyItems = (deps: Deps, key: AppKey): TransactItem[] => [
  appKey.putIfAbsent(deps, key),
  ...(key.trustedOrigins ?? []).map((o) => putOrigin(deps, key, o)),
];

/** Inserts a client-side key with one origin item per trusted origin, in one transaction. */
export async function insertClientKey(deps: Deps, key: AppKey): Promise<void> {
  const outcome = await transact(deps, clientKeyItems(deps, key));
  if (!outcome.ok) throw new ConflictRetryError(`Application key ${key.appId} could not be created`);
}

/**
 * Replaces a client key's trusted origins and its no-Origin switch: the key (conditioned on being
 * the version read, so two operators' changes cannot leave origin items the key does not list)
 * and the origin items that come and go, in one transaction.
 * @throws NotFoundError when the key does not exist or is not a client key; ConflictRetryError when it changed meanwhile.
 */
export async function replaceClientOrigins(deps: Deps, current: AppKey, origins: string[], originless: boolean, updatedAt: string): Promise<AppKey> {
  if (current.side !== 'client') throw new NotFoundError('app_key', current.appId, `${current.appId} is not a client-side key`);
  const before = current.trustedOrigins ?? [];
  const next: AppKey = { ...current, trustedOrigins: origins, originless, updatedAt };
  const items: TransactItem[] = [
    {
      Put: {
        TableName: deps.tableName,
        Item: appKey.toItem(next),
        ConditionExpression: 'updatedAt = :seen',
        ExpressionAttributeValues: { ':seen': current.updatedAt },
      },
    },
    ...before.filter((o) => !origins.includes(o)).map((o) => deleteOrigin(deps, current.appId, o)),
    ...origins.filter((o) => !before.includes(o)).map((o) => putOrigin(deps, next, o)),
  ];
  const outcome = await transact(deps, items);
  if (!outcome.ok) throw new ConflictRetryError(`Application key ${current.appId} changed meanwhile; try again`);
  return next;
}

/** Deletes a client key and its origin items together. */
export async function deleteClientKey(deps: Deps, key: AppKey): Promise<void> {
  const outcome = await transact(deps, [
    { Delete: { TableName: deps.tableName, Key: appKey.key(key.appId), ConditionExpression: 'attribute_exists(PK)' } },
    ...(key.trustedOrigins ?? []).map((o) => deleteOrigin(deps, key.appId, o)),
  ]);
  if (!outcome.ok) throw new NotFoundError('app_key', key.appId);
}
