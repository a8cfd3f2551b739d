import type { Campaign, ReferralProgram, Validity, VoucherTemplate } from '../campaigns/campaign.js';
import type { Category } from '../categories/category.js';

/** The template types of the spec: a template made from a promotion tier is DISCOUNT_COUPONS. */
export type TemplateCampaignType = 'DISCOUNT_COUPONS' | 'GIFT_VOUCHERS';

/** What a campaign made from the template starts from: the source's configuration when the template was made. */
export interface CampaignSnapshot extends Validity {
  campaignType: TemplateCampaignType;
  type: Campaign['type'];
  voucher: VoucherTemplate;
  referralProgram: ReferralProgram | null;
  autoJoin: boolean;
  joinOnce: boolean;
  useVoucherMetadataSchema: boolean;
  activityDurationAfterPublishing: string | null;
  active: boolean;
  metadata: Record<string, unknown>;
  category: Category | null;
}

export interface CampaignTemplate {
  id: string;
  projectId: string;
  name: string;
  description: string | null;
  campaignType: TemplateCampaignType;
  /** Where it came from: a campaign id or a promotion tier id. */
  source: { kind: 'campaign' | 'promotion_tier'; id: string };
  snapshot: CampaignSnapshot;
  createdAt: string;
  /** Set by the first update (name or description); null before. */
  updatedAt: string | null;
}
