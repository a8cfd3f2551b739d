import { loadCampaign } from '../campaigns/campaign.service.js';
import { DuplicateError, InvalidBalanceError, InvalidCampaignError, InvalidPayloadError, NotFoundError, ResourceInUseError } from '../errors.js';
import { findLoyaltyCampaign } from '../loyalties/loyalty.service.js';
import type { Runtime } from '../runtime.js';
import { REWARD_CAMPAIGN_TYPES, type CampaignRewardParameters, type Reward, type RewardAssignment, type RewardCampaignType } from './reward.js';
import * as repo from './reward.repo.js';
import type { CreateRewardAssignmentBody, CreateRewardBody, UpdateRewardAssignmentBody, UpdateRewardBody } from './reward.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

const isRewardCampaignType = (t: string): t is RewardCampaignType => (REWARD_CAMPAIGN_TYPES as readonly string[]).includes(t);

/**
 * The campaign a CAMPAIGN reward draws from, and its balance: gift credit or points must be
 * positive, a discount coupon has none.
 * @throws NotFoundError (campaign), InvalidCampaignError (referral or promotion campaign), InvalidBalanceError.
 */
async function campaignParameters(deps: Deps, projectId: string, ref: string, balance: number | undefined): Promise<CampaignRewardParameters> {
  const campaign = await loadCampaign(deps, projectId, ref);
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
  const [rewardRead, campaignRead] = await Promise.allSettled([repo.getReward(deps, projectId, rewardId), loadCampaign(deps, projectId, body.campaign)]);
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

/** Where an assignment is addressed from: its reward (/v1/rewards/…) or its loyalty program (/v1/loyalties/…). */
export type AssignmentOwner = { rewardId: string } | { campaignId: string };

/**
 * The owner named in the path, resolved: a reward must exist, a campaign must be a loyalty program.
 * @throws NotFoundError (reward, campaign).
 */
async function resolveOwner(deps: Deps, projectId: string, owner: AssignmentOwner): Promise<{ rewardId: string } | { campaignId: string }> {
  if ('rewardId' in owner) {
    const reward = await repo.getReward(deps, projectId, owner.rewardId);
    if (!reward) throw new NotFoundError('reward', owner.rewardId);
    return { rewardId: reward.id };
  }
  return { campaignId: (await findLoyaltyCampaign(deps, projectId, owner.campaignId)).id };
}

const belongsTo = (a: RewardAssignment, owner: { rewardId: string } | { campaignId: string }): boolean =>
  'rewardId' in owner ? a.rewardId === owner.rewardId : a.campaignId === owner.campaignId;

export interface ListPage {
  limit: number;
  page: number;
}

/**
 * GET /v1/rewards: one page of the project's rewards, oldest first, and how many there are; with
 * `assignment_id`, the reward of that assignment only (an empty list when there is none).
 */
export async function listRewards(deps: Deps, projectId: string, query: ListPage & { assignment_id?: string | undefined }): Promise<repo.Page<Reward>> {
  if (query.assignment_id === undefined) return repo.listRewardsPage(deps, projectId, query.page, query.limit);
  const assignment = await repo.getRewardAssignmentById(deps, projectId, query.assignment_id);
  const reward = assignment ? await repo.getReward(deps, projectId, assignment.rewardId) : null;
  return { items: reward && query.page === 1 ? [reward] : [], total: reward ? 1 : 0 };
}

const KIND_OF_TYPE = { CAMPAIGN: 'campaign', COIN: 'coin', MATERIAL: 'product' } as const;

/**
 * PUT /v1/rewards/{rewardId}: the fields given replace the reward's (`attributes` by key). The
 * parameters must be those of the reward's type (a type never changes); `stock` and `attributes`
 * belong to MATERIAL rewards. A CAMPAIGN reward's campaign and balance are checked as on creation.
 * @throws NotFoundError (reward, campaign), InvalidPayloadError, InvalidCampaignError, InvalidBalanceError.
 */
export async function updateReward(deps: Deps, projectId: string, rewardId: string, body: UpdateRewardBody): Promise<Reward> {
  const reward = await repo.getReward(deps, projectId, rewardId);
  if (!reward) throw new NotFoundError('reward', rewardId);
  const fields: Record<string, unknown> = {};
  if (body.name !== undefined) fields.name = body.name;
  if (body.metadata !== undefined) fields.metadata = body.metadata;
  if (body.parameters !== undefined) {
    const p = body.parameters;
    const kind = 'campaign' in p ? 'campaign' : 'coin' in p ? 'coin' : 'product';
    if (kind !== KIND_OF_TYPE[reward.type]) {
      throw new InvalidPayloadError(
        `parameters.${kind} does not fit a ${reward.type} reward (a reward's type cannot change); send parameters.${KIND_OF_TYPE[reward.type]}`,
      );
    }
    if ('campaign' in p) fields.campaign = await campaignParameters(deps, projectId, p.campaign.id, p.campaign.balance);
    if ('coin' in p && reward.type === 'COIN') {
      fields.coin = { exchangeRatio: p.coin.exchange_ratio, pointsRatio: p.coin.points_ratio ?? reward.coin.pointsRatio };
    }
    if ('product' in p) fields.product = { productId: p.product.id, skuId: p.product.sku_id };
  }
  if (reward.type !== 'MATERIAL' && (body.stock !== undefined || body.attributes !== undefined)) {
    throw new InvalidPayloadError(`stock and attributes belong to MATERIAL rewards; this is a ${reward.type} reward`);
  }
  if (body.stock !== undefined) fields.stock = body.stock;
  if (body.attributes !== undefined) {
    const a = body.attributes;
    fields.attributes = {
      ...reward.attributes,
      ...(a.image_url !== undefined ? { imageUrl: a.image_url } : {}),
      ...(a.description !== undefined ? { description: a.description } : {}),
    };
  }
  fields.updatedAt = deps.clock.now().toISOString();
  const written = await repo.updateRewardFields(deps, projectId, reward.id, fields as Partial<Reward>);
  if (!written) throw new NotFoundError('reward', rewardId);
  return written;
}

/**
 * DELETE /v1/rewards/{rewardId}: refused while the reward is assigned to a loyalty program (the
 * reference's 400 resource_in_use); the assignments are deleted first. Conditional on the
 * reward's assignment count, so a concurrent new assignment and the deletion cannot both succeed.
 * @throws NotFoundError (reward), ResourceInUseError.
 */
export async function deleteReward(deps: Deps, projectId: string, rewardId: string): Promise<void> {
  const inUse = async (): Promise<never> => {
    const ids = await repo.someAssignmentIdsOfReward(deps, projectId, rewardId);
    throw new ResourceInUseError('reward', rewardId, `Resource reward with id ${rewardId} is in use by reward_assignments with ids [${ids.join(', ')}]`);
  };
  // Assignments stored before the count existed are seen here (the count would say 0).
  if ((await repo.someAssignmentIdsOfReward(deps, projectId, rewardId, 1)).length > 0) await inUse();
  const outcome = await repo.deleteRewardIfUnused(deps, projectId, rewardId);
  if (outcome === 'gone') throw new NotFoundError('reward', rewardId);
  if (outcome === 'in_use') await inUse();
}

/**
 * GET /v1/rewards/{rewardId}/assignments (a reward's) and GET /v1/loyalties/{campaignId}/rewards
 * (a program's, optionally the one `assignmentId`): one page, oldest first, and how many there are.
 * @throws NotFoundError (reward; campaign: missing or not a loyalty program).
 */
export async function listRewardAssignments(
  deps: Deps,
  projectId: string,
  owner: AssignmentOwner,
  query: ListPage & { assignment_id?: string | undefined },
): Promise<repo.Page<RewardAssignment>> {
  const resolved = await resolveOwner(deps, projectId, owner);
  if (query.assignment_id !== undefined) {
    const one = await repo.getRewardAssignmentById(deps, projectId, query.assignment_id);
    const found = one && belongsTo(one, resolved) ? one : null;
    return { items: found && query.page === 1 ? [found] : [], total: found ? 1 : 0 };
  }
  return 'rewardId' in resolved
    ? repo.listAssignmentsOfReward(deps, projectId, resolved.rewardId, query.page, query.limit)
    : repo.listAssignmentsOfCampaign(deps, projectId, resolved.campaignId, query.page, query.limit);
}

/**
 * One assignment, addressed by its reward or its loyalty program.
 * @throws NotFoundError (reward, campaign, reward_assignment: missing, deleted or of another reward or program).
 */
export async function getRewardAssignment(deps: Deps, projectId: string, owner: AssignmentOwner, assignmentId: string): Promise<RewardAssignment> {
  // Both reads at once; an unknown reward or program is reported before an unknown assignment.
  const [ownerRead, assignmentRead] = await Promise.allSettled([
    resolveOwner(deps, projectId, owner),
    repo.getRewardAssignmentById(deps, projectId, assignmentId),
  ]);
  if (ownerRead.status === 'rejected') throw ownerRead.reason;
  if (assignmentRead.status === 'rejected') throw assignmentRead.reason;
  const assignment = assignmentRead.value;
  if (!assignment || !belongsTo(assignment, ownerRead.value)) throw new NotFoundError('reward_assignment', assignmentId);
  return assignment;
}

/**
 * GET /v1/loyalties/{campaignId}/reward-assignments/{assignmentId}/reward: the reward a program's
 * assignment gives (a reward cannot be deleted while assigned).
 * @throws NotFoundError (campaign, reward_assignment, reward).
 */
export async function getRewardDetails(deps: Deps, projectId: string, campaignRef: string, assignmentId: string): Promise<Reward> {
  const assignment = await getRewardAssignment(deps, projectId, { campaignId: campaignRef }, assignmentId);
  return getReward(deps, projectId, assignment.rewardId);
}

/**
 * PUT …/assignments/{assignmentId} or …/rewards/{assignmentId}: a new price in points (the only
 * field an assignment has to change).
 * @throws NotFoundError (reward, campaign, reward_assignment).
 */
export async function updateRewardAssignment(
  deps: Deps,
  projectId: string,
  owner: AssignmentOwner,
  assignmentId: string,
  body: UpdateRewardAssignmentBody,
): Promise<RewardAssignment> {
  const assignment = await getRewardAssignment(deps, projectId, owner, assignmentId);
  const points = body.parameters?.loyalty?.points ?? assignment.points;
  const written = await repo.updateRewardAssignmentPoints(deps, assignment, points, deps.clock.now().toISOString());
  if (!written) throw new NotFoundError('reward_assignment', assignmentId);
  return written;
}

/**
 * DELETE …/assignments/{assignmentId} or …/rewards/{assignmentId}: the assignment and its pair go
 * in one transaction, so it can no longer be found or redeemed, and the reward is free to be
 * assigned to the program again.
 * @throws NotFoundError (reward, campaign, reward_assignment).
 */
export async function deleteRewardAssignment(deps: Deps, projectId: string, owner: AssignmentOwner, assignmentId: string): Promise<void> {
  const assignment = await getRewardAssignment(deps, projectId, owner, assignmentId);
  if (!(await repo.deleteRewardAssignmentItems(deps, assignment))) throw new NotFoundError('reward_assignment', assignmentId);
}
