import { listEarningRulesOfCampaign } from '../earning-rules/earning-rule.repo.js';
import type { EarningRule } from '../earning-rules/earning-rule.js';
import { RETRY, retryOnConflict, transact } from '../db/transact.js';
import { InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Reward, RewardAssignment } from '../rewards/reward.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { cardAsOf, findLoyaltyCampaign, findProgramMember } from './loyalty.service.js';
import { campaignRewardAssignments, getRewards } from './reward-redemption.repo.js';
import { type LoyaltyTier, rangesOverlap, type TierMapping, tierRewardPrice, tierRuleLoyalty } from './tier.js';
import { heldTier } from './tier-period.js';
import { getTierSet, putTierSetItem } from './tier.repo.js';
import { type CreateTiersBody, type ListTiersQuery, MAX_TIERS_PER_PROGRAM, type TierPageQuery } from './tier.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/**
 * POST /v1/loyalties/{campaignId}/tiers: adds the tiers to the program's, in one conditional write
 * of the program's tier item (parallel creations serialize on its revision). Ranges: `from`
 * defaults to 0, `to` absent = no top; no two tiers of a program may share a point. Mapping keys
 * must name the program's earning rules, and its rewards or reward assignments.
 * @throws NotFoundError (campaign, earning_rule, reward), InvalidPayloadError (ranges, more than MAX_TIERS_PER_PROGRAM), ConflictRetryError.
 */
export async function createInBulkLoyaltyTiers(deps: Deps, projectId: string, campaignRef: string, body: CreateTiersBody): Promise<LoyaltyTier[]> {
  const campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  const now = deps.clock.now().toISOString();
  const created: LoyaltyTier[] = body.map((t) => ({
    id: deps.ids.id('ltr'),
    campaignId: campaign.id,
    name: t.name,
    points: { from: t.points.from ?? 0, to: t.points.to ?? null },
    earningRules: t.earning_rules ?? {},
    rewards: t.rewards ?? {},
    metadata: t.metadata ?? {},
    createdAt: now,
    updatedAt: null,
  }));
  created.forEach((t, i) => {
    if (t.points.to !== null && t.points.to < t.points.from)
      throw new InvalidPayloadError(`[${i}].points: to (${t.points.to}) is below from (${t.points.from})`);
  });
  await checkMappings(deps, projectId, campaign.id, created);
  return retryOnConflict(`Too many concurrent changes to the tiers of campaign ${campaign.id}`, async () => {
    const read = await getTierSet(deps, projectId, campaign.id);
    const all = [...read.tiers, ...created];
    if (all.length > MAX_TIERS_PER_PROGRAM) {
      throw new InvalidPayloadError(`A loyalty program holds at most ${MAX_TIERS_PER_PROGRAM} tiers; campaign ${campaign.id} has ${read.tiers.length}`);
    }
    checkRanges(all);
    const outcome = await transact(deps, [putTierSetItem(deps, read, all)]);
    return outcome.ok ? created : RETRY;
  });
}

/** No two tiers share a point: a balance belongs to one tier at most. */
function checkRanges(tiers: readonly LoyaltyTier[]): void {
  for (let i = 0; i < tiers.length; i += 1) {
    for (let j = i + 1; j < tiers.length; j += 1) {
      const a = tiers[i] as LoyaltyTier;
      const b = tiers[j] as LoyaltyTier;
      if (rangesOverlap(a.points, b.points)) {
        throw new InvalidPayloadError(
          `The points range of tier "${b.name}" (${b.points.from}–${b.points.to ?? '∞'}) overlaps that of tier "${a.name}" (${a.points.from}–${a.points.to ?? '∞'}); a balance must fall in one tier at most`,
        );
      }
    }
  }
}

/** Every mapping key names an earning rule of the program, or a reward (or reward assignment) of it. */
async function checkMappings(deps: Deps, projectId: string, campaignId: string, tiers: readonly LoyaltyTier[]): Promise<void> {
  const ruleKeys = new Set(tiers.flatMap((t) => Object.keys(t.earningRules)));
  const rewardKeys = new Set(tiers.flatMap((t) => Object.keys(t.rewards)));
  const [rules, assignments] = await Promise.all([
    ruleKeys.size > 0 ? listEarningRulesOfCampaign(deps, projectId, campaignId) : Promise.resolve([]),
    rewardKeys.size > 0 ? campaignRewardAssignments(deps, projectId, campaignId) : Promise.resolve([]),
  ]);
  const ruleIds = new Set(rules.map((r) => r.id));
  for (const id of ruleKeys) if (!ruleIds.has(id)) throw new NotFoundError('earning_rule', id, `Cannot find earning rule ${id} in campaign ${campaignId}`);
  const assigned = new Set(assignments.flatMap((a) => [a.id, a.rewardId]));
  for (const id of rewardKeys) if (!assigned.has(id)) throw new NotFoundError('reward', id, `Reward ${id} is not assigned to campaign ${campaignId}`);
}

export interface TierPage {
  tiers: LoyaltyTier[];
  total: number;
}

