import { recordRefusal } from '../activity/failure.repo.js';
import { upsertCustomer } from '../customers/customer.service.js';
import type { Redemption } from './redemption.js';
import { InvalidPayloadError, RedeemableInapplicableError } from '../errors.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { type Committed, recordedReply } from '../idempotency/idempotency.service.js';
import type { Runtime } from '../runtime.js';
import type { Evaluation } from '../validations/evaluation.js';
import { redeemableError } from '../validations/redeemable-error.js';
import { toRedemptionPlan } from '../validations/to-redemption-plan.js';
import { evaluateRedeemables } from '../validations/validation.service.js';
import type { StackedBody } from '../validations/validation.schema.js';
import { expandPromotionStack } from '../promotion-stacks/stack-redeemables.js';
import { type CommittedRedemption, CountsMovedError, commitRedemption } from './redemption.repo.js';
import { assertRedemptionHasValue } from './redemption-value.js';
import { RETRY, retryOnConflict } from '../db/transact.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'ids' | 'clock' | 'readHints' | 'logger'>;

/**
 * What a redemption refuses before writing anything: in ALL mode (the default) any redeemable not
 * APPLICABLE, in PARTIAL mode a request with none APPLICABLE. The error is the first INAPPLICABLE
 * redeemable's, in application order, as the validation reply gives it.
 * @throws RedeemableInapplicableError.
 */
export function assertRedeemable(evaluation: Evaluation, requestId?: string): void {
  const applicable = evaluation.redeemables.some((r) => r.status === 'APPLICABLE');
  if (evaluation.valid && applicable) return;
  const failed = evaluation.redeemables.find((r) => r.status === 'INAPPLICABLE');
  const key = failed?.errorKey ?? 'resource_not_found';
  const first = failed ?? evaluation.redeemables[0];
  if (!first) throw new Error('A redemption evaluated no redeemable');
  throw new RedeemableInapplicableError(redeemableError(key, first.object, first.id, requestId, first.ruleMessage), first.ruleMessage);
}

/**
 * POST /v1/redemptions. A loyalty card alone with a `reward` pays for that reward through the reward
 * redemption's own path (lib/loyalties/reward-redemption.service.ts redeemReward: one conditioned
 * transaction, refunded by a rollback); anything else is redeemed by redeemDiscounts.
 * @throws InvalidPayloadError for a `reward` beside other redeemables; as redeemReward and redeemDiscounts.
 */
export async function redeemStackedDiscounts<R>(
  deps: Deps,
  projectId: string,
  request: StackedBody,
  idempotency: IdempotencyScope | null,
  reply: (committed: CommittedRedemption, evaluation: Evaluation) => R,
  rewardReply: (redemption: Redemption) => R,
  requestId?: string,
): Promise<Committed<R>> {
  const withReward = request.redeemables.find((r) => r.object === 'voucher' && r.reward !== undefined);
  if (withReward?.object === 'voucher' && withReward.reward) {
    if (request.redeemables.length > 1) {
      throw new InvalidPayloadError('A loyalty card with a `reward` is redeemed alone: send it as the only redeemable of POST /v1/redemptions');
    }
    // Loaded when taken (docs/decisions.md "Lazy chunks on the redemption doors"): the reward path is a chunk of its own.
    const { redeemReward } = await import('./reward.lazy.js');
    const done = await redeemReward(
      deps,
      projectId,
      null,
      withReward.id,
      { reward: withReward.reward, ...(request.order ? { order: request.order } : {}), ...(request.metadata ? { metadata: request.metadata } : {}) },
      idempotency,
    );
    return { value: rewardReply(done.value), replayed: done.replayed };
  }
  return redeemDiscounts(deps, projectId, request, idempotency, reply, requestId);
}

