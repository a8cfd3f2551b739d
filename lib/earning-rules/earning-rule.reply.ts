import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';
import { expirationRulesSchema } from '../campaigns/voucher-template.schema.js';
import { pendingPointsInput, ruleLoyalty } from './earning-rule.schema.js';

/** The earning rule object (lib/earning-rules/earning-rule.mapper.ts); not imported by handlers. */
export const earningRuleReplySchema = z.strictObject({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.nullable(z.iso.datetime()),
  validation_rule_id: z.null(),
  loyalty: ruleLoyalty,
  event: z.string(),
  custom_event: z.optional(z.strictObject({ schema_id: z.string() })),
  source: z.strictObject({ banner: z.optional(z.string()), object_id: z.string(), object_type: z.literal('campaign') }),
  active: z.boolean(),
  start_date: z.optional(z.string()),
  expiration_date: z.optional(z.string()),
  expiration_rules: z.optional(expirationRulesSchema),
  pending_points: z.optional(pendingPointsInput),
  metadata: z.record(z.string(), z.unknown()),
  automation_id: z.null(),
  object: z.literal('earning_rule'),
});

export const earningRuleListReplySchema = listReply(earningRuleReplySchema, { dataRef: 'data' });
