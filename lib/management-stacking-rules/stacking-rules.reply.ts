import { listReply } from '../openapi/list-reply.js';
import { stackingRulesReplySchema } from '../validations/validation.reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of the management stacking-rules routes (stacking-rules.mapper.ts writes these
 * shapes). Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

const categoryIds = z.array(z.string());

/** The reference's ManagementProjectsStackingRules: the set rules with their id; the defaults (list only) have neither id nor dates. */
export const managementStackingRulesReplySchema = z.strictObject({
  id: z.optional(z.string()),
  ...stackingRulesReplySchema.shape,
  discount_calculation_mode: z.literal('DISCOUNTED_AMOUNT'),
  initial_amount_mode_categories: categoryIds,
  discounted_amount_mode_categories: categoryIds,
  created_at: z.optional(z.iso.datetime()),
  updated_at: z.optional(z.iso.datetime()),
});

export const managementStackingRulesListReplySchema = listReply(managementStackingRulesReplySchema, { dataRef: 'data' });
