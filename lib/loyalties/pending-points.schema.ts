import * as z from '../zod.js';
import { queryInt } from '../http/query-params.js';

const ref = z.string().check(z.minLength(1), z.maxLength(1000));

/** `{memberId}` (the card's code or id) and `{pendingPointsId}`. */
export const pendingPointsParams = z.strictObject({ memberId: ref, pendingPointsId: ref });

/** The pending points lists: `limit`, `order` by id (`id` ascending, the default; `-id` descending) and the `starting_after_id` cursor. */
export const pendingPointsQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  order: z._default(z.enum(['id', '-id']), 'id'),
  starting_after_id: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
});
export type PendingPointsQuery = z.output<typeof pendingPointsQuery>;

/** POST …/pending-points/{pendingPointsId}/balance (the reference's LoyaltiesMembersPendingPointsBalanceRequestBody): points added (negative: removed), never 0. */
export const pendingPointsAdjustBody = z.strictObject({
  points: z.int().check(
    z.minimum(-1_000_000_000),
    z.maximum(1_000_000_000),
    z.refine((p) => p !== 0, 'must not be 0'),
  ),
});
export type PendingPointsAdjustBody = z.output<typeof pendingPointsAdjustBody>;