const orderKey = (t: LoyaltyTier, field: 'created_at' | 'updated_at'): string => (field === 'created_at' ? t.createdAt : (t.updatedAt ?? t.createdAt));

/**
 * GET /v1/loyalties/{campaignId}/tiers: the program's tiers in `order` (ties by points range), at most `limit`.
 * @throws NotFoundError (campaign).
 */
export async function listLoyaltyTiers(deps: Deps, projectId: string, campaignRef: string, query: ListTiersQuery): Promise<TierPage> {
  const campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  const { tiers } = await getTierSet(deps, projectId, campaign.id);
  const descending = query.order.startsWith('-');
  const field = (descending ? query.order.slice(1) : query.order) as 'created_at' | 'updated_at';
  const sorted = [...tiers].sort((a, b) => {
    const by = orderKey(a, field).localeCompare(orderKey(b, field)) || a.points.from - b.points.from;
    return descending ? -by : by;
  });
  return { tiers: sorted.slice(0, query.limit), total: tiers.length };
}

/** A tier of the program. @throws NotFoundError (campaign, loyalty_tier). */
export async function getLoyaltyTier(deps: Deps, projectId: string, campaignRef: string, tierId: string): Promise<LoyaltyTier> {
  const campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  const tier = (await getTierSet(deps, projectId, campaign.id)).tiers.find((t) => t.id === tierId);
  if (!tier) throw new NotFoundError('loyalty_tier', tierId);
  return tier;
}

/** A member's tier with when the card entered it and, when dated, the last day it holds. */
export interface MemberTier {
  tier: LoyaltyTier;
  card: Voucher;
  since: string;
  expires: string | null;
}

/**
 * GET /v1/loyalties/members/{memberId}/tiers: the tier the card holds now (lib/loyalties/tier-period.ts
 * heldTier on the card as of now, past-due points left out: a tier past its expiration date is
 * dropped here even before the card's next write stores it), or none. `since` is the time the card's
 * points change moved it there; a card whose last change came before the tier was created entered
 * it with the tier.
 * @throws NotFoundError (voucher).
 */
export async function listMemberLoyaltyTier(deps: Deps, projectId: string, memberId: string): Promise<MemberTier[]> {
  const { campaign, member } = await findProgramMember(deps, projectId, null, memberId);
  const now = deps.clock.now();
  const [card, set] = await Promise.all([cardAsOf(deps, member, now), getTierSet(deps, projectId, campaign.id)]);
  const held = card.loyaltyCard ? heldTier(card.loyaltyCard, set.tiers, set.expiration, now.toISOString()) : null;
  const tier = held ? set.tiers.find((t) => t.id === held.id) : undefined;
  if (!held || !tier) return [];
  const stored = card.loyaltyCard?.tier;
  return [{ tier, card, since: stored?.id === tier.id ? held.since : tier.createdAt, expires: held.expires ?? null }];
}

/**
 * GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/earning-rules: the program's earning rules,
 * oldest first, each with the points a member of the tier earns by it.
 * @throws NotFoundError (campaign, loyalty_tier).
 */
export async function listLoyaltyTierEarningRules(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  tierId: string,
  query: TierPageQuery,
): Promise<{ rules: EarningRule[]; total: number }> {
  const tier = await getLoyaltyTier(deps, projectId, campaignRef, tierId);
  const rules = await listEarningRulesOfCampaign(deps, projectId, tier.campaignId);
  const sorted = [...rules].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const page = sorted.slice((query.page - 1) * query.limit, query.page * query.limit);
  return {
    rules: page.map((r) => ({ ...r, loyalty: tierRuleLoyalty(r.loyalty, tier.earningRules[r.id] as TierMapping | undefined) as EarningRule['loyalty'] })),
    total: rules.length,
  };
}

/** A reward of a tier: the reward and its assignment priced for the tier's members. */
export interface TierReward {
  reward: Reward;
  assignment: RewardAssignment;
}

/**
 * GET /v1/loyalties/{campaignId}/tiers/{loyaltyTierId}/rewards: the program's rewards, oldest
 * assignment first, each assignment's `points` what a member of the tier pays.
 * @throws NotFoundError (campaign, loyalty_tier).
 */
export async function listLoyaltyTierRewards(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  tierId: string,
  query: TierPageQuery,
): Promise<{ rewards: TierReward[]; total: number }> {
  const tier = await getLoyaltyTier(deps, projectId, campaignRef, tierId);
  const assignments = await campaignRewardAssignments(deps, projectId, tier.campaignId);
  const page = assignments.slice((query.page - 1) * query.limit, query.page * query.limit);
  const rewards = new Map((await getRewards(deps, projectId, [...new Set(page.map((a) => a.rewardId))])).map((r) => [r.id, r]));
  return {
    rewards: page.flatMap((a) => {
      const reward = rewards.get(a.rewardId);
      return reward ? [{ reward, assignment: { ...a, points: tierRewardPrice(a.points, tier, a.rewardId, a.id) } }] : [];
    }),
    total: assignments.length,
  };
}
