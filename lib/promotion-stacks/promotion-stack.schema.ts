import * as z from '../zod.js';
import { dateTime } from '../date-time.schema.js';
import { queryInt } from '../http/query-params.js';
import { MAX_STACK_TIERS } from './promotion-stack.js';

const stackTierId = z.string().check(z.minLength(1), z.maxLength(200));
const stackName = z.string().check(z.minLength(1), z.maxLength(1000));
const categoryId = z.string().check(z.minLength(1), z.maxLength(200));

/** The reference's tier configuration: the tiers in the order they apply; MANUAL, its only hierarchy mode. */
const stackTiers = z.strictObject({
  ids: z.array(stackTierId).check(z.minLength(1), z.maxLength(MAX_STACK_TIERS)),
  hierarchy_mode: z.optional(z.literal('MANUAL')),
});

/** Path of the stack endpoints: the campaign (id or name) and the stack's id. */
export const promotionStackParams = z.strictObject({
  campaignId: z.string().check(z.minLength(1), z.maxLength(1000)),
  stackId: z.string().check(z.minLength(1), z.maxLength(200)),
});

/** POST /v1/promotions/{campaignId}/stacks (the reference's PromotionsStacksCreateRequestBody). */
export const createPromotionStackBody = z.strictObject({
  name: stackName,
  tiers: stackTiers,
  category_id: z.optional(categoryId),
});
export type CreatePromotionStackBody = z.output<typeof createPromotionStackBody>;

/** PUT /v1/promotions/{campaignId}/stacks/{stackId}: the fields sent replace the stack's; `category_id: null` clears it. */
export const updatePromotionStackBody = z.strictObject({
  name: z.optional(stackName),
  tiers: z.optional(stackTiers),
  category_id: z.optional(z.nullable(categoryId)),
});
export type UpdatePromotionStackBody = z.output<typeof updatePromotionStackBody>;

/** GET /v1/promotions/stacks: a page of the project's stacks; the date bounds as the SDK writes `{created_at: {before}}`. */
export const listAllPromotionStacksQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 100), 1),
  order: z._default(z.enum(['created_at', '-created_at', 'updated_at', '-updated_at', 'name', '-name']), 'created_at'),
  'created_at[before]': z.optional(dateTime),
  'created_at[after]': z.optional(dateTime),
  'updated_at[before]': z.optional(dateTime),
  'updated_at[after]': z.optional(dateTime),
});
export type ListAllPromotionStacksQuery = z.output<typeof listAllPromotionStacksQuery>;
