import { stackingRulesMembers } from '../validations/stacking-rules.schema.js';
import * as z from '../zod.js';

/*
 * Request schemas of the Management API's stacking rules (/management/v1/projects/{projectId}/stacking-rules[/{stackingRulesId}]),
 * after the reference's ManagementProjectsStackingRulesBase: the members of PUT /v1/stacking-rules (one store).
 */

const projectId = z.string().check(z.minLength(1), z.maxLength(100));

export const stackingRulesListParams = z.strictObject({ projectId });
export const stackingRulesParams = z.strictObject({ projectId, stackingRulesId: z.string().check(z.minLength(1), z.maxLength(100)) });

const categoryIds = z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(100));

/**
 * The calculator works on a running total (each discount on what the ones before left): that is
 * DISCOUNTED_AMOUNT for every category. Asking for INITIAL_AMOUNT would change money, so it is refused.
 */
const calculationMembers = {
  discount_calculation_mode: z.optional(
    z.literal('DISCOUNTED_AMOUNT', { error: 'only DISCOUNTED_AMOUNT is supported here: each discount works on what the ones before it left' }),
  ),
  initial_amount_mode_categories: z.optional(
    z.array(z.never({ error: 'is not supported here: every category is in DISCOUNTED_AMOUNT mode' })).check(z.maxLength(0)),
  ),
  discounted_amount_mode_categories: z.optional(categoryIds),
};

/** create-stacking-rules: the members sent over the defaults. */
export const createStackingRulesBody = z.strictObject({ ...stackingRulesMembers, ...calculationMembers });
export type CreateStackingRulesBody = z.output<typeof createStackingRulesBody>;

/** update-stacking-rules: the members sent replace the stored ones (an array whole); the others stay. */
export const updateStackingRulesBody = z.strictObject({ ...stackingRulesMembers, ...calculationMembers });
export type UpdateStackingRulesBody = z.output<typeof updateStackingRulesBody>;
