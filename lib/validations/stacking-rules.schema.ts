import * as z from '../zod.js';
import { SORTING_RULES } from '../redemptions/stacking-order.js';
import { APPLICATION_MODES } from './stacking-rules.js';

const categoryIds = z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(100));

/** The reference's StackingRules members, each optional: the ones sent change, the others stay. */
export const stackingRulesMembers = {
  redeemables_limit: z.optional(z.int().check(z.minimum(1), z.maximum(30))),
  applicable_redeemables_limit: z.optional(z.int().check(z.minimum(1), z.maximum(30))),
  applicable_redeemables_per_category_limit: z.optional(z.int().check(z.minimum(1), z.maximum(30))),
  applicable_redeemables_category_limits: z.optional(z.record(z.string().check(z.minLength(1), z.maxLength(100)), z.int().check(z.minimum(1), z.maximum(10)))),
  applicable_exclusive_redeemables_limit: z.optional(z.int().check(z.minimum(1), z.maximum(5))),
  applicable_exclusive_redeemables_per_category_limit: z.optional(z.int().check(z.minimum(1), z.maximum(5))),
  exclusive_categories: z.optional(categoryIds),
  joint_categories: z.optional(categoryIds),
  redeemables_application_mode: z.optional(z.enum(APPLICATION_MODES)),
  redeemables_sorting_rule: z.optional(z.enum(SORTING_RULES)),
  redeemables_products_application_mode: z.optional(z.enum(['STACK', 'ONCE'])),
  redeemables_no_effect_rule: z.optional(z.enum(['REDEEM_ANYWAY', 'SKIP'])),
  no_effect_skip_categories: z.optional(categoryIds),
  no_effect_redeem_anyway_categories: z.optional(categoryIds),
  redeemables_rollback_order_mode: z.optional(z.enum(['WITH_ORDER', 'WITHOUT_ORDER'])),
};
const membersObject = z.strictObject(stackingRulesMembers);
export type StackingRulesMembers = z.output<typeof membersObject>;

/** PUT /v1/stacking-rules: the members to change; the others stay. */
export const updateProjectStackingRulesBody = z
  .strictObject(stackingRulesMembers)
  .check(z.refine((b) => Object.keys(b).length > 0, 'must set at least one member'));
export type UpdateProjectStackingRulesBody = z.output<typeof updateProjectStackingRulesBody>;
