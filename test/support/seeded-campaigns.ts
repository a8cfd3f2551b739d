import type { Campaign } from '../../lib/campaigns/campaign.js';
import { resolveCodeConfig } from '../../lib/vouchers/code-generator.js';

/**
 * The i-th of a series of stored campaigns, as create-campaign writes them, for seeding thousands
 * straight into the table (the listing scale test, the listing benchmark): even numbers are
 * discount coupons, odd ones gift vouchers, created one second apart. `label` names the series:
 * id `camp_<label><i>`, name `<Label> <i>`, both with `i` zero-padded to `width` digits.
 */
export function seededCampaign(projectId: string, i: number, label: string, width: number, metadata: Record<string, unknown> = {}): Campaign {
  const discount = i % 2 === 0;
  const n = String(i).padStart(width, '0');
  return {
    id: `camp_${label.toLowerCase()}${n}`,
    projectId,
    name: `${label} ${n}`,
    description: null,
    campaignType: discount ? 'DISCOUNT_COUPONS' : 'GIFT_VOUCHERS',
    type: 'AUTO_UPDATE',
    voucher: {
      type: discount ? 'DISCOUNT_VOUCHER' : 'GIFT_VOUCHER',
      discount: discount ? { type: 'PERCENT', percentOff: 5 } : null,
      gift: discount ? null : { amount: 100 },
      loyaltyCard: null,
      redemptionQuantity: null,
      codeConfig: resolveCodeConfig(undefined),
      isReferralCode: false,
    },
    referralProgram: null,
    promotionTiers: null,
    autoJoin: false,
    joinOnce: false,
    useVoucherMetadataSchema: false,
    activityDurationAfterPublishing: null,
    vouchersCount: 0,
    active: true,
    metadata,
    createdAt: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
    updatedAt: null,
    creationStatus: 'DONE',
    vouchersGenerationStatus: 'DONE',
    protected: false,
    category: null,
    startDate: null,
    expirationDate: null,
    validityTimeframe: null,
    validityDayOfWeek: null,
    validityHours: null,
  };
}
