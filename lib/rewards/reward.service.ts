import { getCampaign } from '../campaigns/campaign.service.js';
import { DuplicateError, InvalidBalanceError, InvalidCampaignError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { REWARD_CAMPAIGN_TYPES, type CampaignRewardParameters, type Reward, type RewardAssignment, type RewardCampaignType } from './reward.js';
import * as repo from './reward.repo.js';
import type { CreateRewardAssignmentBody, CreateRewardBody } from './reward.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

const isRewardCampaignType = (t: string): t is RewardCampaignType => (REWARD_CAMPAIGN_TYPES as readonly string[]).includes(t);

/**
 * The campaign a CAMPAIGN reward draws from, and its balance: gift credit or points must be
 * positive, a discount coupon has none.
 * @throws NotFoundError (campaign), InvalidCampaignError (referral or promotion campaign), InvalidBalanceError.
 */
async function campaignParameters(deps: Deps, projectId: string, ref: string, balance: number | undefined): Promise<CampaignRewardParameters> {
  const campaign = await getCampaign(deps, projectId, ref);
  const type = campaign.campaignType;
  if (!isRewardCampaignType(type)) {
    throw new InvalidCampaignError(`A reward can give vouchers of ${REWARD_CAMPAIGN_TYPES.join(', ')} campaigns, not of a ${type} campaign`);
  }
  if (type === 'DISCOUNT_COUPONS') {
    if (balance !== undefined) throw new InvalidBalanceError(`Property 'parameters.campaign.balance' is not allowed for campaign type: ${type}`);
    return { campaignId: campaign.id, campaignType: type, balance: null };
  }
  if (balance === undefined || balance <= 0) {
    throw new InvalidBalanceError(`Property 'parameters.campaign.balance' must be greater than zero for campaign type: ${type}`);
  }
  return { campaignId: campaign.id, campaignType: type, balance };
}

/**
 * POST /v1/rewards: a CAMPAIGN reward (checked against its campaign), a COIN (pay with points)
 * reward, or a MATERIAL reward (a product; products are not kept here, so its ids are taken as given).
 * @throws NotFoundError (campaign), InvalidCampaignError, InvalidBalanceError.
 */
export async function createReward(deps: Deps, projectId: string, body: CreateRewardBody): Promise<Reward> {
  const base = {
    id: deps.ids.id('rew'),
    projectId,
    name: body.name,
    stock: null,
    redeemed: null,
    attributes: {},
    metadata: body.metadata ?? {},
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
  };
  let reward: Reward;
  switch (body.type) {
    case 'CAMPAIGN': {
      const { id, balance } = body.parameters.campaign;
      reward = { ...base, type: 'CAMPAIGN', campaign: await campaignParameters(deps, projectId, id, balance) };
      break;
    }
    case 'COIN': {
      const { exchange_ratio, points_ratio } = body.parameters.coin;
      reward = { ...base, type: 'COIN', coin: { exchangeRatio: exchange_ratio, pointsRatio: points_ratio ?? 1 } };
      break;
    }
    case 'MATERIAL': {
      const { id, sku_id } = body.parameters.product;
      const a = body.attributes ?? {};
      reward = {
        ...base,
        type: 'MATERIAL',
        product: { productId: id, skuId: sku_id ?? null },
        stock: body.stock ?? null,
        attributes: {
          ...(a.image_url !== undefined ? { imageUrl: a.image_url } : {}),
          ...(a.description !== undefined ? { description: a.description } : {}),
        },
      };
      break;
    }
  }
  await repo.insertReward(deps, reward);
  return reward;
}

/** @throws NotFoundError (reward). */
export async function getReward(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, rewardId: string): Promise<Reward> {
  const reward = await repo.getReward(deps, projectId, rewardId);
  if (!reward) throw new NotFoundError('reward', rewardId);
  return reward;
}

/**
 * POST /v1/rewards/{rewardId}/assignments: puts a reward on a loyalty program at a price in points.
 * A reward is assigned to a campaign at most once, also under concurrent requests.
 * @throws NotFoundError (reward, campaign), InvalidCampaignError (not a loyalty program),
 *   DuplicateError (the reward is already on the campaign; resource_id = that assignment).
 */
export async function createRewardAssignment(deps: Deps, projectId: string, rewardId: string, body: CreateRewardAssignmentBody): Promise<RewardAssignment> {
  // Both reads at once; an unknown reward is reported before an unknown campaign.
  const [rewardRead, campaignRead] = await Promise.allSettled([repo.getReward(deps, projectId, rewardId), getCampaign(deps, projectId, body.campaign)]);
  if (rewardRead.status === 'rejected') throw rewardRead.reason;
  const reward = rewardRead.value;
  if (!reward) throw new NotFoundError('reward', rewardId);
  if (campaignRead.status === 'rejected') throw campaignRead.reason;
  const campaign = campaignRead.value;
  if (campaign.campaignType !== 'LOYALTY_PROGRAM') {
    throw new InvalidCampaignError(`Rewards can be assigned only to LOYALTY_PROGRAM campaigns; ${campaign.id} is a ${campaign.campaignType} campaign`);
  }
  const assignment: RewardAssignment = {
    id: deps.ids.id('rewa'),
    projectId,
    rewardId: reward.id,
    campaignId: campaign.id,
    points: body.parameters.loyalty.points,
    createdAt: deps.clock.now().toISOString(),
    updatedAt: null,
  };
  const outcome = await repo.insertRewardAssignment(deps, assignment);
  if (outcome.ok) return assignment;
  switch (outcome.reason) {
    case 'duplicate':
      throw new DuplicateError('reward_assignment', `Duplicated reward_assignment exists with id ${outcome.existingId}`, outcome.existingId);
    case 'reward_gone':
      throw new NotFoundError('reward', rewardId);
    case 'campaign_gone':
      throw new NotFoundError('campaign', body.campaign);
  }
}
