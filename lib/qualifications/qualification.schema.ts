import * as z from '../zod.js';
import { customerInput } from '../customers/customer.schema.js';
import { dateTime } from '../date-time.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { createOrderBody } from '../orders/order.schema.js';
import { CAMPAIGN_TYPES } from '../campaigns/campaign.js';

/**
 * The scenarios this service answers (the reference's `scenario` less PROMOTION_STACKS: there are no
 * promotion stacks here, so asking for them is refused rather than answered with an empty list).
 * docs/decisions.md "Qualifications" says what each one offers.
 */
export const QUALIFICATION_SCENARIOS = [
  'ALL',
  'CUSTOMER_WALLET',
  'AUDIENCE_ONLY',
  'PRODUCTS',
  'PRODUCTS_DISCOUNT',
  'PRODUCTS_BY_CUSTOMER',
  'PRODUCTS_DISCOUNT_BY_CUSTOMER',
] as const;
export type QualificationScenario = (typeof QUALIFICATION_SCENARIOS)[number];

export const QUALIFICATION_SORTING_RULES = ['DEFAULT', 'BEST_DEAL', 'LEAST_DEAL'] as const;
export type QualificationSortingRule = (typeof QUALIFICATION_SORTING_RULES)[number];

/** Most redeemables on one page (the reference's `options.limit` maximum); the default is 5. */
export const MAX_QUALIFICATION_LIMIT = 50;
export const DEFAULT_QUALIFICATION_LIMIT = 5;

const text = z.string().check(z.minLength(1), z.maxLength(1000));
/** An operand list; an empty one is accepted (`$in: []` matches nothing, `$not_in: []` everything). */
const list = <T extends z.ZodMiniType>(item: T) => z.array(item).check(z.maxLength(100));
/**
 * The reference's QualificationsFiltersCondition. `$has_value` / `$is_unknown` take any operand (the
 * prose gives them none): the field has a value, or has none.
 */
const conditionsOf = <T extends z.ZodMiniType>(item: T) =>
  z.strictObject({
    conditions: z.strictObject({
      $is: z.optional(list(item)),
      $is_not: z.optional(list(item)),
      $in: z.optional(list(item)),
      $not_in: z.optional(list(item)),
      $has_value: z.optional(z.unknown()),
      $is_unknown: z.optional(z.unknown()),
    }),
  });

/** One schema for every text field's conditions: a schema may be shared, and each copy cost ~18 zod instances at load. */
const textConditions = conditionsOf(text);

/** `options.filters`: the fields a qualified redeemable is filtered by, joined by `junction` (`and` by default). */
export const qualificationFilters = z.strictObject({
  junction: z.optional(z.enum(['and', 'or', 'AND', 'OR'])),
  resource_type: z.optional(conditionsOf(z.enum(['voucher', 'promotion_tier', 'campaign']))),
  resource_id: z.optional(textConditions),
  campaign_id: z.optional(textConditions),
  campaign_type: z.optional(conditionsOf(z.enum(CAMPAIGN_TYPES))),
  voucher_type: z.optional(textConditions),
  code: z.optional(textConditions),
  category_id: z.optional(textConditions),
  /** A wallet voucher's holder is its OWNER (referral roles are not kept on vouchers); other redeemables have no role. */
  holder_role: z.optional(conditionsOf(z.enum(['OWNER', 'REFERRER', 'REFEREE']))),
});
export type QualificationFilters = z.output<typeof qualificationFilters>;

/** POST /v1/qualifications (the reference's QualificationsCheckEligibilityRequestBody). */
export const checkEligibilityBody = z.strictObject({
  customer: z.optional(customerInput),
  order: z.optional(createOrderBody),
  tracking_id: z.optional(text),
  scenario: z.optional(z.enum(QUALIFICATION_SCENARIOS)),
  options: z.optional(
    z.strictObject({
      limit: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_QUALIFICATION_LIMIT))),
      starting_after: z.optional(z.nullable(dateTime)),
      filters: z.optional(qualificationFilters),
      expand: z.optional(z.array(z.enum(['redeemable', 'category', 'validation_rules'])).check(z.maxLength(3))),
      sorting_rule: z.optional(z.enum(QUALIFICATION_SORTING_RULES)),
    }),
  ),
  session: z.optional(z.strictObject({ type: z.optional(z.literal('LOCK')) })),
  metadata: z.optional(metadataSchema),
});
export type CheckEligibilityBody = z.output<typeof checkEligibilityBody>;
