import { InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { StackedBody, StackedRedeemableInput, StackedRequest } from '../validations/validation.schema.js';
import { getStack } from './promotion-stack.repo.js';

const isEvaluated = (r: StackedBody['redeemables'][number]): r is StackedRedeemableInput => r.object !== 'promotion_stack';

/**
 * The request the engine evaluates: a body naming a promotion stack becomes a request of the stack's
 * tiers, in the stack's order, marked `fromStack` (evaluateRedeemables then applies them in that
 * order and all or none: docs/decisions.md "Promotion stacks"). Any other body is returned as it is.
 * One consistent GetItem, only when a stack is named.
 * @throws InvalidPayloadError for a stack beside other redeemables; NotFoundError (promotion_stack) for an unknown stack.
 */
export async function expandPromotionStack(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, body: StackedBody): Promise<StackedRequest> {
  const named = body.redeemables.find((r) => r.object === 'promotion_stack');
  if (named === undefined) return { ...body, redeemables: body.redeemables.filter(isEvaluated) };
  if (body.redeemables.length > 1) {
    throw new InvalidPayloadError('A promotion_stack is validated or redeemed alone: send it as the only item of .redeemables');
  }
  const stack = await getStack(deps, projectId, named.id);
  if (!stack) throw new NotFoundError('promotion_stack', named.id);
  return { ...body, redeemables: stack.tierIds.map((id) => ({ object: 'promotion_tier', id })), fromStack: stack.id };
}
