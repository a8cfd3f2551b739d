import type * as z from '../zod.js';
import { validateStackedDiscountsBody } from '../validations/validation.schema.js';

/**
 * POST /v1/redemptions (the reference's RedemptionsRedeemRequestBody): the reference gives it the
 * fields of a validation (StackableValidateRedeemBase and `options`), and the same engine evaluates
 * both, so it is the validation's schema. `options.expand` is accepted; the reply always carries the
 * order and the redemptions in full.
 */
export const redeemStackedDiscountsBody = validateStackedDiscountsBody;
export type RedeemStackedDiscountsBody = z.output<typeof redeemStackedDiscountsBody>;
