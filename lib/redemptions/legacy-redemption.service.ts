import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import type { Committed } from '../idempotency/idempotency.service.js';
import type { Runtime } from '../runtime.js';
import type { Evaluation } from '../validations/evaluation.js';
import type { StackedRedeemableInput, StackedRequest } from '../validations/validation.schema.js';
import type { RedeemPromotionBody, RedeemVoucherBody } from './legacy-redemption.schema.js';
import { redeemDiscounts } from './redeem.service.js';
import type { Redemption } from './redemption.js';
import type { CommittedRedemption } from './redemption.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'ids' | 'clock' | 'readHints' | 'logger'>;

/** What an old call's reply is made of: the one redemption of its redeemable (a child of the stacked store's parent), and the evaluation. */
export type SingleRedemptionReply<R> = (redemption: Redemption, evaluation: Evaluation) => R;

/** The one child redemption of a stacked redemption of one redeemable. */
function onlyChild(committed: CommittedRedemption): Redemption {
  const [child] = committed.children;
  if (child === undefined || committed.children.length !== 1) throw new Error('A redemption of one redeemable commits one child redemption');
  return child;
}

function redeemOne<R>(
  deps: Deps,
  projectId: string,
  redeemable: StackedRedeemableInput,
  request: Omit<StackedRequest, 'redeemables'>,
  idempotency: IdempotencyScope | null,
  reply: SingleRedemptionReply<R>,
  requestId?: string,
): Promise<Committed<R>> {
  return redeemDiscounts(deps, projectId, { ...request, redeemables: [redeemable] }, idempotency, (c, e) => reply(onlyChild(c), e), requestId);
}

/**
 * POST /v1/vouchers/{code}/redemption: redeems the code alone through redeemDiscounts (the same
 * evaluation, the same one-transaction commit, the same LOCK session consumption and transactional
 * `Idempotency-Key`). The reply is made from the one redemption of the code.
 * @throws RedeemableInapplicableError (400 with the code's key; 404 for an unknown code) and as redeemDiscounts.
 */
export function redeemVoucher<R>(
  deps: Deps,
  projectId: string,
  code: string,
  body: RedeemVoucherBody,
  trackingId: string | undefined,
  idempotency: IdempotencyScope | null,
  reply: SingleRedemptionReply<R>,
  requestId?: string,
): Promise<Committed<R>> {
  const { gift, options: _expand, ...request } = body;
  return redeemOne(
    deps,
    projectId,
    { object: 'voucher', id: code, ...(gift !== undefined ? { gift } : {}) },
    { ...request, ...(trackingId !== undefined ? { tracking_id: trackingId } : {}) },
    idempotency,
    reply,
    requestId,
  );
}

/**
 * POST /v1/promotions/tiers/{promotionTierId}/redemption: redeems the tier alone through redeemDiscounts.
 * @throws RedeemableInapplicableError (400 with the tier's key; 404 for an unknown tier) and as redeemDiscounts.
 */
export function redeemPromotion<R>(
  deps: Deps,
  projectId: string,
  promotionTierId: string,
  body: RedeemPromotionBody,
  idempotency: IdempotencyScope | null,
  reply: SingleRedemptionReply<R>,
  requestId?: string,
): Promise<Committed<R>> {
  return redeemOne(deps, projectId, { object: 'promotion_tier', id: promotionTierId }, body, idempotency, reply, requestId);
}
