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
