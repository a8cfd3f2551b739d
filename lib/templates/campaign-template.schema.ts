import * as z from '../zod.js';
import { campaignBaseShape } from '../campaigns/campaign.schema.js';
import { validityDayOfWeekSchema, validityHoursSchema, validityTimeframeSchema } from '../campaigns/voucher-template.schema.js';
import { dateTime } from '../date-time.schema.js';
import { nestQuery, queryBoolean, queryInt } from '../http/query-params.js';
import { metadataSchema } from '../metadata.schema.js';
import { codeConfigSchema, redemptionSchema } from '../vouchers/code-config.schema.js';
import { refusedField } from '../not-built.schema.js';

const templateName = z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(200));
const templateDescription = z.nullable(z.string().check(z.maxLength(1000)));

/**
 * POST /v1/templates/campaigns. Exactly one of `campaign_id` and `promotion_tier_id` must be set
 * (null counts as absent); the service says which rule a request broke.
 */
export const createCampaignTemplateBody = z.strictObject({
  name: templateName,
  description: z.optional(templateDescription),
  campaign_id: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(200)))),
  promotion_tier_id: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(200)))),
});
export type CreateCampaignTemplateBody = z.output<typeof createCampaignTemplateBody>;

/** A template id as the template endpoints' path names it. */
export const campaignTemplateParams = z.strictObject({ campaignTemplateId: z.string().check(z.minLength(1), z.maxLength(200)) });

/**
 * GET /v1/templates/campaigns/{campaignTemplateId}: `expand=json_template` is accepted; the reply's
 * schema has no field it would add, so the reply is the same (docs/decisions.md).
 */
export const getCampaignTemplateQuery = z.strictObject({ expand: z.optional(z.enum(['json_template'])) });

/** PUT /v1/templates/campaigns/{campaignTemplateId}: the new name and/or description (null clears it); what is not sent stays. */
export const updateCampaignTemplateBody = z.strictObject({
  name: z.optional(templateName),
  description: z.optional(templateDescription),
});
export type UpdateCampaignTemplateBody = z.output<typeof updateCampaignTemplateBody>;

const TEMPLATE_TYPES = ['DISCOUNT_COUPONS', 'GIFT_VOUCHERS'] as const;
const typeList = z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.enum(TEMPLATE_TYPES)).check(z.minLength(1), z.maxLength(2)));

/**
 * GET /v1/templates/campaigns. Of Voucherify's filters only `campaign_type` is served (each type
 * is one key range of GSI2; every template has a type, so `$has_value` keeps all and `$is_unknown`
 * none); `id` and `name` filters are refused (docs/decisions.md "Listing
 * campaign templates"). `order` is by creation (`id` oldest first, `-id` newest first).
 */
export const listCampaignTemplatesQuery = z.preprocess(
  (q) => nestQuery(q as Record<string, string>),
  z.strictObject({
    limit: z._default(queryInt(1, 100), 10),
    starting_after_id: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    order: z._default(z.enum(['id', '-id']), 'id'),
    include_total: z._default(queryBoolean, false),
    filters: z.optional(
      z.strictObject({
        junction: z.optional(z.enum(['and', 'or'])),
        campaign_type: z.optional(
          z.strictObject({
            conditions: z.strictObject({
              $in: z.optional(typeList),
              $not_in: z.optional(typeList),
              $is: z.optional(z.enum(TEMPLATE_TYPES)),
              $is_not: z.optional(z.enum(TEMPLATE_TYPES)),
              $has_value: z.optional(z.literal('', { error: 'takes no value' })),
              $is_unknown: z.optional(z.literal('', { error: 'takes no value' })),
              $starts_with: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
              $ends_with: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
            }),
          }),
        ),
      }),
    ),
  }),
);
export type ListCampaignTemplatesQuery = z.output<typeof listCampaignTemplatesQuery>;

const withoutValidationRules = <S extends { validation_rules: unknown }>({ validation_rules: _rules, ...rest }: S): Omit<S, 'validation_rules'> => rest;

/**
 * POST /v1/templates/campaigns/{campaignTemplateId}/campaign-setup: `name` and what overrides the
 * template's configuration (the fields of a campaign create that a template holds). A field sent
 * replaces the template's (null clears a date or validity); `voucher.code_config` is merged into
 * the template's code config field by field; `metadata` replaces the template's.
 */
export const createCampaignFromTemplateBody = z.strictObject({
  // Not a top-level destructuring of the shape: that is a statement the bundler keeps (pure-schemas.ts), so every
  // handler importing this module built the campaign's fields at load (docs/benchmarks.md "Cold start: schemas built and never parsed").
  ...withoutValidationRules(campaignBaseShape),
  name: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(200)),
  voucher: z.optional(
    z.strictObject({
      code_config: z.optional(codeConfigSchema),
      redemption: z.optional(redemptionSchema),
      // What the vouchers give comes from the template; an override dropped would give what the client did not ask for.
      type: refusedField('the vouchers take the type of the template'),
      discount: refusedField("the template's discount is used; change it on the campaign afterwards"),
      gift: refusedField("the template's gift is used; change it on the campaign afterwards"),
      loyalty_card: refusedField("the template's loyalty card is used"),
    }),
  ),
});
export type CreateCampaignFromTemplateBody = z.output<typeof createCampaignFromTemplateBody>;

/**
 * POST /v1/templates/campaigns/{campaignTemplateId}/tier-setup: the promotion (`campaign_id`, id
 * or name), the tier's `name`, and what overrides the template's configuration. Tiers here keep no
 * category, so `category` and `category_id` are refused.
 */
export const addTierFromTemplateBody = z.strictObject({
  campaign_id: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(200)),
  name: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(200)),
  banner: z.optional(z.string().check(z.maxLength(1000))),
  metadata: z.optional(metadataSchema),
  hierarchy: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))),
  active: z.optional(z.boolean()),
  start_date: z.optional(z.nullable(dateTime)),
  expiration_date: z.optional(z.nullable(dateTime)),
  validity_timeframe: z.optional(z.nullable(validityTimeframeSchema)),
  validity_day_of_week: z.optional(z.nullable(validityDayOfWeekSchema)),
  validity_hours: z.optional(z.nullable(validityHoursSchema)),
  category: refusedField('promotion tiers keep no category yet'),
  category_id: refusedField('promotion tiers keep no category yet'),
});
export type AddTierFromTemplateBody = z.output<typeof addTierFromTemplateBody>;
