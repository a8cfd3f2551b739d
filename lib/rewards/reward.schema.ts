import * as z from '../zod.js';
import { metadataSchema } from '../metadata.schema.js';
import { noValidationRules } from '../not-built.schema.js';
import { isStorableNumber, STORABLE_NUMBER_MESSAGE, storableNumbers } from '../db/storable.js';

const MAX_RATIO = 1_000_000_000_000;
const id = z.string().check(z.minLength(1), z.maxLength(1000));
/** Voucherify's request schema types the coin ratios as strings and its replies as numbers: take both. */
const numberLike = (inner: z.ZodMiniType<number, number>, error: string) =>
  z.union([inner, z.pipe(z.pipe(z.string().check(z.regex(/^\d+(\.\d+)?$/)), z.transform(Number)), inner)], { error });

const common = {
  name: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(200)),
  metadata: z.optional(metadataSchema.check(z.superRefine(storableNumbers))),
};

const campaignReward = z.strictObject({
  ...common,
  type: z.literal('CAMPAIGN'),
  parameters: z.strictObject({
    campaign: z.strictObject({ id, balance: z.optional(z.int().check(z.minimum(-Number.MAX_SAFE_INTEGER), z.maximum(Number.MAX_SAFE_INTEGER))) }),
  }),
});

const coinReward = z.strictObject({
  ...common,
  type: z.literal('COIN'),
  parameters: z.strictObject({
    coin: z.strictObject({
      exchange_ratio: numberLike(
        z.number().check(z.positive(), z.maximum(MAX_RATIO), z.refine(isStorableNumber, STORABLE_NUMBER_MESSAGE)),
        'must be a positive number',
      ),
      points_ratio: z.optional(numberLike(z.int().check(z.positive(), z.maximum(MAX_RATIO)), 'must be a positive integer')),
    }),
  }),
});

const materialReward = z.strictObject({
  ...common,
  type: z.literal('MATERIAL'),
  parameters: z.strictObject({
    // `sku` is how the official JS SDK's types name `sku_id`: taken as an alias.
    product: z.pipe(
      z.strictObject({ id, sku_id: z.optional(z.nullable(id)), sku: z.optional(id) }),
      z.transform(({ sku, ...p }) => ({ ...p, sku_id: p.sku_id ?? sku ?? null })),
    ),
  }),
  stock: z.optional(z.nullable(z.int().check(z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER)))),
  attributes: z.optional(
    z.strictObject({
      image_url: z.optional(z.url({ protocol: /^https?$/ }).check(z.maxLength(2000))),
      description: z.optional(z.string().check(z.maxLength(5000))),
    }),
  ),
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
export const createRewardAssignmentBody = z.strictObject({
  campaign: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(1000)),
  parameters: z.strictObject(
    {
      loyalty: z.strictObject(
        {
          points: z.int({ error: 'must be a positive integer' }).check(z.positive('must be a positive integer'), z.maximum(Number.MAX_SAFE_INTEGER)),
          // No automatic redemption here: `false` (or null) says so and is accepted; `true` would promise what never happens.
          auto_redeem: z.optional(z.nullable(z.literal(false, { error: 'must be false or null: automatic reward redemption does not exist in this service' }))),
        },
        { error: 'is required' },
      ),
    },
    { error: 'is required' },
  ),
  validation_rules: z.optional(noValidationRules),
});
export type CreateRewardAssignmentBody = z.output<typeof createRewardAssignmentBody>;
