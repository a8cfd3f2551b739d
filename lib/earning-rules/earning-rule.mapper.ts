import { snakeize } from '../case.js';
import type { EarningRule } from './earning-rule.js';
import type * as z from '../zod.js';
import type { earningRuleListReplySchema, earningRuleReplySchema } from './earning-rule.reply.js';

/** Voucherify's earning rule object (a custom event rule, or an `order.paid` rule without `custom_event`). */
export const toEarningRuleReply = (r: EarningRule): z.input<typeof earningRuleReplySchema> => ({
  id: r.id,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
  validation_rule_id: null,
  loyalty: snakeize(r.loyalty),
  event: r.event,
  ...(r.customEventSchemaId !== null ? { custom_event: { schema_id: r.customEventSchemaId } } : {}),
  source: { ...(r.banner !== null ? { banner: r.banner } : {}), object_id: r.campaignId, object_type: 'campaign' },
  active: r.active,
  ...(r.startDate !== null ? { start_date: r.startDate } : {}),
  ...(r.expirationDate !== null ? { expiration_date: r.expirationDate } : {}),
  ...(r.expirationRules !== null ? { expiration_rules: snakeize(r.expirationRules) } : {}),
  ...(r.pendingPoints ? { pending_points: { period_type: r.pendingPoints.periodType, period_value: r.pendingPoints.periodValue } } : {}),
  metadata: r.metadata,
  automation_id: null,
  object: 'earning_rule',
});

/** A page of a program's earning rules (Voucherify's list object). */
export const toEarningRuleListReply = (p: { rules: EarningRule[]; total: number }): z.input<typeof earningRuleListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: p.rules.map(toEarningRuleReply),
  total: p.total,
});
