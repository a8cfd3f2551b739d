import { toStackingRulesReply } from '../validations/validation.mapper.js';
import type { ProjectStackingRules } from '../validations/stacking-rules.service.js';
import type * as z from '../zod.js';
import type { managementStackingRulesListReplySchema, managementStackingRulesReplySchema } from './stacking-rules.reply.js';

/** The reference's ManagementProjectsStackingRules; the calculation members say what the calculator does (a running total). */
export function toManagementStackingRulesReply(p: ProjectStackingRules): z.input<typeof managementStackingRulesReplySchema> {
  return {
    ...(p.id !== null ? { id: p.id } : {}),
    ...toStackingRulesReply(p.rules),
    discount_calculation_mode: 'DISCOUNTED_AMOUNT',
    initial_amount_mode_categories: [],
    discounted_amount_mode_categories: [],
    ...(p.createdAt !== null ? { created_at: p.createdAt } : {}),
    ...(p.updatedAt !== null && p.id !== null ? { updated_at: p.updatedAt } : {}),
  };
}

/** list-stacking-rules: always one item. */
export const toManagementStackingRulesListReply = (all: ProjectStackingRules[]): z.input<typeof managementStackingRulesListReplySchema> => ({
  object: 'list',
  data_ref: 'data',
  data: all.map(toManagementStackingRulesReply),
  total: all.length,
});
