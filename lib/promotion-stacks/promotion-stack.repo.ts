import { promotionStack, promotionStackCounter } from '../db/entities.js';
import { transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import { MAX_PROMOTION_STACKS_PER_PROJECT, type PromotionStack } from './promotion-stack.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The stack by id, read consistently; null if none. */
export function getStack(deps: Deps, projectId: string, stackId: string): Promise<PromotionStack | null> {
  return promotionStack.get(deps, promotionStack.key(projectId, stackId), { consistent: true });
}

/** Every stack of the project (at most MAX_PROMOTION_STACKS_PER_PROJECT), one consistent Query of its stacks partition. */
export function allStacks(deps: Deps, projectId: string): Promise<PromotionStack[]> {
  return promotionStack.query(deps, { key: [projectId] }, { consistent: true });
}

/** Adds `n` to the project's stack count; a rise holds only below the cap. */
function countItem(deps: Pick<Runtime, 'tableName'>, projectId: string, n: number): TransactItem {
  const capped = n > 0;
  return {
    Update: {
      TableName: deps.tableName,
      Key: promotionStackCounter.key(projectId),
      UpdateExpression: 'SET entity = :entity, v = :v ADD #count :n',
      ...(capped ? { ConditionExpression: 'attribute_not_exists(#count) OR #count < :cap' } : {}),
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: {
        ':entity': promotionStackCounter.name,
        ':v': promotionStackCounter.version,
        ':n': n,
        ...(capped ? { ':cap': MAX_PROMOTION_STACKS_PER_PROJECT } : {}),
      },
    },
  };
}

/** Writes a new stack and counts it, in one transaction; 'full' at MAX_PROMOTION_STACKS_PER_PROJECT. */
export async function insertStack(deps: Deps, projectId: string, s: PromotionStack): Promise<'ok' | 'full' | 'conflict'> {
  const outcome = await transact(deps, [countItem(deps, projectId, 1), promotionStack.putIfAbsent(deps, s, projectId)]);
  if (outcome.ok) return 'ok';
  if ('failed' in outcome && outcome.failed.includes(0)) return 'full';
  if ('failed' in outcome) throw new Error(`Promotion stack ${s.id} could not be written: its id is taken`);
  return 'conflict';
}

/** Replaces the stack while it is as read (`read.revision`); 'changed' when it moved or is gone. */
export async function replaceStack(deps: Deps, projectId: string, read: PromotionStack, next: PromotionStack): Promise<'ok' | 'changed' | 'conflict'> {
  const outcome = await transact(deps, [
    {
      Put: {
        TableName: deps.tableName,
        Item: promotionStack.toItem(next, projectId),
        ConditionExpression: 'attribute_exists(PK) AND revision = :revision',
        ExpressionAttributeValues: { ':revision': read.revision },
      },
    },
  ]);
  if (outcome.ok) return 'ok';
  return 'failed' in outcome ? 'changed' : 'conflict';
}

/** Deletes the stack and uncounts it; false when it was gone already. */
export async function removeStack(deps: Deps, projectId: string, stackId: string): Promise<boolean | 'conflict'> {
  const outcome = await transact(deps, [
    { Delete: { TableName: deps.tableName, Key: promotionStack.key(projectId, stackId), ConditionExpression: 'attribute_exists(PK)' } },
    countItem(deps, projectId, -1),
  ]);
  if (outcome.ok) return true;
  return 'failed' in outcome ? false : 'conflict';
}
