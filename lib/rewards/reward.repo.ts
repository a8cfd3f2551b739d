import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import * as entities from '../db/entities.js';
import { mustExist, RETRY, retryOnConflict, transact } from '../db/transact.js';
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
 * the pair is free and the reward and campaign still exist. Of concurrent writers of one pair
 * exactly one succeeds; the others learn the winner's id.
 */
export function insertRewardAssignment(deps: Deps, a: RewardAssignment): Promise<InsertAssignmentOutcome> {
  const p = a.projectId;
  const items = [
    entities.rewardAssignmentPair.putIfAbsent(deps, a),
    entities.rewardAssignment.putIfAbsent(deps, a),
    mustExist(deps, entities.reward.key(p, a.rewardId)),
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
    // The winner may be gone again by now (assignments cannot be deleted yet): then try once more.
    return existing ? { ok: false, reason: 'duplicate', existingId: existing.id } : RETRY;
  });
}

/** The assignment of a reward to a campaign, if any (strongly consistent). */
export function getRewardAssignmentOfPair(deps: Deps, projectId: string, rewardId: string, campaignId: string): Promise<RewardAssignment | null> {
  return entities.rewardAssignmentPair.get(deps, entities.rewardAssignmentPair.key(projectId, rewardId, campaignId));
}
