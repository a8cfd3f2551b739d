import * as z from '../zod.js';
import { expirationRulesSchema } from '../campaigns/voucher-template.schema.js';
import { dateTime } from '../date-time.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { eventName } from '../custom-event-schemas/event-schema.schema.js';
import { queryInt } from '../http/query-params.js';
import { refusedField } from '../not-built.schema.js';

export { ORDER_PAID_EVENT } from './order-paid-event.js';

/** Events Voucherify itself raises whose rules need segments or tiers (not built). */
export const BUILT_IN_EVENTS = [
  'customer.segment.entered',
  'customer.loyalty.tier.joined',
  'customer.loyalty.tier.left',
  'customer.loyalty.tier.upgraded',
  'customer.loyalty.tier.downgraded',
  'customer.loyalty.tier.prolonged',
] as const;

const points = z.int().check(z.minimum(1), z.maximum(1_000_000_000));

/** The two ways a rule awards points; the request and the reply (earning-rule.reply.ts) share them. */
export const fixedLoyalty = z.strictObject({ type: z.literal('FIXED'), points });
export const proportionalLoyalty = z.strictObject({
  type: z.literal('PROPORTIONAL'),
  calculation_type: z.literal('CUSTOM_EVENT_METADATA'),
  custom_event: z.strictObject({
    metadata: z.strictObject({
      every: z.int().check(z.minimum(1), z.maximum(1_000_000_000)),
      points,
      property: z.string().check(z.minLength(1), z.maxLength(300)),
    }),
  }),
});

const ratio = { every: z.int().check(z.minimum(1), z.maximum(1_000_000_000)), points };

/** The products, SKUs and product collections an item-based rule counts. */
const itemObject = z.enum(['products_collection', 'product', 'sku']);
const itemTarget = z.strictObject({ object: itemObject, id: z.string().check(z.minLength(1), z.maxLength(1000)) });
const itemsRatio = z.strictObject({
  ...ratio,
  object: z.optional(itemObject),
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
  applicable_to: z.optional(z.array(itemTarget).check(z.maxLength(100))),
});

/** The order-based PROPORTIONAL calculations of an `order.paid` rule (the reference's EarningRuleProportionalOrder*). */
const orderProportionalVariants = [
  z.strictObject({
    type: z.literal('PROPORTIONAL'),
    calculation_type: z.literal('ORDER_AMOUNT'),
    order: z.strictObject({ amount: z.strictObject(ratio) }),
  }),
  z.strictObject({
    type: z.literal('PROPORTIONAL'),
    calculation_type: z.literal('ORDER_TOTAL_AMOUNT'),
    order: z.strictObject({ total_amount: z.strictObject(ratio) }),
  }),
  z.strictObject({
    type: z.literal('PROPORTIONAL'),
    calculation_type: z.literal('ORDER_METADATA'),
    order: z.strictObject({ metadata: z.strictObject({ ...ratio, property: z.string().check(z.minLength(1), z.maxLength(300)) }) }),
  }),
  z.strictObject({
    type: z.literal('PROPORTIONAL'),
    calculation_type: z.literal('ORDER_ITEMS_QUANTITY'),
    order_items: z.strictObject({ quantity: itemsRatio }),
  }),
  z.strictObject({
    type: z.literal('PROPORTIONAL'),
    calculation_type: z.literal('ORDER_ITEMS_AMOUNT'),
    order_items: z.strictObject({ amount: itemsRatio }),
  }),
  z.strictObject({
    type: z.literal('PROPORTIONAL'),
    calculation_type: z.literal('ORDER_ITEMS_SUBTOTAL_AMOUNT'),
    order_items: z.strictObject({ subtotal_amount: itemsRatio }),
  }),
] as const;

/** Every PROPORTIONAL calculation a rule may hold: on a custom event's metadata, or on the order of `order.paid`. */
export const anyProportionalLoyalty = z.discriminatedUnion('calculation_type', [proportionalLoyalty, ...orderProportionalVariants]);

/** What a rule gives (FIXED or PROPORTIONAL); which PROPORTIONAL calculation fits its event is checked by the service. */
export const ruleLoyalty = z.discriminatedUnion('type', [fixedLoyalty, anyProportionalLoyalty]);

