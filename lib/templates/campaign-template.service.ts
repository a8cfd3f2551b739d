import type { Campaign } from '../campaigns/campaign.js';
import { getCampaign as readCampaign, getCampaignIdByPromotionTier } from '../campaigns/campaign.repo.js';
import { getCampaign } from '../campaigns/campaign.service.js';
import { DuplicateError, InvalidPayloadError, NotFoundError, UnsupportedTemplateTypeError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { resolveCodeConfig } from '../vouchers/code-generator.js';
import type { CampaignSnapshot, CampaignTemplate } from './campaign-template.js';
import type { CreateCampaignTemplateBody } from './campaign-template.schema.js';
import { insertCampaignTemplate } from './campaign-template.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

function campaignSnapshot(c: Campaign): CampaignSnapshot {
  if ((c.campaignType !== 'DISCOUNT_COUPONS' && c.campaignType !== 'GIFT_VOUCHERS') || !c.voucher) {
    throw new UnsupportedTemplateTypeError(c.campaignType);
  }
  return {
    campaignType: c.campaignType,
    type: c.type,
    voucher: c.voucher,
    referralProgram: c.referralProgram,
    autoJoin: c.autoJoin,
    joinOnce: c.joinOnce,
    useVoucherMetadataSchema: c.useVoucherMetadataSchema,
    activityDurationAfterPublishing: c.activityDurationAfterPublishing,
    active: c.active,
    metadata: c.metadata,
    category: c.category,
    startDate: c.startDate,
    expirationDate: c.expirationDate,
    validityTimeframe: c.validityTimeframe,
    validityDayOfWeek: c.validityDayOfWeek,
    validityHours: c.validityHours,
  };
}

/** A promotion tier as a discount-coupon configuration: its discount becomes the voucher template's. */
async function tierSnapshot(deps: Deps, projectId: string, tierId: string): Promise<CampaignSnapshot> {
  const campaignId = await getCampaignIdByPromotionTier(deps, projectId, tierId);
  const campaign = campaignId ? await readCampaign(deps, projectId, campaignId) : null;
  const tier = campaign?.promotionTiers?.find((t) => t.id === tierId);
  if (!campaign || !tier) throw new NotFoundError('promotion_tier', tierId);
  return {
    campaignType: 'DISCOUNT_COUPONS',
    type: 'AUTO_UPDATE',
    voucher: {
      type: 'DISCOUNT_VOUCHER',
      discount: tier.discount,
      gift: null,
      loyaltyCard: null,
      redemptionQuantity: null,
      codeConfig: resolveCodeConfig(undefined),
      isReferralCode: false,
    },
    referralProgram: null,
    autoJoin: false,
    joinOnce: false,
    useVoucherMetadataSchema: false,
    activityDurationAfterPublishing: null,
    active: tier.active,
    metadata: tier.metadata,
    category: null,
    startDate: tier.startDate,
    expirationDate: tier.expirationDate,
    validityTimeframe: tier.validityTimeframe,
    validityDayOfWeek: tier.validityDayOfWeek,
    validityHours: tier.validityHours,
  };
}

/**
 * Makes a campaign template from a discount or gift campaign, or from a promotion tier, keeping a
 * snapshot of the source's configuration (later changes to the source do not affect it).
 * @throws InvalidPayloadError (both or neither source), NotFoundError (campaign, promotion_tier),
 *   UnsupportedTemplateTypeError, DuplicateError (name taken in the project).
 */
export async function createCampaignTemplate(deps: Deps, projectId: string, body: CreateCampaignTemplateBody): Promise<CampaignTemplate> {
  const campaignId = body.campaign_id ?? null;
  const tierId = body.promotion_tier_id ?? null;
  if (campaignId !== null && tierId !== null) {
    throw new InvalidPayloadError('campaign_id and promotion_tier_id must not be sent together: pass one of them');
  }
  if (campaignId === null && tierId === null) {
    throw new InvalidPayloadError('Either campaign_id or promotion_tier_id is required');
  }
  const snapshot =
    campaignId !== null ? campaignSnapshot(await getCampaign(deps, projectId, campaignId)) : await tierSnapshot(deps, projectId, tierId as string);
  const template: CampaignTemplate = {
    id: deps.ids.id('camp_tpl'),
    projectId,
    name: body.name,
    description: body.description ?? null,
    campaignType: snapshot.campaignType,
    source: campaignId !== null ? { kind: 'campaign', id: campaignId } : { kind: 'promotion_tier', id: tierId as string },
    snapshot,
    createdAt: deps.clock.now().toISOString(),
  };
  if (!(await insertCampaignTemplate(deps, template))) {
    throw new DuplicateError('campaign_template', `Duplicated campaign template exists with name ${template.name}`, template.name);
  }
  return template;
}
