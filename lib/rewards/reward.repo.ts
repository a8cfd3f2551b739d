import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import * as entities from '../db/entities.js';
import type { ItemKey } from '../db/entity.js';
import { mustExist, RETRY, retryOnConflict, transact, type TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Reward, RewardAssignment } from './reward.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** Writes a new reward. @throws Error if the id is taken (ids are random: a bug, not a client error). */
export async function insertReward(deps: Deps, reward: Reward): Promise<void> {
  try {
    await deps.ddb.send(new PutCommand(entities.reward.putIfAbsent(deps, reward).Put));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new Error(`Reward id ${reward.id} is already taken`);
    throw error;
  }
}

/** A reward by id (strongly consistent: visible the moment it was created); null if none. */
export function getReward(deps: Deps, projectId: string, rewardId: string): Promise<Reward | null> {
  return entities.reward.get(deps, entities.reward.key(projectId, rewardId));
}

export type InsertAssignmentOutcome =
  | { ok: true }
  | { ok: false; reason: 'duplicate'; existingId: string }
  | { ok: false; reason: 'reward_gone' | 'campaign_gone' };

/**
 * Writes an assignment and its (reward, campaign) pair item in one transaction, on condition that
 * the pair is free and the reward and campaign still exist; the reward counts it (`assignmentCount`). Of concurrent writers of one pair
 * exactly one succeeds; the others learn the winner's id.
 */
export function insertRewardAssignment(deps: Deps, a: RewardAssignment): Promise<InsertAssignmentOutcome> {
  const p = a.projectId;
  const items = [
    entities.rewardAssignmentPair.putIfAbsent(deps, a),
    entities.rewardAssignment.putIfAbsent(deps, a),
    countOnReward(deps, p, a.rewardId, 1),
    mustExist(deps, entities.campaign.key(p, a.campaignId)),
  ];
  return retryOnConflict(`Too many concurrent assignments of reward ${a.rewardId}`, async () => {
    const outcome = await transact(deps, items);
    if (outcome.ok) return { ok: true };
    if (!('failed' in outcome)) return RETRY;
    if (outcome.failed.includes(2)) return { ok: false, reason: 'reward_gone' };
    if (outcome.failed.includes(3)) return { ok: false, reason: 'campaign_gone' };
    if (!outcome.failed.includes(0)) throw new Error(`Reward assignment id ${a.id} is already taken`);
    const existing = await getRewardAssignmentOfPair(deps, p, a.rewardId, a.campaignId);
    // The winner may be gone again by now (deleted): then try once more.
    return existing ? { ok: false, reason: 'duplicate', existingId: existing.id } : RETRY;
  });
}

/** The assignment of a reward to a campaign, if any (strongly consistent). */
export function getRewardAssignmentOfPair(deps: Deps, projectId: string, rewardId: string, campaignId: string): Promise<RewardAssignment | null> {
  return entities.rewardAssignmentPair.get(deps, entities.rewardAssignmentPair.key(projectId, rewardId, campaignId));
}

/** A reward assignment by id (strongly consistent); null if none (a deleted one is gone). */
export function getRewardAssignmentById(deps: Deps, projectId: string, assignmentId: string): Promise<RewardAssignment | null> {
  return entities.rewardAssignment.get(deps, entities.rewardAssignment.key(projectId, assignmentId));
}

