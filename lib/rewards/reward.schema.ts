import * as z from '../zod.js';
import { metadataSchema } from '../metadata.schema.js';
import { noValidationRules } from '../not-built.schema.js';
import { isStorableNumber, STORABLE_NUMBER_MESSAGE, storableNumbers } from '../db/storable.js';
import { queryInt } from '../http/query-params.js';

const MAX_RATIO = 1_000_000_000_000;
const id = z.string().check(z.minLength(1), z.maxLength(1000));
/** Voucherify's request schema types the coin ratios as strings and its replies as numbers: take both. */
const numberLike = (inner: z.ZodMiniType<number, number>, error: string) =>
  z.union([inner, z.pipe(z.pipe(z.string().check(z.regex(/^\d+(\.\d+)?$/)), z.transform(Number)), inner)], { error });

const common = {
  name: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(200)),
  metadata: z.optional(metadataSchema.check(z.superRefine(storableNumbers))),
};

const campaignParameters = z.strictObject({
  campaign: z.strictObject({ id, balance: z.optional(z.int().check(z.minimum(-Number.MAX_SAFE_INTEGER), z.maximum(Number.MAX_SAFE_INTEGER))) }),
});
const coinParameters = z.strictObject({
  coin: z.strictObject({
    exchange_ratio: numberLike(
      z.number().check(z.positive(), z.maximum(MAX_RATIO), z.refine(isStorableNumber, STORABLE_NUMBER_MESSAGE)),
      'must be a positive number',
    ),
    points_ratio: z.optional(numberLike(z.int().check(z.positive(), z.maximum(MAX_RATIO)), 'must be a positive integer')),
  }),
});
const productParameters = z.strictObject({
  // `sku` is how the official JS SDK's types name `sku_id`: taken as an alias.
  product: z.pipe(
    z.strictObject({ id, sku_id: z.optional(z.nullable(id)), sku: z.optional(id) }),
    z.transform(({ sku, ...p }) => ({ ...p, sku_id: p.sku_id ?? sku ?? null })),
  ),
});
const stock = z.nullable(z.int().check(z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER)));
const attributes = z.strictObject({
  image_url: z.optional(z.url({ protocol: /^https?$/ }).check(z.maxLength(2000))),
  description: z.optional(z.string().check(z.maxLength(5000))),
});

const campaignReward = z.strictObject({ ...common, type: z.literal('CAMPAIGN'), parameters: campaignParameters });

const coinReward = z.strictObject({ ...common, type: z.literal('COIN'), parameters: coinParameters });

const materialReward = z.strictObject({
  ...common,
  type: z.literal('MATERIAL'),
  parameters: productParameters,
  stock: z.optional(stock),
  attributes: z.optional(attributes),
});

const PARAMETER_TYPES = { campaign: 'CAMPAIGN', coin: 'COIN', product: 'MATERIAL' } as const;

/** Voucherify's examples always send `type`, its request schema does not require it: infer it from `parameters`. */
function inferType(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input) || 'type' in input) return input;
  const parameters = (input as { parameters?: unknown }).parameters;
  if (typeof parameters !== 'object' || parameters === null) return input;
  const kinds = Object.keys(parameters).filter((k): k is keyof typeof PARAMETER_TYPES => Object.hasOwn(PARAMETER_TYPES, k));
  const only = kinds.length === 1 ? kinds[0] : undefined;
  return only ? { ...input, type: PARAMETER_TYPES[only] } : input;
}

/** POST /v1/rewards. */
export const createRewardBody = z.preprocess(inferType, z.discriminatedUnion('type', [campaignReward, coinReward, materialReward]));
export type CreateRewardBody = z.output<typeof createRewardBody>;

export const rewardParams = z.strictObject({ rewardId: z.string().check(z.minLength(1), z.maxLength(1000)) });

/**
 * POST /v1/rewards/{rewardId}/assignments (spec): the campaign and the reward's price in points,
 * `parameters` required for every reward (the spec; the reference's pay-with-points body has none).
 */
