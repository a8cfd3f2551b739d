import { NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { EvaluatedRedeemable, Evaluation } from './evaluation.js';
import type { ValidatePromotionTierBody, ValidateVoucherBody } from './legacy-validation.schema.js';
import type { StackedRedeemableInput, StackedRequest } from './validation.schema.js';
import { validateStackedDiscounts } from './validation.service.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'ids' | 'clock' | 'readHints' | 'logger'>;

/** A stacked evaluation of exactly one redeemable, and that redeemable. */
export interface SingleEvaluation {
  evaluation: Evaluation;
  redeemable: EvaluatedRedeemable;
}

/**
 * Evaluates one redeemable through the stacked engine (validateStackedDiscounts: the same validity,
 * stacking rules, calculator and LOCK session holds as POST /v1/validations).
 * @throws NotFoundError (voucher / promotion_tier) when the redeemable does not exist; as validateStackedDiscounts otherwise.
 */
async function validateOne(
  deps: Deps,
  projectId: string,
  redeemable: StackedRedeemableInput,
  request: Omit<StackedRequest, 'redeemables'>,
): Promise<SingleEvaluation> {
  const evaluation = await validateStackedDiscounts(deps, projectId, { ...request, redeemables: [redeemable] });
  const [evaluated] = evaluation.redeemables;
  if (evaluated === undefined) throw new Error('an evaluation of one redeemable has one verdict');
  if (evaluated.errorKey === 'resource_not_found') {
    throw new NotFoundError(redeemable.object === 'promotion_tier' ? 'promotion_tier' : 'voucher', redeemable.id);
  }
  return { evaluation, redeemable: evaluated };
}

/**
 * POST /v1/vouchers/{code}/validate: the voucher (or gift card, with `gift.credits`) evaluated alone
 * against the order. Writes nothing but a LOCK `session`'s holds when it is valid.
 * @throws NotFoundError (voucher) for an unknown code; as validateStackedDiscounts otherwise.
 */
export function validateVoucher(deps: Deps, projectId: string, code: string, body: ValidateVoucherBody): Promise<SingleEvaluation> {
  const { gift, options: _expand, ...request } = body;
  return validateOne(deps, projectId, { object: 'voucher', id: code, ...(gift !== undefined ? { gift } : {}) }, request);
}

/**
 * POST /v1/promotions/tiers/{promotionTierId}/validation: the promotion tier evaluated alone against the order. Writes nothing.
 * @throws NotFoundError (promotion_tier) for an unknown tier; as validateStackedDiscounts otherwise.
 */
export function validatePromotionTier(deps: Deps, projectId: string, tierId: string, body: ValidatePromotionTierBody): Promise<SingleEvaluation> {
  return validateOne(deps, projectId, { object: 'promotion_tier', id: tierId }, body);
}