/**
 * Documented rule fields this service does not carry out: each would, dropped, make the rule earn
 * where, when or as the client did not ask (issue 33: refused by name, never ignored).
 */
const refusedRuleFields = {
  validity_timeframe: refusedField('earning rules earn whenever they are active; a timeframe would not be kept'),
  validity_day_of_week: refusedField('earning rules earn on every day; days of the week would not be kept'),
  validity_hours: refusedField('earning rules earn at every hour; hours would not be kept'),
  segment: refusedField('segments do not exist here'),
};

/** `pending_points` of an `order.paid` rule: its points wait this many days before reaching the card (the reference's 1–90 DAY). */
export const pendingPointsInput = z.strictObject({
  period_type: z.literal('DAY'),
  period_value: z.int().check(z.minimum(1), z.maximum(90)),
});

/** One rule of POST /v1/loyalties/{campaignId}/earning-rules: a custom event rule, or an `order.paid` rule (Voucherify's). */
export const earningRuleInput = z.strictObject({
  event: eventName,
  loyalty: ruleLoyalty,
  custom_event: z.optional(z.strictObject({ schema_id: z.string().check(z.minLength(1), z.maxLength(100)) })),
  source: z.optional(z.strictObject({ banner: z.optional(z.string().check(z.maxLength(1000))) })),
  active: z.optional(z.boolean()),
  start_date: z.optional(dateTime),
  expiration_date: z.optional(dateTime),
  expiration_rules: z.optional(expirationRulesSchema),
  metadata: z.optional(metadataSchema),
  validation_rule_id: z.optional(z.nullable(z.string().check(z.maxLength(0, 'must be empty: validation rules do not exist in this service')))),
  // `null` means absent (the reference's create body documents it nullable).
  pending_points: z.optional(z.nullable(pendingPointsInput)),
  ...refusedRuleFields,
});
export type EarningRuleInput = z.output<typeof earningRuleInput>;

/** Rules per request: each rule and its location are written in one transaction, with the campaign check and the key record (2 × 49 + 2 = 100 items). */
export const MAX_RULES_PER_REQUEST = 49;

export const createEarningRulesBody = z.array(earningRuleInput).check(z.minLength(1), z.maxLength(MAX_RULES_PER_REQUEST));
export type CreateEarningRulesBody = z.output<typeof createEarningRulesBody>;

export const campaignParams = z.strictObject({ campaignId: z.string().check(z.minLength(1), z.maxLength(1000)) });

const ref = z.string().check(z.minLength(1), z.maxLength(1000));

/** `{campaignId}` (id or name) and `{earningRuleId}`. */
export const earningRuleParams = z.strictObject({ campaignId: ref, earningRuleId: ref });

/** GET /v1/loyalties/{campaignId}/earning-rules (Voucherify's `limit`, `page`, `order`). */
export const listEarningRulesQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 1_000_000), 1),
  order: z._default(z.enum(['created_at', '-created_at', 'updated_at', '-updated_at']), 'created_at'),
});
export type ListEarningRulesQuery = z.output<typeof listEarningRulesQuery>;

/**
 * PUT /v1/loyalties/{campaignId}/earning-rules/{earningRuleId}: the fields given replace the rule's
 * (`metadata` and `expiration_rules` as a whole). The event is the rule's identity here and cannot change.
 */
export const updateEarningRuleBody = z.strictObject({
  // There are no validation rules in this service: a rule would never be checked.
  validation_rule_id: z.optional(z.nullable(z.string().check(z.maxLength(0, 'must be empty: validation rules do not exist in this service')))),
  loyalty: z.optional(ruleLoyalty),
  source: z.optional(z.strictObject({ banner: z.optional(z.string().check(z.maxLength(1000))) })),
  active: z.optional(z.boolean()),
  start_date: z.optional(z.nullable(dateTime)),
  expiration_date: z.optional(z.nullable(dateTime)),
  expiration_rules: z.optional(z.nullable(expirationRulesSchema)),
  metadata: z.optional(metadataSchema),
  // `null` removes the rule's pending period (the reference's update body says so).
  pending_points: z.optional(z.nullable(pendingPointsInput)),
  ...refusedRuleFields,
});
export type UpdateEarningRuleBody = z.output<typeof updateEarningRuleBody>;
