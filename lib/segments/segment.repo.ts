import type { CustomerActivityRecord } from '../activity/activity.js';
import type { Customer } from '../customers/customer.js';
import { customerActivity, customer as customerEntity, segment as segmentEntity } from '../db/entities.js';
import { RETRY, retryOnConflict, transact } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Segment } from './segment.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The segment by id (strongly consistent); null if none. */
export function getSegment(deps: Deps, projectId: string, segmentId: string): Promise<Segment | null> {
  return segmentEntity.get(deps, segmentEntity.key(projectId, segmentId));
}

/** The segments of these ids that exist, in the order given. */
export async function getSegments(deps: Deps, projectId: string, ids: readonly string[]): Promise<Segment[]> {
  if (ids.length === 0) return [];
  const found = await segmentEntity.getMany(
    deps,
    ids.map((id) => segmentEntity.key(projectId, id)),
    'segments',
  );
  const byId = new Map(found.map((s) => [s.id, s]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Writes a new segment (its id must be free). */
export async function insertSegment(deps: Deps, projectId: string, s: Segment): Promise<void> {
  const outcome = await transact(deps, [segmentEntity.putIfAbsent(deps, s, projectId)]);
  if (!outcome.ok) throw new Error(`Segment ${s.id} could not be written`);
}

/** Removes the segment; false when it was not there. */
export async function deleteSegment(deps: Deps, projectId: string, segmentId: string): Promise<boolean> {
  const outcome = await transact(deps, [
    { Delete: { TableName: deps.tableName, Key: segmentEntity.key(projectId, segmentId), ConditionExpression: 'attribute_exists(PK)' } },
  ]);
  if (outcome.ok) return true;
  if ('failed' in outcome) return false;
  throw new Error(`Segment ${segmentId} could not be deleted: too many concurrent writes`);
}

/**
 * Adds the segment to an existing customer's memberships (no-op when it is there or the customer
 * is gone), and records it in the customer's activity (`recordId`, `at`: `customer.segment.entered`)
 * in the same transaction. Raises the customer's revision, so a customer write that read it before
 * fails its condition, re-reads and keeps the membership.
 */
export async function addMember(deps: Deps, projectId: string, customer: Customer, segmentId: string, recordId: string, at: string): Promise<void> {
  const record: CustomerActivityRecord = {
    id: recordId,
    projectId,
    customerId: customer.id,
    createdAt: at,
    customer: { ...customer, segmentIds: [...(customer.segmentIds ?? []), segmentId] },
    was: customer.segmentIds ?? [],
    joined: segmentId,
  };
  const update = {
    Update: {
      TableName: deps.tableName,
      Key: customerEntity.key(projectId, customer.id),
      UpdateExpression: 'SET segmentIds = list_append(if_not_exists(segmentIds, :none), :s) ADD revision :one',
      ConditionExpression: 'attribute_exists(PK) AND NOT contains(segmentIds, :id)',
      ExpressionAttributeValues: { ':none': [], ':s': [segmentId], ':id': segmentId, ':one': 1 },
    },
  };
  await retryOnConflict(`Too many concurrent writes of customer ${customer.id}`, async () => {
    const outcome = await transact(deps, [update, { Put: { TableName: deps.tableName, Item: customerActivity.toItem(record) } }]);
    // A failed condition: already a member, or gone. Nothing to record.
    return outcome.ok || 'failed' in outcome ? true : RETRY;
  });
}
