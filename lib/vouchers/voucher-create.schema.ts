import * as z from '../zod.js';
import { codeConfigSchema, redemptionSchema } from './code-config.schema.js';
import { dateTime } from '../date-time.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { noValidationRules } from '../not-built.schema.js';
import { newCodeSchema } from './voucher-params.schema.js';
import {
  discountSchema,
  giftSchema,
  loyaltyCardTemplateSchema,
  validityDayOfWeekSchema,
  validityHoursSchema,
  validityTimeframeSchema,
} from '../campaigns/voucher-template.schema.js';

/** POST /v1/vouchers/{code}: the new voucher's code. */
export const createVoucherParams = z.strictObject({ code: newCodeSchema });

/** POST /v1/campaigns/{campaignId}/vouchers/{code}. */
export const campaignVoucherParams = z.strictObject({ campaignId: z.string().check(z.minLength(1), z.maxLength(1000)), code: newCodeSchema });

const categoryShape = {
  category: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  category_id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
};

type CategoryFields = { category?: string | undefined; category_id?: string | undefined };
const oneCategory = z.refine<CategoryFields>((b) => !(b.category !== undefined && b.category_id !== undefined), {
  message: 'pass either category or category_id, not both',
  path: ['category_id'],
});

type DateFields = { start_date?: string | null | undefined; expiration_date?: string | null | undefined };
const datesInOrder = z.refine<DateFields>((b) => !b.start_date || !b.expiration_date || b.start_date <= b.expiration_date, {
  message: 'must not be before start_date',
  path: ['expiration_date'],
});

/** What the reference's VoucherCreateBase and its three branches (discount, gift card, loyalty card) let a new voucher say. */
const voucherCreateShape = {
  campaign: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
  campaign_id: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
  ...categoryShape,
  type: z.optional(z.enum(['DISCOUNT_VOUCHER', 'GIFT_VOUCHER', 'LOYALTY_CARD'])),
  discount: z.optional(discountSchema),
  gift: z.optional(giftSchema),
  loyalty_card: z.optional(loyaltyCardTemplateSchema),
  start_date: z.optional(z.nullable(dateTime)),
  expiration_date: z.optional(z.nullable(dateTime)),
  validity_timeframe: z.optional(z.nullable(validityTimeframeSchema)),
  validity_day_of_week: z.optional(z.nullable(validityDayOfWeekSchema)),
  validity_hours: z.optional(z.nullable(validityHoursSchema)),
  active: z.optional(z.boolean()),
  additional_info: z.optional(z.nullable(z.string().check(z.maxLength(1000)))),
  metadata: z.optional(metadataSchema),
  // Accepted when it asks for nothing (lib/not-built.schema.ts).
  validation_rules: z.optional(noValidationRules),
  redemption: z.optional(redemptionSchema),
};

type BenefitFields = {
  type?: string | undefined;
  discount?: unknown;
  gift?: unknown;
  loyalty_card?: unknown;
  campaign?: string | undefined;
  campaign_id?: string | undefined;
};

/** The benefit field each voucher type carries. */
const BENEFIT_OF = { DISCOUNT_VOUCHER: 'discount', GIFT_VOUCHER: 'gift', LOYALTY_CARD: 'loyalty_card' } as const;
type VoucherType = keyof typeof BENEFIT_OF;

/**
 * The type of a voucher of no campaign: the body's `type`, else the one its benefit names (`gift`:
 * GIFT_VOUCHER, `loyalty_card`: LOYALTY_CARD), else DISCOUNT_VOUCHER, the reference's default
 * (docs/decisions.md "A standalone voucher without `type`"). A voucher of a campaign takes the
 * campaign's type, so without `type` it has none of its own here (undefined).
 */
export function standaloneTypeOf(b: BenefitFields): VoucherType | undefined {
  if (b.type !== undefined) return b.type as VoucherType;
  if (b.campaign !== undefined || b.campaign_id !== undefined) return undefined;
  if (b.gift !== undefined) return 'GIFT_VOUCHER';
  if (b.loyalty_card !== undefined) return 'LOYALTY_CARD';
  return 'DISCOUNT_VOUCHER';
}

const voucherChecks = [
  oneCategory,
  datesInOrder,
  z.refine<BenefitFields>((b) => !(b.campaign !== undefined && b.campaign_id !== undefined), {
    message: 'pass either campaign or campaign_id, not both',
    path: ['campaign_id'],
  }),
  // A voucher of no campaign gives the benefit of its type (given or implied); one of a campaign takes the campaign's.
  z.refine<BenefitFields>(
    (b) => {
      const type = standaloneTypeOf(b);
      return type === undefined || b.campaign !== undefined || b.campaign_id !== undefined || b[BENEFIT_OF[type]] !== undefined;
    },
    { message: 'a voucher of no campaign needs the benefit its type names (discount, gift or loyalty_card)', path: ['type'] },
  ),
  z.refine<BenefitFields>(
    (b) => {
      const type = standaloneTypeOf(b);
      return (['discount', 'gift', 'loyalty_card'] as const).every((field) => b[field] === undefined || type === undefined || BENEFIT_OF[type] === field);
    },
    { message: 'a voucher carries only the benefit of its type (discount, gift or loyalty_card)', path: ['type'] },
  ),
];

/**
 * POST /v1/vouchers/{code}. The SDK also sends the path's code in the body; it must be the same.
 * With `campaign`/`campaign_id` the voucher joins that campaign and takes its type (a benefit given is its own).
 */
export const createVoucherBody = z.strictObject({ ...voucherCreateShape, code: z.optional(newCodeSchema) }).check(...voucherChecks);
export type CreateVoucherBody = z.output<typeof createVoucherBody>;

/** POST /v1/vouchers: as POST /v1/vouchers/{code}, with the code given or generated from `code_config`. */
export const generateRandomCodeBody = z
  .strictObject({ ...voucherCreateShape, code: z.optional(newCodeSchema), code_config: z.optional(codeConfigSchema) })
  .check(
    ...voucherChecks,
    z.refine((b) => !(b.code !== undefined && b.code_config !== undefined), { message: 'pass either code or code_config, not both', path: ['code_config'] }),
  );
export type GenerateRandomCodeBody = z.output<typeof generateRandomCodeBody>;

/** POST /v1/campaigns/{campaignId}/vouchers/{code}: what the reference lets the request set on the campaign's new voucher. */
export const addVoucherWithCodeBody = z
  .strictObject({
    ...categoryShape,
    metadata: z.optional(metadataSchema),
    redemption: z.optional(redemptionSchema),
    additional_info: z.optional(z.string().check(z.maxLength(1000))),
    start_date: z.optional(dateTime),
    expiration_date: z.optional(dateTime),
    active: z.optional(z.boolean()),
  })
  .check(oneCategory, datesInOrder);
export type AddVoucherWithCodeBody = z.output<typeof addVoucherWithCodeBody>;
