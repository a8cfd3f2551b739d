import * as z from '../zod.js';
import { expirationRulesSchema } from '../campaigns/voucher-template.schema.js';
import { dateTime } from '../date-time.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { eventName } from '../custom-event-schemas/event-schema.schema.js';
import { queryInt } from '../http/query-params.js';

/** Events Voucherify itself raises; earning rules on them need orders, segments or tiers (not built). */
export const BUILT_IN_EVENTS = [
  'order.paid',
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

/** One rule of POST /v1/loyalties/{campaignId}/earning-rules: a custom event earning rule (Voucherify's). */
export const earningRuleInput = z.strictObject({
  event: eventName,
  loyalty: z.discriminatedUnion('type', [fixedLoyalty, proportionalLoyalty]),
  custom_event: z.optional(z.strictObject({ schema_id: z.string().check(z.minLength(1), z.maxLength(100)) })),
  source: z.optional(z.strictObject({ banner: z.optional(z.string().check(z.maxLength(1000))) })),
  active: z.optional(z.boolean()),
  start_date: z.optional(dateTime),
  expiration_date: z.optional(dateTime),
  expiration_rules: z.optional(expirationRulesSchema),
  metadata: z.optional(metadataSchema),
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
  loyalty: z.optional(z.discriminatedUnion('type', [fixedLoyalty, proportionalLoyalty])),
  source: z.optional(z.strictObject({ banner: z.optional(z.string().check(z.maxLength(1000))) })),
  active: z.optional(z.boolean()),
  start_date: z.optional(z.nullable(dateTime)),
  expiration_date: z.optional(z.nullable(dateTime)),
  expiration_rules: z.optional(z.nullable(expirationRulesSchema)),
  metadata: z.optional(metadataSchema),
});
export type UpdateEarningRuleBody = z.output<typeof updateEarningRuleBody>;
