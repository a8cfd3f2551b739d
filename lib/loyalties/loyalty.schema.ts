import * as z from '../zod.js';
import { queryInt } from '../http/query-params.js';

const ref = z.string().check(z.minLength(1), z.maxLength(1000));

/** `{campaignId}` (id or name) and `{memberId}` (the card's code or id). */
export const memberParams = z.strictObject({ campaignId: ref, memberId: ref });

const MAX_POINTS = 1_000_000_000;

/** POST /v1/loyalties/{campaignId}/members/{memberId}/balance (Voucherify's LoyaltiesMembersBalanceUpdateRequestBody). */
export const balanceBody = z
  .strictObject({
    points: z.int().check(
      z.minimum(-MAX_POINTS),
      z.maximum(MAX_POINTS),
      z.refine((p) => p !== 0, 'must not be 0'),
    ),
    expiration_type: z.optional(z.enum(['PROGRAM_RULES', 'CUSTOM_DATE', 'NON_EXPIRING'])),
    expiration_date: z.optional(z.union([z.iso.date(), z.iso.datetime({ offset: true })])),
    reason: z.optional(z.string().check(z.maxLength(1000))),
    source_id: z.optional(z.string().check(z.maxLength(1000))),
  })
  .check(
    z.refine((b) => b.points > 0 || (b.expiration_type === undefined && b.expiration_date === undefined), {
      message: 'expiration_type and expiration_date apply only to added points',
    }),
  );
export type BalanceBody = z.output<typeof balanceBody>;

export const pointsExpirationQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 1_000_000), 1),
});
export type PointsExpirationQuery = z.output<typeof pointsExpirationQuery>;