/** One page of items of a listing Query: reads at most `page × limit` items (page ≤ 100, limit ≤ 100). */
async function pageOf<T>(pages: AsyncGenerator<T[]>, page: number, limit: number): Promise<T[]> {
  const wanted = page * limit;
  const read: T[] = [];
  for await (const items of pages) {
    read.push(...items);
    if (read.length >= wanted) break;
  }
  return read.slice((page - 1) * limit, wanted);
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** A project's rewards, oldest first (GSI1), one page, and how many there are. */
export async function listRewardsPage(deps: Deps, projectId: string, page: number, limit: number): Promise<Page<Reward>> {
  const where = { index: [projectId] as [string] };
  const [items, total] = await Promise.all([
    pageOf(entities.reward.queryPages(deps, where, { pageSize: Math.min(page * limit, 1000) }), page, limit),
    entities.reward.count(deps, where),
  ]);
  return { items, total };
}

/** A reward's assignments, oldest first (GSI1), one page, and how many there are. */
export async function listAssignmentsOfReward(deps: Deps, projectId: string, rewardId: string, page: number, limit: number): Promise<Page<RewardAssignment>> {
  const where = { index: [projectId, rewardId] as [string, string] };
  const [items, total] = await Promise.all([
    pageOf(entities.rewardAssignment.queryPages(deps, where, { pageSize: Math.min(page * limit, 1000) }), page, limit),
    entities.rewardAssignment.count(deps, where),
  ]);
  return { items, total };
}

/** A loyalty campaign's reward assignments, oldest first (the pairs' GSI1), one page, and how many there are. */
export async function listAssignmentsOfCampaign(
  deps: Deps,
  projectId: string,
  campaignId: string,
  page: number,
  limit: number,
): Promise<Page<RewardAssignment>> {
  const where = { index: [projectId, campaignId] as [string, string] };
  const [items, total] = await Promise.all([
    pageOf(entities.rewardAssignmentPair.queryPages(deps, where, { pageSize: Math.min(page * limit, 1000) }), page, limit),
    entities.rewardAssignmentPair.count(deps, where),
  ]);
  return { items, total };
}

/** Ids of up to `max` assignments of a reward (GSI1), for the refusal to delete a reward in use. */
export async function someAssignmentIdsOfReward(deps: Deps, projectId: string, rewardId: string, max = 10): Promise<string[]> {
  const items = await entities.rewardAssignment.queryPage(deps, { index: [projectId, rewardId] }, { pageSize: max });
  return items.map((a) => a.id);
}

/** Sets fields of a stored reward (never re-creates a deleted one). @returns the reward as written, null when it is gone. */
export function updateRewardFields(deps: Deps, projectId: string, rewardId: string, fields: Partial<Reward>): Promise<Reward | null> {
  return entities.reward.update(deps, entities.reward.key(projectId, rewardId), fields);
}

/**
 * Deletes a reward on condition that no assignment counts against it (`assignmentCount`, kept by
 * the assignment writes in their transactions), so a reward and a new assignment of it cannot
 * both win. @returns 'deleted', 'gone' (no such reward) or 'in_use'.
 */
export async function deleteRewardIfUnused(deps: Deps, projectId: string, rewardId: string): Promise<'deleted' | 'gone' | 'in_use'> {
  try {
    await deps.ddb.send(
      new DeleteCommand({
        TableName: deps.tableName,
        Key: entities.reward.key(projectId, rewardId),
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(assignmentCount) OR assignmentCount <= :zero)',
        ExpressionAttributeValues: { ':zero': 0 },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'deleted';
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return error.Item ? 'in_use' : 'gone';
    throw error;
  }
}

/** The assignment's count on its reward: +1 or -1, only while the reward exists. */
const countOnReward = (deps: Deps, projectId: string, rewardId: string, by: 1 | -1): TransactItem => ({
  Update: {
    TableName: deps.tableName,
    Key: entities.reward.key(projectId, rewardId),
    UpdateExpression: 'ADD assignmentCount :by',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':by': by },
  },
});

/**
 * Sets an assignment's price on its item and its pair's copy in one transaction, on condition both
 * still exist. @returns the assignment as written, null when it is gone.
 */
export function updateRewardAssignmentPoints(deps: Deps, a: RewardAssignment, points: number, updatedAt: string): Promise<RewardAssignment | null> {
  const set = (Key: ItemKey, extra: string): TransactItem => ({
    Update: {
      TableName: deps.tableName,
      Key,
      UpdateExpression: 'SET points = :points, updatedAt = :at',
      ConditionExpression: `attribute_exists(PK)${extra}`,
      ExpressionAttributeValues: { ':points': points, ':at': updatedAt, ...(extra ? { ':id': a.id } : {}) },
    },
  });
  const items = [
    set(entities.rewardAssignment.key(a.projectId, a.id), ''),
    set(entities.rewardAssignmentPair.key(a.projectId, a.rewardId, a.campaignId), ' AND id = :id'),
  ];
  return retryOnConflict(`Too many concurrent writes to reward assignment ${a.id}`, async () => {
    const outcome = await transact(deps, items);
    if (outcome.ok) return { ...a, points, updatedAt };
    return 'failed' in outcome ? null : RETRY;
  });
}

/**
 * Deletes an assignment and its pair in one transaction, and takes it off its reward's count
 * (when the reward still exists). Once it commits, the assignment is found neither by id nor by
 * (reward, campaign), so it cannot be redeemed. @returns false when it was already gone.
 */
export function deleteRewardAssignmentItems(deps: Deps, a: RewardAssignment): Promise<boolean> {
  const base: TransactItem[] = [
    { Delete: { TableName: deps.tableName, Key: entities.rewardAssignment.key(a.projectId, a.id), ConditionExpression: 'attribute_exists(PK)' } },
    {
      Delete: {
        TableName: deps.tableName,
        Key: entities.rewardAssignmentPair.key(a.projectId, a.rewardId, a.campaignId),
        ConditionExpression: 'id = :id',
        ExpressionAttributeValues: { ':id': a.id },
      },
    },
  ];
  let withCount = true;
  return retryOnConflict(`Too many concurrent writes to reward assignment ${a.id}`, async () => {
    const outcome = await transact(deps, withCount ? [...base, countOnReward(deps, a.projectId, a.rewardId, -1)] : base);
    if (outcome.ok) return true;
    if (!('failed' in outcome)) return RETRY;
    if (outcome.failed.includes(0) || outcome.failed.includes(1)) return false;
    // The reward is gone (it cannot be deleted while assigned; only items older than the count): nothing to count down.
    withCount = false;
    return RETRY;
  });
}
