import { queryBoolean } from '../http/query-params.js';
import { metadataSchema } from '../metadata.schema.js';
import { createOrderBody } from '../orders/order.schema.js';
import * as z from '../zod.js';

const ref = z.string().check(z.minLength(1), z.maxLength(1000));

/** `{memberId}` alone: the loyalty card's code or id, of any program. */
export const cardMemberParams = z.strictObject({ memberId: ref });

/** `{campaignId}` (id or name) and `{memberId}` (the card's code or id). */
export const programMemberParams = z.strictObject({ campaignId: ref, memberId: ref });

/**
 * POST …/members/{memberId}/redemption (the reference's LoyaltiesMembersRedemptionRedeemRequestBody).
 * `reward` is optional here so that its absence gets the reference's `missing_reward`; `order` is
 * the pay-with-points order (`missing_order` without it).
 */
export const redeemRewardBody = z.strictObject({
  reward: z.optional(
    z.strictObject({
      id: ref,
      points: z.optional(z.int().check(z.positive(), z.maximum(1_000_000_000))),
    }),
  ),
  order: z.optional(createOrderBody),
  metadata: z.optional(metadataSchema),
});
export type RedeemRewardBody = z.output<typeof redeemRewardBody>;

/** GET /v1/loyalties/members/{memberId}/rewards. */
export const memberRewardsQuery = z.strictObject({ affordable_only: z.optional(queryBoolean) });
export type MemberRewardsQuery = z.output<typeof memberRewardsQuery>;
