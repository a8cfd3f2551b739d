import * as z from '../zod.js';
import { customerInput } from '../customers/customer.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { createOrderBody } from '../orders/order.schema.js';
import { sessionKeySchema } from '../redemptions/session.schema.js';
import { SESSION_TTL_UNITS } from '../redemptions/session-lock.js';

/** A voucher code or promotion tier id as a redeemable names it. */
const redeemableId = z.string().check(z.minLength(1), z.maxLength(1000));
const credits = z.int().check(z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER));

const voucherRedeemable = z.strictObject({
  object: z.literal('voucher'),
  id: redeemableId,
  gift: z.optional(z.strictObject({ credits: z.optional(credits) })),
  // A loyalty card paying for a reward (the reference's RedeemLoyaltyCard): POST /v1/redemptions only.
  reward: z.optional(z.strictObject({ id: redeemableId, points: z.optional(z.int().check(z.positive(), z.maximum(1_000_000_000))) })),
});
const tierRedeemable = z.strictObject({ object: z.literal('promotion_tier'), id: redeemableId });
const giftCardRedeemable = z.strictObject({
  object: z.literal('gift_card'),
  id: redeemableId,
  gift: z.optional(z.strictObject({ credits: z.optional(credits) })),
});

/** One redeemable the engine evaluates (the reference's RedeemVoucher, RedeemPromotionTier, RedeemGiftCard). */
export const stackedRedeemableInput = z.discriminatedUnion('object', [voucherRedeemable, tierRedeemable, giftCardRedeemable]);
export type StackedRedeemableInput = z.output<typeof stackedRedeemableInput>;

/**
 * One redeemable of a POST /v1/validations or /v1/redemptions body: those the engine evaluates, or
 * a promotion stack (RedeemPromotionStack), which lib/promotion-stacks/stack-redeemables.ts turns
 * into its tiers before the engine sees the request.
 */
export const requestedRedeemableInput = z.discriminatedUnion('object', [
  voucherRedeemable,
  tierRedeemable,
  giftCardRedeemable,
  z.strictObject({ object: z.literal('promotion_stack'), id: redeemableId }),
]);
export type RequestedRedeemableInput = z.output<typeof requestedRedeemableInput>;

/** The reference's Session: a LOCK session (the only type), its key and lifetime. */
export const sessionInput = z.strictObject({
  type: z.optional(z.literal('LOCK')),
  key: z.optional(sessionKeySchema),
  ttl: z.optional(z.number().check(z.positive())),
  ttl_unit: z.optional(z.enum(Object.keys(SESSION_TTL_UNITS) as [keyof typeof SESSION_TTL_UNITS, ...(keyof typeof SESSION_TTL_UNITS)[]])),
});
export type SessionInput = z.output<typeof sessionInput>;

/*
 * Each shared field is its own declaration: the single-code bodies (legacy-validation.schema.ts,
 * legacy-promotions.schema.ts) read some of them, and reading one property of the object below would
 * build all of them at load, the redeemables' unions included (docs/benchmarks.md "Cold start: schemas
 * built and never parsed").
 */
export const stackedOrderField = z.optional(createOrderBody);
export const stackedCustomerField = z.optional(customerInput);
export const stackedSessionField = z.optional(sessionInput);
export const stackedTrackingIdField = z.optional(z.string().check(z.minLength(1), z.maxLength(1000)));
export const stackedMetadataField = z.optional(metadataSchema);

/** The fields validation and redemption share (the reference's StackableValidateRedeemBase). */
export const stackedRequestFields = {
  redeemables: z.array(requestedRedeemableInput).check(z.minLength(1), z.maxLength(30)),
  order: stackedOrderField,
  customer: stackedCustomerField,
  session: stackedSessionField,
  tracking_id: stackedTrackingIdField,
  metadata: stackedMetadataField,
};

/** POST /v1/validations. `options.expand` is accepted; the reply always carries the order and the redeemables' details. */
export const validateStackedDiscountsBody = z.strictObject({
  ...stackedRequestFields,
  options: z.optional(z.strictObject({ expand: z.optional(z.array(z.enum(['order', 'redemption', 'redeemable', 'category'])).check(z.maxLength(4))) })),
});
export type ValidateStackedDiscountsBody = z.output<typeof validateStackedDiscountsBody>;
/** A request as sent: its redeemables may name a promotion stack. */
export type StackedBody = Pick<ValidateStackedDiscountsBody, 'redeemables' | 'order' | 'customer' | 'session' | 'tracking_id' | 'metadata'>;
/** What evaluateRedeemables reads of a request: validation's and redemption's common fields, a stack already turned into its tiers. */
export type StackedRequest = Omit<StackedBody, 'redeemables'> & {
  redeemables: StackedRedeemableInput[];
  /** The promotion stack the redeemables are the tiers of: they apply in their order, all or none. */
  fromStack?: string;
};
