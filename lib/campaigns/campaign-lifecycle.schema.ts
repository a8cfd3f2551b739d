import * as z from '../zod.js';
import { dateTime, isoDuration } from '../date-time.schema.js';
import { queryBoolean } from '../http/query-params.js';
import { metadataSchema } from '../metadata.schema.js';
import { accessSettingsSchema } from '../not-built.schema.js';
import { tiersExpirationSchema } from '../loyalties/tier.schema.js';
import { MAX_CAMPAIGN_DESCRIPTION_LENGTH, referralProgramSchema } from './campaign.schema.js';
import { discountSchema, giftSchema, validityDayOfWeekSchema, validityHoursSchema, validityTimeframeSchema } from './voucher-template.schema.js';

const nameSchema = z.string().check(z.minLength(1), z.maxLength(200));

/**
 * Fields of the reference's update bodies that would change a loyalty program's cards:
 * accepted by the schema so that the service can refuse them with a message naming the field
 * (docs/decisions.md "Changing and deleting campaigns"). `discount` and `gift` are built
 * (docs/decisions.md "Changing a campaign's vouchers"), and `loyalty_tiers_expiration`
 * (docs/decisions.md "Loyalty tiers by period").
 */
export const VOUCHER_CHANGING_FIELDS = ['options'] as const;

/*
 * The update fields every campaign type has, before and after those of the voucher-giving types: PUT
 * /v1/loyalties/{campaignId} takes them alone (loyalty-program-lifecycle.schema.ts). A `z.omit` of
 * updateCampaignBody built the discount, gift and referral schemas at load to drop them
 * (docs/benchmarks.md "Cold start: schemas built and never parsed").
 */
export const updateFieldsOfEveryType = {
  description: z.optional(z.nullable(z.string().check(z.maxLength(MAX_CAMPAIGN_DESCRIPTION_LENGTH)))),
  start_date: z.optional(z.nullable(dateTime)),
  expiration_date: z.optional(z.nullable(dateTime)),
  validity_timeframe: z.optional(z.nullable(validityTimeframeSchema)),
  validity_day_of_week: z.optional(z.nullable(validityDayOfWeekSchema)),
  validity_hours: z.optional(z.nullable(validityHoursSchema)),
  category: z.optional(z.nullable(nameSchema)),
  category_id: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(100)))),
  metadata: z.optional(metadataSchema),
  unset_metadata_fields: z.optional(z.nullable(z.array(z.string().check(z.maxLength(1000))).check(z.maxLength(1000)))),
  access_settings: z.optional(accessSettingsSchema),
  activity_duration_after_publishing: z.optional(z.nullable(isoDuration)),
  join_once: z.optional(z.boolean()),
  auto_join: z.optional(z.boolean()),
  type: z.optional(z.enum(['AUTO_UPDATE', 'STATIC'])),
};
export const updateFieldsOfEveryTypeAfter = {
  /** LOYALTY_PROGRAM: how its members qualify for tiers and when a tier expires (null: by balance, as without it). */
  loyalty_tiers_expiration: z.optional(z.nullable(tiersExpirationSchema)),
  options: z.optional(z.unknown()),
};

/**
 * PUT /v1/campaigns/{campaignId}: the union of the reference's five update bodies (one per
 * campaign type, told apart by the stored campaign, not by the body). The service refuses fields
 * the campaign's type does not have.
 */
export const updateCampaignBody = z.strictObject({
  ...updateFieldsOfEveryType,
  referral_program: z.optional(referralProgramSchema),
  /** DISCOUNT_COUPONS and REFERRAL_PROGRAM (discount vouchers): the template's and its unpublished, unredeemed vouchers' discount. */
  discount: z.optional(discountSchema),
  /** GIFT_VOUCHERS: the template's and its unpublished, unredeemed cards' credits. */
  gift: z.optional(giftSchema),
  ...updateFieldsOfEveryTypeAfter,
});
export type UpdateCampaignBody = z.output<typeof updateCampaignBody>;

/** DELETE /v1/campaigns/{campaignId}?force=true|false. */
export const deleteCampaignQuery = z.strictObject({ force: z.optional(queryBoolean) });
