import { queryInt } from '../http/query-params.js';
import { metadataSchema } from '../metadata.schema.js';
import * as z from '../zod.js';

const ref = z.string().check(z.minLength(1), z.maxLength(1000));
const mappedId = z.string().check(z.minLength(1), z.maxLength(100));
const points = z.int().check(z.minimum(0), z.maximum(1_000_000_000));

/** Tiers a program may hold: all of them live in one item that every points change of a card reads. */
export const MAX_TIERS_PER_PROGRAM = 20;
/** Mappings a tier may hold per kind (earning rules, rewards). */
export const MAX_TIER_MAPPINGS = 100;

/** The reference's MappingPoints: MULTIPLY (a factor) or CUSTOM (a fixed number of points). */
export const tierMappingSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('MULTIPLY'), multiplier: z.number().check(z.minimum(0), z.maximum(1000)) }),
  z.strictObject({ type: z.literal('CUSTOM'), points }),
]);

const mappings = z
  .record(mappedId, tierMappingSchema)
  .check(z.refine((m) => Object.keys(m).length <= MAX_TIER_MAPPINGS, `must not hold more than ${MAX_TIER_MAPPINGS} entries`));

/** One tier of POST /v1/loyalties/{campaignId}/tiers (LoyaltyTierBase + metadata). `to` absent or null: no top. */
export const tierInput = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  points: z.strictObject({ from: z.optional(z.nullable(points)), to: z.optional(z.nullable(points)) }),
  earning_rules: z.optional(z.nullable(mappings)),
  rewards: z.optional(z.nullable(mappings)),
  metadata: z.optional(z.nullable(metadataSchema)),
});
export type TierInput = z.output<typeof tierInput>;

export const createTiersBody = z.array(tierInput).check(z.minLength(1), z.maxLength(MAX_TIERS_PER_PROGRAM));
export type CreateTiersBody = z.output<typeof createTiersBody>;

export const tierProgramParams = z.strictObject({ campaignId: ref });

/** `{campaignId}` (id or name) and `{loyaltyTierId}`. */
export const tierParams = z.strictObject({ campaignId: ref, loyaltyTierId: ref });

/** `{memberId}`: a loyalty card's code or id, of any program. */
export const tierMemberParams = z.strictObject({ memberId: ref });

/** GET /v1/loyalties/{campaignId}/tiers (`limit`, `order`; no page in the reference). */
export const listTiersQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  order: z._default(z.enum(['created_at', '-created_at', 'updated_at', '-updated_at']), 'created_at'),
});
export type ListTiersQuery = z.output<typeof listTiersQuery>;

/** GET …/tiers/{loyaltyTierId}/earning-rules and …/rewards (`limit`, `page`). */
export const tierPageQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 100), 1),
});
export type TierPageQuery = z.output<typeof tierPageQuery>;

const qualificationPeriod = z.enum(['MONTH', 'QUARTER', 'HALF_YEAR', 'YEAR']);
const needsPeriod = (v: { qualification_type: string; qualification_period?: string | null | undefined; expiration_date: { type: string } }): boolean =>
  v.qualification_type === 'POINTS_IN_PERIOD' || v.expiration_date.type === 'END_OF_PERIOD' || v.expiration_date.type === 'END_OF_NEXT_PERIOD';

/**
 * A loyalty program's `loyalty_tiers_expiration` (the reference's LoyaltyTiersExpirationAll; PUT of the
 * program, both doors): lib/loyalties/tier-period.ts applies it. `start_date.type` NEXT_PERIOD is refused
 * (a tier waiting for the next period is not built; ignoring it would grant tiers early).
 */
export const tiersExpirationSchema = z
  .strictObject({
    qualification_type: z.enum(['BALANCE', 'POINTS_IN_PERIOD']),
    qualification_period: z.optional(z.nullable(qualificationPeriod)),
    start_date: z.strictObject({
      type: z.enum(['IMMEDIATE'], { error: 'must be IMMEDIATE: a tier that starts with the next period (NEXT_PERIOD) is not supported here' }),
    }),
    expiration_date: z.strictObject({
      type: z.enum(['END_OF_PERIOD', 'END_OF_NEXT_PERIOD', 'BALANCE_DROP', 'CUSTOM']),
      extend: z
        .string()
        .check(z.regex(/^(P(\d{1,3}Y)?(\d{1,4}M)?(\d{1,3}W)?(\d{1,5}D)?)?$/, 'must be an ISO 8601 duration in years, months, weeks or days (P3M, P1Y, P10D)')),
      rounding: z.optional(
        z.nullable(
          z.strictObject({
            type: z.enum(['MONTH', 'QUARTER', 'HALF_YEAR', 'YEAR', 'CUSTOM']),
            strategy: z.optional(z.nullable(z.enum(['START', 'END']))),
            unit: z.optional(z.nullable(z.literal('MONTH'))),
            value: z.optional(z.nullable(z.int().check(z.minimum(0), z.maximum(11)))),
          }),
        ),
      ),
    }),
  })
  .check(
    z.refine((v) => !needsPeriod(v) || (v.qualification_period ?? null) !== null, {
      message: 'is required with POINTS_IN_PERIOD, END_OF_PERIOD and END_OF_NEXT_PERIOD',
      path: ['qualification_period'],
    }),
    z.refine((v) => v.expiration_date.rounding?.type !== 'CUSTOM' || (v.expiration_date.rounding.value ?? null) !== null, {
      message: 'is required when the rounding type is CUSTOM (0 = January … 11 = December)',
      path: ['expiration_date', 'rounding', 'value'],
    }),
  );
export type TiersExpirationBody = z.output<typeof tiersExpirationSchema>;