const pointsPrice = z.int({ error: 'must be a positive integer' }).check(z.positive('must be a positive integer'), z.maximum(Number.MAX_SAFE_INTEGER));
// No automatic redemption here: `false` (or null) says so and is accepted; `true` would promise what never happens.
const autoRedeem = z.optional(z.nullable(z.literal(false, { error: 'must be false or null: automatic reward redemption does not exist in this service' })));
const assignmentCost = z.strictObject(
  { loyalty: z.strictObject({ points: pointsPrice, auto_redeem: autoRedeem }, { error: 'is required' }) },
  { error: 'is required' },
);

export const createRewardAssignmentBody = z.strictObject({
  campaign: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(1000)),
  parameters: assignmentCost,
  validation_rules: z.optional(noValidationRules),
});
export type CreateRewardAssignmentBody = z.output<typeof createRewardAssignmentBody>;

const limit = z._default(queryInt(1, 100), 10);
const page = z._default(queryInt(1, 100), 1);

/** GET /v1/rewards. */
export const listRewardsQuery = z.strictObject({ limit, page, assignment_id: z.optional(id) });
export type ListRewardsQuery = z.output<typeof listRewardsQuery>;

/**
 * PUT /v1/rewards/{rewardId}: any of the creation fields but `type`; `parameters` must be of the
 * reward's own type (checked by the service, which knows it).
 */
export const updateRewardBody = z.strictObject({
  name: z.optional(common.name),
  metadata: common.metadata,
  parameters: z.optional(z.union([campaignParameters, coinParameters, productParameters])),
  stock: z.optional(stock),
  attributes: z.optional(attributes),
});
export type UpdateRewardBody = z.output<typeof updateRewardBody>;

/** GET /v1/rewards/{rewardId}/assignments. */
export const listRewardAssignmentsQuery = z.strictObject({ limit, page });
export type ListRewardAssignmentsQuery = z.output<typeof listRewardAssignmentsQuery>;

export const rewardAssignmentParams = z.strictObject({ rewardId: id, assignmentId: id });

/** `{campaignId}` (a loyalty program's id or name) of the loyalty-path assignment routes. */
export const loyaltyRewardsParams = z.strictObject({ campaignId: id });
export const loyaltyRewardAssignmentParams = z.strictObject({ campaignId: id, assignmentId: id });

/** GET /v1/loyalties/{campaignId}/rewards. */
export const listLoyaltyRewardAssignmentsQuery = z.strictObject({ limit, page, assignment_id: z.optional(id) });
export type ListLoyaltyRewardAssignmentsQuery = z.output<typeof listLoyaltyRewardAssignmentsQuery>;

/**
 * GET /v1/loyalties/{campaignId}/reward-assignments: the same page, whose one-assignment filter the
 * reference names `assignmentId` on this path (`assignment_id` on …/rewards).
 */
export const listRewardAssignments1Query = z.pipe(
  z.strictObject({ limit, page, assignmentId: z.optional(id) }),
  z.transform(({ assignmentId, ...rest }): ListLoyaltyRewardAssignmentsQuery => ({ ...rest, assignment_id: assignmentId })),
);

/** PUT …/assignments/{assignmentId} and PUT /v1/loyalties/{campaignId}/rewards/{assignmentId}: a new price. */
export const updateRewardAssignmentBody = z.strictObject({
  parameters: z.optional(z.strictObject({ loyalty: z.optional(z.strictObject({ points: z.optional(pointsPrice), auto_redeem: autoRedeem })) })),
});
export type UpdateRewardAssignmentBody = z.output<typeof updateRewardAssignmentBody>;

/**
 * POST /v1/loyalties/{campaignId}/rewards: the reference's body is an array and its reply one
 * assignment, so one item per request.
 */
const loyaltyAssignmentItem = z.strictObject({
  reward: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(1000)),
  parameters: assignmentCost,
  validation_rules: z.optional(noValidationRules),
});
export const createLoyaltyRewardAssignmentBody = z.pipe(
  z.array(loyaltyAssignmentItem).check(z.minLength(1), z.maxLength(1, 'must hold one assignment: the reply is one reward assignment')),
  // Exactly one item, checked just above.
  z.transform((items) => items[0] as z.output<typeof loyaltyAssignmentItem>),
);
export type CreateLoyaltyRewardAssignmentBody = z.output<typeof createLoyaltyRewardAssignmentBody>;
