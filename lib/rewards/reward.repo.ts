import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { keys } from '../db/keys.js';
import { backoff, MAX_CONFLICT_ATTEMPTS, transact } from '../db/transact.js';
import { ConflictRetryError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { Reward, RewardAssignment } from './reward.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const SCHEMA_VERSION = 1;

const strip = (item: Record<string, unknown>): Record<string, unknown> => {
  const { PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g2, entity: _e, v: _v, ...rest } = item;
  return rest;
};

/** Writes a new reward. @throws Error if the id is taken (ids are random: a bug, not a client error). */
export async function insertReward(deps: Deps, reward: Reward): Promise<void> {
  try {
    await deps.ddb.send(
      new PutCommand({
        TableName: deps.tableName,
        Item: { ...keys.reward(reward.projectId, reward.id), entity: 'reward', v: SCHEMA_VERSION, ...reward },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new Error(`Reward id ${reward.id} is already taken`);
    throw error;
  }
}

/** A reward by id (strongly consistent: visible the moment it was created); null if none. */
export async function getReward(deps: Deps, projectId: string, rewardId: string): Promise<Reward | null> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.tableName, Key: keys.reward(projectId, rewardId), ConsistentRead: true }));
  return res.Item ? (strip(res.Item) as unknown as Reward) : null;
}

export type InsertAssignmentOutcome =
  | { ok: true }
  | { ok: false; reason: 'duplicate'; existingId: string }
  | { ok: false; reason: 'reward_gone' | 'campaign_gone' };

/**
 * Writes an assignment and its (reward, campaign) pair item in one transaction, on condition that
 * the pair is free and the reward and campaign still exist. Of concurrent writers of one pair
 * exactly one succeeds; the others learn the winner's id.
 */
export async function insertRewardAssignment(deps: Deps, a: RewardAssignment): Promise<InsertAssignmentOutcome> {
  const p = a.projectId;
  const item = { entity: 'reward_assignment', v: SCHEMA_VERSION, ...a };
  for (let attempt = 0; attempt < MAX_CONFLICT_ATTEMPTS; attempt += 1) {
    const outcome = await transact(deps, [
      {
        Put: {
          TableName: deps.tableName,
          Item: { ...keys.rewardAssignmentPair(p, a.rewardId, a.campaignId), ...keys.rewardAssignmentByCampaign(p, a.campaignId, a.createdAt, a.id), ...item, entity: 'reward_assignment_pair' },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Put: {
          TableName: deps.tableName,
          Item: { ...keys.rewardAssignment(p, a.id), ...keys.rewardAssignmentByReward(p, a.rewardId, a.createdAt, a.id), ...item },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      { ConditionCheck: { TableName: deps.tableName, Key: keys.reward(p, a.rewardId), ConditionExpression: 'attribute_exists(PK)' } },
      { ConditionCheck: { TableName: deps.tableName, Key: keys.campaign(p, a.campaignId), ConditionExpression: 'attribute_exists(PK)' } },
    ]);
    if (outcome.ok) return { ok: true };
    if ('failed' in outcome) {
      if (outcome.failed.includes(2)) return { ok: false, reason: 'reward_gone' };
      if (outcome.failed.includes(3)) return { ok: false, reason: 'campaign_gone' };
      if (outcome.failed.includes(0)) {
        const existing = await getRewardAssignmentOfPair(deps, p, a.rewardId, a.campaignId);
        // The winner may be gone again by now (assignments cannot be deleted yet): then try once more.
        if (existing) return { ok: false, reason: 'duplicate', existingId: existing.id };
      } else throw new Error(`Reward assignment id ${a.id} is already taken`);
    }
    await backoff(attempt);
  }
  throw new ConflictRetryError(`Too many concurrent assignments of reward ${a.rewardId}`);
}

/** The assignment of a reward to a campaign, if any (strongly consistent). */
export async function getRewardAssignmentOfPair(deps: Deps, projectId: string, rewardId: string, campaignId: string): Promise<RewardAssignment | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.tableName, Key: keys.rewardAssignmentPair(projectId, rewardId, campaignId), ConsistentRead: true }),
  );
  return res.Item ? (strip(res.Item) as unknown as RewardAssignment) : null;
}