/**
 * Redeems discounts (POST /v1/redemptions, and the single-code routes through
 * lib/redemptions/legacy-redemption.service.ts): evaluates the request exactly as POST /v1/validations does
 * (lib/validations/validation.service.ts evaluateRedeemables), refuses it when it is not
 * redeemable (assertRedeemable), upserts the customer named by id or source_id, and commits the
 * plan of the APPLICABLE redeemables in one transaction (lib/redemptions/redemption.repo.ts
 * commitRedemption): uses, gift credits, the LOCK hold of the request's session, the parent and
 * child redemptions, the order, and, with an `Idempotency-Key`, the key's record of the reply.
 * A retry with the key gets the first reply even when the redeemables are used up since. An order
 * left PAID earns by the `order.paid` earning rules after the commit (lib/loyalties/order-earning.service.ts).
 * A body naming a promotion stack redeems the stack's tiers, all or none (expandPromotionStack).
 * A refusal (inapplicable, or a race lost at commit) of a customer stored before the request puts
 * the customer's `customer.redemption.failed` record (lib/activity/failure.repo.ts) before it is thrown.
 * @throws BadRequestError `invalid_amount` for a request stating zero value (assertRedemptionHasValue);
 *   RedeemableInapplicableError; RedemptionRefusedError when a race is lost at commit; as
 *   evaluateRedeemables and commitRedemption.
 */
export async function redeemDiscounts<R>(
  deps: Deps,
  projectId: string,
  request: StackedBody,
  idempotency: IdempotencyScope | null,
  reply: (committed: CommittedRedemption, evaluation: Evaluation) => R,
  requestId?: string,
): Promise<Committed<R>> {
  assertRedemptionHasValue(request);
  if (idempotency) {
    const first = await recordedReply<R>(deps, idempotency, deps.clock.now());
    if (first !== undefined) return { value: first, replayed: true };
  }
  // A per-customer count a rule compared may move before the commit: then the request is evaluated again, and its rules see the new count.
  return retryOnConflict('Too many concurrent redemptions by this customer', async () => {
    try {
      return await evaluateAndCommit(deps, projectId, request, idempotency, reply, requestId);
    } catch (error) {
      if (error instanceof CountsMovedError) return RETRY;
      throw error;
    }
  });
}

async function evaluateAndCommit<R>(
  deps: Deps,
  projectId: string,
  body: StackedBody,
  idempotency: IdempotencyScope | null,
  reply: (committed: CommittedRedemption, evaluation: Evaluation) => R,
  requestId?: string,
): Promise<Committed<R>> {
  // After the key's record was looked at: a retry of a stack's redemption gets its first reply even once the stack is gone.
  const request = await expandPromotionStack(deps, projectId, body);
  const evaluation = await evaluateRedeemables(deps, projectId, request, deps.clock);
  try {
    assertRedeemable(evaluation, requestId);
    const customer = request.customer ? await upsertCustomer(deps, projectId, request.customer) : null;
    const applicable = evaluation.redeemables.filter((r) => r.status === 'APPLICABLE');
    const plan = toRedemptionPlan(
      evaluation,
      { parentRedemptionId: deps.ids.id('r'), redemptionIds: applicable.map(() => deps.ids.id('r')), newOrderId: deps.ids.id('ord') },
      evaluation.date,
      customer ? { id: customer.id, sourceId: customer.sourceId } : null,
    );
    // The reply of what was written is built once: recorded with the key in the commit's transaction, and returned.
    // A retried commit writes a new `committed` (re-planned from a fresh read), so it gets a reply of its own.
    let built: { for: CommittedRedemption; reply: R } | undefined;
    const replyOf = (committed: CommittedRedemption): R => {
      if (built?.for !== committed) built = { for: committed, reply: reply(committed, evaluation) };
      return built.reply;
    };
    const outcome = await commitRedemption(deps, plan, idempotency ? { idempotency: { scope: idempotency, reply: replyOf } } : {});
    // A redemption that leaves its order PAID earns by the order.paid rules (once per order: order-earning.service.ts).
    if (!outcome.replayed && outcome.value.order.status === 'PAID') await earnFromOrder(deps, outcome.value.order);
    return outcome.replayed ? { value: outcome.reply, replayed: true } : { value: replyOf(outcome.value), replayed: false };
  } catch (error) {
    // A refusal of a stored customer's redemption is its `customer.redemption.failed`: one PutItem, on this path only.
    await recordRefusal(deps, evaluation, error);
    throw error;
  }
}

/**
 * Order earning, loaded only for an order the redemption leaves PAID: a lazily loaded chunk of the redemption doors'
 * packages (docs/decisions.md "Lazy chunks on the redemption doors"), so their cold start does not pay for it.
 */
async function earnFromOrder(deps: Deps, order: CommittedRedemption['order']): Promise<void> {
  const { earnFromPaidOrder } = await import('./order-earning.lazy.js');
  await earnFromPaidOrder(deps, order);
}
