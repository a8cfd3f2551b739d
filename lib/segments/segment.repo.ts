import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { customer as customerEntity, segment as segmentEntity } from '../db/entities.js';
import { transact } from '../db/transact.js';
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
 * is gone). Raises the customer's revision, so a customer write that read it before fails its
 * condition, re-reads and keeps the membership.
 */
export async function addMember(deps: Deps, projectId: string, customerId: string, segmentId: string): Promise<void> {
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.tableName,
        Key: customerEntity.key(projectId, customerId),
        UpdateExpression: 'SET segmentIds = list_append(if_not_exists(segmentIds, :none), :s) ADD revision :one',
        ConditionExpression: 'attribute_exists(PK) AND NOT contains(segmentIds, :id)',
        ExpressionAttributeValues: { ':none': [], ':s': [segmentId], ':id': segmentId, ':one': 1 },
      }),
    );
  } catch (e) {
    if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e;
  }
}
