import { snakeize } from '../case.js';
import { toCategoryReply } from '../categories/category.mapper.js';
import type { CodeConfig } from '../vouchers/code-generator.js';
import type { Campaign, PromotionTier, Validity } from './campaign.js';
import type * as z from '../zod.js';
import type { campaignListReplySchema, campaignReplySchema, codeConfigReplySchema, promotionTierReplySchema } from './campaign.reply.js';

/** An empty validation-rules-assignment list: validation rules do not exist in this service yet. */
export const noAssignments = () => ({ object: 'list' as const, data_ref: 'data' as const, data: [] as never[], total: 0 });

/** Validity fields that are set, in wire form; unset ones are left out, as Voucherify does. */
function validityReply(v: Validity): Record<string, unknown> {
  return {
    ...(v.startDate ? { start_date: v.startDate } : {}),
    ...(v.expirationDate ? { expiration_date: v.expirationDate } : {}),
    ...(v.validityTimeframe ? { validity_timeframe: v.validityTimeframe } : {}),
    ...(v.validityDayOfWeek ? { validity_day_of_week: v.validityDayOfWeek } : {}),
    ...(v.validityHours ? { validity_hours: snakeize(v.validityHours) } : {}),
  };
}

export function codeConfigReply(c: CodeConfig): z.input<typeof codeConfigReplySchema> {
  return {
    length: c.length,
    charset: c.charset,
    pattern: c.pattern,
    ...(c.prefix !== null ? { prefix: c.prefix } : {}),
    ...(c.postfix !== null ? { postfix: c.postfix } : {}),
    ...(c.initialCount !== null ? { initial_count: c.initialCount } : {}),
  };
}

/** A promotion tier object of the spec, within its campaign. */
export function tierReply(campaign: Campaign, t: PromotionTier): z.input<typeof promotionTierReplySchema> {
  return {
    id: t.id,
    created_at: t.createdAt,
    ...(t.updatedAt ? { updated_at: t.updatedAt } : {}),
    name: t.name,
    ...(t.banner !== null ? { banner: t.banner } : {}),
    action: t.discount ? { discount: snakeize(t.discount) } : {},
    metadata: t.metadata,
    hierarchy: t.hierarchy,
    promotion_id: campaign.id,
    campaign: {
      id: campaign.id,
      ...validityReply(campaign),
      active: campaign.active,
      category_id: campaign.category?.id ?? null,
      object: 'campaign',
    },
    campaign_id: campaign.id,
    active: t.active,
    ...validityReply(t),
    summary: { redemptions: { total_redeemed: 0 }, orders: { total_amount: 0, total_discount_amount: 0 } },
    object: 'promotion_tier',
    validation_rule_assignments: noAssignments(),
    category_id: null,
    categories: [],
  };
}

/** The campaign object of the spec (Voucherify's field order). */
export function toCampaignReply(c: Campaign): z.input<typeof campaignReplySchema> {
  const t = c.voucher;
  return {
    id: c.id,
    name: c.name,
    ...(c.description !== null ? { description: c.description } : {}),
    campaign_type: c.campaignType,
    type: c.type,
    ...(t
      ? {
          voucher: {
            type: t.type,
            ...(t.discount ? { discount: snakeize(t.discount) } : {}),
            ...(t.gift ? { gift: snakeize(t.gift) } : {}),
            ...(t.loyaltyCard ? { loyalty_card: snakeize(t.loyaltyCard) } : {}),
            redemption: { quantity: t.redemptionQuantity },
            code_config: codeConfigReply(t.codeConfig),
            is_referral_code: t.isReferralCode,
            ...validityReply({ ...c, validityDayOfWeek: null, validityHours: null }),
          },
        }
      : {}),
    ...(c.referralProgram ? { referral_program: snakeize(c.referralProgram) } : {}),
    ...(c.loyaltyTiersExpiration ? { loyalty_tiers_expiration: c.loyaltyTiersExpiration } : {}),
    auto_join: c.autoJoin,
    join_once: c.joinOnce,
    use_voucher_metadata_schema: c.useVoucherMetadataSchema,
    ...validityReply(c),
    ...(c.activityDurationAfterPublishing ? { activity_duration_after_publishing: c.activityDurationAfterPublishing } : {}),
    vouchers_count: c.vouchersCount,
    active: c.active,
    metadata: c.metadata,
    created_at: c.createdAt,
    ...(c.updatedAt ? { updated_at: c.updatedAt } : {}),
    ...(c.category ? { category: c.category.name } : {}),
    creation_status: c.creationStatus,
    vouchers_generation_status: c.vouchersGenerationStatus,
    protected: c.protected,
    validation_rules_assignments: noAssignments(),
    ...(c.promotionTiers
      ? {
          promotion: {
            object: 'list',
            data_ref: 'tiers',
            tiers: c.promotionTiers.map((tier) => tierReply(c, tier)),
            total: c.promotionTiers.length,
            has_more: false,
          },
        }
      : {}),
    category_id: c.category?.id ?? null,
    categories: c.category ? [toCategoryReply(c.category)] : [],
    object: 'campaign',
  };
}

/** GET /v1/campaigns reply. `expand=access_settings_assignments` adds an empty list: areas and stores do not exist here. */
export function toCampaignListReply(page: { campaigns: Campaign[]; total: number }, expand: readonly string[] = []): z.input<typeof campaignListReplySchema> {
  const withAccess = expand.includes('access_settings_assignments');
  return {
    object: 'list',
    data_ref: 'campaigns',
    campaigns: page.campaigns.map((c) => ({
      ...toCampaignReply(c),
      ...(withAccess ? { access_settings_assignments: { object: 'list', data_ref: 'data', data: [], total: 0 } } : {}),
    })),
    total: page.total,
  };
}
