import type { Campaign, VoucherCampaign } from '../campaigns/campaign.js';
import { getCampaign, getCampaignIdByName } from '../campaigns/campaign.repo.js';
import { InvalidCampaignError, InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** `referral_program.referee_reward` as stored (camelCase): the parent campaign named by id and name. */
export type RefereeRewardConfig = NonNullable<NonNullable<Campaign['referralProgram']>['refereeReward']>;

const WANTED_PARENT = { LOYALTY_CARD: 'LOYALTY_PROGRAM', GIFT_VOUCHER: 'GIFT_VOUCHERS' } as const;

/**
 * Checks a referee reward at campaign creation: its parent (by id, else by name; both given must
 * agree) must be a LOYALTY_PROGRAM for LOYALTY_CARD and a GIFT_VOUCHERS campaign for GIFT_VOUCHER,
 * one that can publish vouchers (not STANDALONE). Returns it with the parent's id and name.
 * @throws InvalidPayloadError (no id or name; they disagree), NotFoundError (campaign), InvalidCampaignError (wrong parent).
 */
export async function resolveRefereeReward(deps: Deps, projectId: string, reward: RefereeRewardConfig): Promise<RefereeRewardConfig> {
  const ref = reward.relatedObjectParent;
  const where = 'Property .referral_program.referee_reward.related_object_parent';
  if (ref.id === undefined && ref.name === undefined) throw new InvalidPayloadError(`${where} needs the id (or name) of a campaign`);
  const parentId = ref.id ?? (await getCampaignIdByName(deps, projectId, ref.name ?? ''));
  const parent = parentId === null ? null : await getCampaign(deps, projectId, parentId);
  if (!parent) throw new NotFoundError('campaign', ref.id ?? ref.name ?? '');
  if (ref.name !== undefined && ref.name !== parent.name) throw new InvalidPayloadError(`${where}.name ${ref.name} is not the name of campaign ${parent.id}`);
  const wanted = WANTED_PARENT[reward.type];
  if (parent.campaignType !== wanted) {
    throw new InvalidCampaignError(`A ${reward.type} referee reward comes from a ${wanted} campaign; ${parent.name} is ${parent.campaignType}`);
  }
  if (parent.type === 'STANDALONE' || !parent.voucher) {
    throw new InvalidCampaignError(`Campaign ${parent.name} is STANDALONE: it cannot publish a ${reward.type} to a referee`);
  }
  return { relatedObjectParent: { id: parent.id, name: parent.name, object: 'CAMPAIGN' }, type: reward.type, amount: reward.amount };
}

/** A referee reward ready to carry out: the parent campaign as read when the event was checked. */
export interface RefereeReward {
  type: RefereeRewardConfig['type'];
  amount: number;
  parent: VoucherCampaign;
}

/**
 * The reward a program gives its referees, with its parent campaign; null when it has none.
 * @throws NotFoundError (campaign) when the parent is gone.
 */
export async function planRefereeReward(deps: Deps, projectId: string, reward: RefereeRewardConfig | undefined): Promise<RefereeReward | null> {
  const parentId = reward?.relatedObjectParent.id;
  if (!reward || parentId === undefined) return null;
  const parent = await getCampaign(deps, projectId, parentId);
  if (!parent?.voucher) throw new NotFoundError('campaign', parentId);
  return { type: reward.type, amount: reward.amount, parent: { ...parent, voucher: parent.voucher } };
}
