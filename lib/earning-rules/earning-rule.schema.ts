import * as z from 'zod';
import { dateTime, expirationRulesSchema, metadataSchema } from '../campaigns/campaign.schema.js';
import { eventName } from '../event-schemas/event-schema.schema.js';

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

const points = z.int().min(1).max(1_000_000_000);

const fixed = z.strictObject({ type: z.literal('FIXED'), points });
const proportional = z.strictObject({
  type: z.literal('PROPORTIONAL'),
  calculation_type: z.literal('CUSTOM_EVENT_METADATA'),
  custom_event: z.strictObject({
    metadata: z.strictObject({ every: z.int().min(1).max(1_000_000_000), points, property: z.string().min(1).max(300) }),
  }),
});

/** One rule of POST /v1/loyalties/{campaignId}/earning-rules: a custom event earning rule (Voucherify's). */
export const earningRuleInput = z.strictObject({
  event: eventName,
  loyalty: z.discriminatedUnion('type', [fixed, proportional]),
  custom_event: z.strictObject({ schema_id: z.string().min(1).max(100) }).optional(),
  source: z.strictObject({ banner: z.string().max(1000).optional() }).optional(),
  active: z.boolean().optional(),
  start_date: dateTime.optional(),
  expiration_date: dateTime.optional(),
  expiration_rules: expirationRulesSchema.optional(),
  metadata: metadataSchema.optional(),
});
export type EarningRuleInput = z.output<typeof earningRuleInput>;

/** Rules per request: they are written in one transaction. */
export const MAX_RULES_PER_REQUEST = 50;

export const createEarningRulesBody = z.array(earningRuleInput).min(1).max(MAX_RULES_PER_REQUEST);
export type CreateEarningRulesBody = z.output<typeof createEarningRulesBody>;

export const campaignParams = z.strictObject({ campaignId: z.string().min(1).max(1000) });

export const earningRuleReplySchema = z.strictObject({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.null(),
  validation_rule_id: z.null(),
  loyalty: z.discriminatedUnion('type', [fixed, proportional]),
  event: z.string(),
  custom_event: z.strictObject({ schema_id: z.string() }),
  source: z.strictObject({ banner: z.string().optional(), object_id: z.string(), object_type: z.literal('campaign') }),
  active: z.boolean(),
  start_date: z.string().optional(),
  expiration_date: z.string().optional(),
  expiration_rules: expirationRulesSchema.optional(),
  metadata: z.record(z.string(), z.unknown()),
  automation_id: z.null(),
  object: z.literal('earning_rule'),
});
