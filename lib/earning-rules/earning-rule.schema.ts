import * as z from '../zod.js';
import { expirationRulesSchema } from '../campaigns/voucher-template.schema.js';
import { dateTime } from '../date-time.schema.js';
import { metadataSchema } from '../metadata.schema.js';
import { eventName } from '../custom-event-schemas/event-schema.schema.js';

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

const fixed = z.strictObject({ type: z.literal('FIXED'), points });
const proportional = z.strictObject({
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
  loyalty: z.discriminatedUnion('type', [fixed, proportional]),
  custom_event: z.optional(z.strictObject({ schema_id: z.string().check(z.minLength(1), z.maxLength(100)) })),
  source: z.optional(z.strictObject({ banner: z.optional(z.string().check(z.maxLength(1000))) })),
  active: z.optional(z.boolean()),
  start_date: z.optional(dateTime),
  expiration_date: z.optional(dateTime),
  expiration_rules: z.optional(expirationRulesSchema),
  metadata: z.optional(metadataSchema),
});
export type EarningRuleInput = z.output<typeof earningRuleInput>;

/** Rules per request: they are written in one transaction. */
export const MAX_RULES_PER_REQUEST = 50;

export const createEarningRulesBody = z.array(earningRuleInput).check(z.minLength(1), z.maxLength(MAX_RULES_PER_REQUEST));
export type CreateEarningRulesBody = z.output<typeof createEarningRulesBody>;

export const campaignParams = z.strictObject({ campaignId: z.string().check(z.minLength(1), z.maxLength(1000)) });

export const earningRuleReplySchema = z.strictObject({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.null(),
  validation_rule_id: z.null(),
  loyalty: z.discriminatedUnion('type', [fixed, proportional]),
  event: z.string(),
  custom_event: z.strictObject({ schema_id: z.string() }),
  source: z.strictObject({ banner: z.optional(z.string()), object_id: z.string(), object_type: z.literal('campaign') }),
  active: z.boolean(),
  start_date: z.optional(z.string()),
  expiration_date: z.optional(z.string()),
  expiration_rules: z.optional(expirationRulesSchema),
  metadata: z.record(z.string(), z.unknown()),
  automation_id: z.null(),
  object: z.literal('earning_rule'),
});
