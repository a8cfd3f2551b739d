import * as z from 'zod';
import { metadataSchema } from '../campaigns/campaign.schema.js';
import { isStorableNumber, STORABLE_NUMBER_MESSAGE, storableNumbers } from '../db/storable.js';

const MAX_RATIO = 1_000_000_000_000;
const id = z.string().min(1).max(1000);
/** Voucherify's request schema types the coin ratios as strings and its replies as numbers: take both. */
const numberLike = (inner: z.ZodNumber, error: string) =>
  z.union([inner, z.string().regex(/^\d+(\.\d+)?$/).transform(Number).pipe(inner)], { error });

const common = {
  name: z.string({ error: 'is required' }).min(1).max(200),
  metadata: metadataSchema.superRefine(storableNumbers).optional(),
};

const campaignReward = z.strictObject({
  ...common,
  type: z.literal('CAMPAIGN'),
  parameters: z.strictObject({
    campaign: z.strictObject({ id, balance: z.int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER).optional() }),
  }),
});

const coinReward = z.strictObject({
  ...common,
  type: z.literal('COIN'),
  parameters: z.strictObject({
    coin: z.strictObject({
      exchange_ratio: numberLike(z.number().positive().max(MAX_RATIO).refine(isStorableNumber, STORABLE_NUMBER_MESSAGE), 'must be a positive number'),
      points_ratio: numberLike(z.int().positive().max(MAX_RATIO), 'must be a positive integer').optional(),
    }),
  }),
});

const materialReward = z.strictObject({
  ...common,
  type: z.literal('MATERIAL'),
  parameters: z.strictObject({
    // `sku` is how the official JS SDK's types name `sku_id`: taken as an alias.
    product: z
      .strictObject({ id, sku_id: id.nullable().optional(), sku: id.optional() })
      .transform(({ sku, ...p }) => ({ ...p, sku_id: p.sku_id ?? sku ?? null })),
  }),
  stock: z.int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable().optional(),
  attributes: z
    .strictObject({ image_url: z.url({ protocol: /^https?$/ }).max(2000).optional(), description: z.string().max(5000).optional() })
    .optional(),
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

export const rewardParams = z.strictObject({ rewardId: z.string().min(1).max(1000) });

/** POST /v1/rewards/{rewardId}/assignments (spec): the campaign and the reward's price in points. */
export const createRewardAssignmentBody = z.strictObject({
  campaign: z.string({ error: 'is required' }).min(1).max(1000),
  parameters: z.strictObject(
    {
      loyalty: z.strictObject(
        { points: z.int({ error: 'must be a positive integer' }).positive('must be a positive integer').max(Number.MAX_SAFE_INTEGER) },
        { error: 'is required' },
      ),
    },
    { error: 'is required' },
  ),
});
export type CreateRewardAssignmentBody = z.output<typeof createRewardAssignmentBody>;

const dateTimeReply = z.iso.datetime();

export const rewardReplySchema = z.strictObject({
  id: z.string().regex(/^rew_/),
  name: z.string(),
  type: z.enum(['CAMPAIGN', 'COIN', 'MATERIAL']),
  parameters: z.union([
    z.strictObject({
      campaign: z.strictObject({
        id: z.string(),
        balance: z.int().optional(),
        type: z.enum(['DISCOUNT_COUPONS', 'GIFT_VOUCHERS', 'LOYALTY_PROGRAM']),
      }),
    }),
    z.strictObject({ coin: z.strictObject({ exchange_ratio: z.number(), points_ratio: z.int() }) }),
    z.strictObject({ product: z.strictObject({ id: z.string(), sku_id: z.string().nullable() }) }),
  ]),
  stock: z.int().nullable(),
  redeemed: z.int().nullable(),
  attributes: z.strictObject({ image_url: z.string().optional(), description: z.string().optional() }),
  metadata: z.record(z.string(), z.unknown()),
  created_at: dateTimeReply,
  updated_at: dateTimeReply.nullable(),
  object: z.literal('reward'),
});

export const rewardAssignmentReplySchema = z.strictObject({
  id: z.string().regex(/^rewa_/),
  reward_id: z.string(),
  related_object_id: z.string(),
  related_object_type: z.literal('campaign'),
  parameters: z.strictObject({ loyalty: z.strictObject({ points: z.int().positive() }) }),
  created_at: dateTimeReply,
  updated_at: dateTimeReply.nullable(),
  object: z.literal('reward_assignment'),
});
