import { createHash } from 'node:crypto';
import { recordFailure } from '../activity/failure.repo.js';
import type { Campaign, PromotionTier } from '../campaigns/campaign.js';
import type { Category } from '../categories/category.js';
import type { Customer } from '../customers/customer.js';
import type { Discount } from '../campaigns/campaign.js';
import type { Clock } from '../clock.js';
import { RETRY, retryOnConflict } from '../db/transact.js';
import { InvalidPayloadError, NotFoundError } from '../errors.js';
import type { Order } from '../orders/order.js';
import { itemsAmount, orderItemOf } from '../orders/order-lines.js';
import { type Catalog, inCollection, lineRefOfInput, withCatalog } from '../orders/order-catalog.js';
import { calculate, type OrderInput } from '../redemptions/calculator.js';
import type { CoveredLine, Redeemable } from '../redemptions/discount.js';
import { creditsLeft, sessionTtlMs } from '../redemptions/session-lock.js';
import { applicationOrder } from '../redemptions/stacking-order.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { EvaluatedOrder, EvaluatedRedeemable, EvaluatedSession, Evaluation } from './evaluation.js';
import { APPLICABLE_OUTCOME, DEFAULT_STACKING_RULES, decideStacking, isValid, type StackingRules } from './stacking-rules.js';
import type { StackedBody, StackedRedeemableInput, StackedRequest } from './validation.schema.js';
import { expandPromotionStack } from '../promotion-stacks/stack-redeemables.js';
import { sessionHoldsOf } from './session-holds.js';
import { writeSessionHolds } from './session-hold.repo.js';
import { attachSessionHolds } from '../redemptions/session-lock.repo.js';
import { readForValidation, type ValidationReadDeps, type ValidationReads, type ValidationWants } from './validation.repo.js';
import { type CampaignBound, type CountedAs, judgeRules, type RuleCustomer, rulesOfRedeemable } from './redeemable-rules.js';
import type { RedeemableErrorKey } from './redeemable-error.js';
import { needsOrderItems, tierValidity, voucherValidity } from './validity.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'ids' | 'readHints'> & Pick<ValidationReadDeps, 'knownValueOf' | 'readItems'>;

/**
 * The order a request is evaluated on. Named by `id` (must exist: 404) or `source_id` (the stored
 * order when one has it, else a new order of that source id), with the fields sent applied over
 * the stored ones (nothing is written); inline otherwise. `amount` is the one sent, else the lines' sum.
 * @throws NotFoundError (order) for an unknown id; InvalidPayloadError for inconsistent line figures.
 */
function orderOf(request: Omit<StackedRequest, 'redeemables'>, stored: Order | null, catalog: Catalog): EvaluatedOrder {
  const sent = request.order ?? {};
  if (sent.id !== undefined && stored === null) throw new NotFoundError('order', sent.id);
  const items = sent.items?.map((i, n) => withCatalog(orderItemOf(i, n), catalog, n)) ?? stored?.items.map((i, n) => withCatalog(i, catalog, n)) ?? [];
  const amount = sent.amount ?? (sent.items ? itemsAmount(items) : (stored?.amount ?? itemsAmount(items)));
  return {
    id: stored?.id ?? null,
    sourceId: stored?.sourceId ?? sent.source_id ?? null,
    revision: stored?.revision ?? null,
    status: sent.status ?? stored?.status ?? 'CREATED',
    amount,
    items,
    metadata: sent.metadata ?? stored?.metadata ?? {},
    customerId: stored?.customerId ?? null,
    referrerId: sent.referrer_id ?? stored?.referrerId ?? null,
    createdAt: stored?.createdAt ?? null,
  };
}

/** The request's session, validated; its key as sent or made for it. @throws InvalidPayloadError for a lifetime out of range. */
function sessionOf(deps: Pick<Deps, 'ids'>, request: Omit<StackedRequest, 'redeemables'>): EvaluatedSession | null {
  const s = request.session;
  if (s === undefined) return null;
  const ttlMs = sessionTtlMs(s.ttl, s.ttl_unit);
  if (ttlMs === null) throw new InvalidPayloadError('Property .session.ttl must be a lifetime of at most a year');
  return { type: 'LOCK', key: s.key ?? deps.ids.id('ssn'), ttl: s.ttl ?? 7, ttlUnit: s.ttl === undefined ? 'DAYS' : (s.ttl_unit ?? 'DAYS'), ttlMs };
}

/** The customer validation rules see: the stored one with the request's metadata over its own; one only named (not stored yet) has only what the request sends. */
function ruleCustomerOf(request: Omit<StackedRequest, 'redeemables'>, stored: Customer | null): RuleCustomer | null {
  const sent = request.customer;
  if (!sent && !stored) return null;
  return {
    id: stored?.id ?? sent?.id ?? '',
    sourceId: stored?.sourceId ?? sent?.source_id ?? null,
    metadata: { ...(stored?.metadata ?? {}), ...(sent?.metadata ?? {}) },
    segmentIds: stored?.segmentIds,
  };
}

const categoriesOf = (own: Category | null, campaign: Campaign | null): Category[] => {
  const category = own ?? campaign?.category ?? null;
  return category ? [category] : [];
};

/** What a stacked request names to be read (its redeemables, order and customer). */
function wantsOf(request: Omit<StackedRequest, 'redeemables'>, redeemables: readonly StackedRedeemableInput[]): ValidationWants {
  return {
    codes: redeemables.filter((r) => r.object !== 'promotion_tier').map((r) => r.id),
    tierIds: redeemables.filter((r) => r.object === 'promotion_tier').map((r) => r.id),
    order: namesOrder(request) ? { id: request.order?.id, sourceId: request.order?.source_id } : null,
    customer: request.customer ? { id: request.customer.id, sourceId: request.customer.source_id } : null,
    lines: request.order?.items?.map(lineRefOfInput) ?? null,
  };
}

const namesOrder = (request: Omit<StackedRequest, 'redeemables'>): boolean =>
  request.order !== undefined && (request.order.id !== undefined || request.order.source_id !== undefined);

/**
 * What every redeemable of one request is evaluated against, built once from the reads: the
 * stacking rules, the order, the session, the customer the rules see. Pure (no I/O).
 */
interface RequestContext {
  projectId: string;
  request: Omit<StackedRequest, 'redeemables'>;
  reads: ValidationReads;
  now: Date;
  /** `now` as the reply writes it (built once: a qualification evaluates tens of redeemables in one context). */
  date: string;
  nowMs: number;
  rules: StackingRules;
  order: EvaluatedOrder;
  orderInput: OrderInput;
  session: EvaluatedSession | null;
  sessionKey: string | null;
  ruleCustomer: RuleCustomer | null;
  trackingId: string | null;
  inCollection: (ids: { productId: string | null; skuId: string | null }, collectionId: string) => boolean;
}

/** @throws NotFoundError (order) for an unknown order id; InvalidPayloadError (session lifetime, order lines). */
function requestContextOf(
  deps: Pick<Deps, 'ids'>,
  projectId: string,
  request: Omit<StackedRequest, 'redeemables'>,
  reads: ValidationReads,
  now: Date,
): RequestContext {
  const order = orderOf(request, namesOrder(request) ? reads.order : null, reads.catalog);
  const session = sessionOf(deps, request);
  return {
    projectId,
    request,
    reads,
    now,
    date: now.toISOString(),
    nowMs: now.getTime(),
    rules: reads.rules ?? DEFAULT_STACKING_RULES,
    order,
    orderInput: orderInputOf(order),
    session,
    sessionKey: session?.key ?? null,
    ruleCustomer: ruleCustomerOf(request, reads.customer),
    trackingId: trackingIdOf(projectId, request),
    inCollection: (ids, collectionId) => inCollection(reads.catalog, ids, collectionId),
  };
}

/**
 * Evaluates a stacked request without writing anything: reads the redeemables, the order, the
 * customer and the stacking rules (lib/validations/validation.repo.ts, two BatchGetItems), checks
 * each redeemable's validity at the clock's time, sorts them by the stacking rules' sorting rule,
 * decides APPLICABLE / INAPPLICABLE / SKIPPED, and runs the calculator over the APPLICABLE ones.
 * The core a redemption calls too (then toRedemptionPlan). Independent of the HTTP shape.
 * @throws NotFoundError (order) for an unknown order id; InvalidPayloadError (too many redeemables
 *   for the project's `redeemables_limit`, a session lifetime out of range, inconsistent order lines);
 *   UnsupportedDiscountError (400) for an APPLICABLE discount with a formula the calculator cannot evaluate.
 */
export async function evaluateRedeemables(deps: Deps, projectId: string, request: StackedRequest, clock: Clock): Promise<Evaluation> {
  const reads = await readForValidation(deps, projectId, wantsOf(request, request.redeemables));
  // Before the order and session are looked at, as the refusal it was always checked first.
  checkLimit(reads.rules ?? DEFAULT_STACKING_RULES, request.redeemables.length);
  const now = clock.now();
  await attachSessionHolds(deps, reads.vouchers, now.getTime());
  return evaluateIn(requestContextOf(deps, projectId, request, reads, now), request.redeemables);
}

/** Evaluates many requests that differ only in their redeemables, from one read (see evaluateEach). */
export interface SharedEvaluator {
  /**
   * `request` with `redeemables`, evaluated as evaluateRedeemables would evaluate it, from the
   * shared read, at the read's instant. `redeemables` must be among those evaluateEach was given,
   * and `request` name the same order (or none) and customer. Pure, synchronous.
   * @throws as evaluateRedeemables.
   */
  evaluate(request: Omit<StackedRequest, 'redeemables'>, redeemables: readonly StackedRedeemableInput[]): Evaluation;
}

/**
 * One read (readForValidation) of every redeemable in `redeemables` with the order and customer
 * `request` names, then an evaluator of any request that names a subset of them with that order
 * and customer: the items are turned into values once, and the per-request context (order, stacking
 * rules, the customer the rules see) is built once per distinct `request` object, not per
 * evaluation. For the qualifications (lib/qualifications/qualification.service.ts), which evaluate
 * each candidate alone: `evaluate(request, [r])` gives the verdict `evaluateRedeemables` gives for
 * the request with `r` alone (pinned by test/integration/validations/evaluate-each.test.ts).
 * Writes nothing. @throws as readForValidation.
 */
export async function evaluateEach(
  deps: Deps,
  projectId: string,
  request: Omit<StackedRequest, 'redeemables'>,
  redeemables: readonly StackedRedeemableInput[],
  clock: Clock,
): Promise<SharedEvaluator> {
  const reads = await readForValidation(deps, projectId, wantsOf(request, redeemables));
  const now = clock.now();
  await attachSessionHolds(deps, reads.vouchers, now.getTime());
  const contexts = new WeakMap<object, RequestContext>();
  return {
    evaluate(req, rs) {
      let ctx = contexts.get(req);
      if (ctx === undefined) {
        ctx = requestContextOf(deps, projectId, req, reads, now);
        contexts.set(req, ctx);
      }
      return evaluateIn(ctx, rs);
    },
  };
}

/** What a redeemable's validity and rules decided, before stacking. */
interface Judged {
  errorKey: RedeemableErrorKey | null;
  lines: CoveredLine[] | null;
  ruleMessage: string | null;
  countedAs: CountedAs | null;
  campaignBound: CampaignBound | null;
}

/**
 * A redeemable as evaluated before stacking, every field set in one order: the engine builds tens
 * of these a request (a qualification, one per candidate), and objects of one shape keep the code
 * that reads them fast where spreads of differently shaped parts did not.
 */
function evaluatedRedeemable(
  r: StackedRedeemableInput,
  position: number,
  object: EvaluatedRedeemable['object'],
  verdict: Judged,
  voucher: Voucher | null,
  tier: PromotionTier | null,
  campaign: Campaign | null,
  categories: Category[],
  giftCreditsAsked: number | null,
): EvaluatedRedeemable {
  return {
    object,
    requested: r.object,
    id: r.id,
    position,
    status: 'INAPPLICABLE',
    errorKey: verdict.errorKey,
    skipKey: null,
    voucher,
    tier,
    campaign,
    categories,
    giftCreditsAsked,
    step: null,
    lines: verdict.lines,
    ruleMessage: verdict.ruleMessage,
    countedAs: verdict.countedAs,
    campaignBound: verdict.campaignBound,
  };
}

/** @throws InvalidPayloadError for more redeemables than the project's `redeemables_limit`. */
function checkLimit(rules: StackingRules, count: number): void {
  if (count > rules.redeemablesLimit) {
    throw new InvalidPayloadError(`Property .redeemables must have at most ${rules.redeemablesLimit} items (the project's redeemables_limit)`);
  }
}

/** What the rules decided for a redeemable whose validity is `validity`: the first failing rule makes it INAPPLICABLE with its key and message. */
function judged(ctx: RequestContext, validity: RedeemableErrorKey | null, ownId: string, campaignId: string | null, discount: Discount | null): Judged {
  if (validity !== null) return { errorKey: validity, lines: null, ruleMessage: null, countedAs: null, campaignBound: null };
  const { reads } = ctx;
  const verdict = judgeRules({
    rules: rulesOfRedeemable(reads.validationRules, ownId, campaignId),
    order: ctx.order,
    customer: ctx.ruleCustomer,
    counts: reads.redemptionCounts,
    campaignCount: campaignId !== null ? (reads.campaignCounts.get(campaignId) ?? null) : null,
    ownId,
    campaignId,
    inCollection: ctx.inCollection,
    gone: (id) => reads.catalog.gone.has(id),
  });
  if (!verdict.ok) return { errorKey: verdict.key, lines: null, ruleMessage: verdict.message, countedAs: null, campaignBound: null };
  // An item discount whose rules leave it no line of this order has nothing to apply to.
  if (verdict.lines !== undefined && verdict.lines.length === 0 && needsOrderItems(discount)) {
    return { errorKey: 'order_rules_violated', lines: null, ruleMessage: null, countedAs: null, campaignBound: null };
  }
  return { errorKey: null, lines: verdict.lines ?? null, ruleMessage: null, countedAs: verdict.countedAs, campaignBound: verdict.campaignBound };
}

const NOT_FOUND: Judged = Object.freeze({ errorKey: 'resource_not_found', lines: null, ruleMessage: null, countedAs: null, campaignBound: null });

/** The evaluation of `redeemables` in the request's context (pure: everything was read). */
function evaluateIn(ctx: RequestContext, requested: readonly StackedRedeemableInput[]): Evaluation {
  const { reads, rules, order, nowMs, sessionKey } = ctx;
  checkLimit(rules, requested.length);
  const orderHasItems = order.items.length > 0;

  const evaluated = requested.map((r: StackedRedeemableInput, position): EvaluatedRedeemable => {
    if (r.object === 'promotion_tier') {
      const found = reads.tiers.get(r.id);
      if (!found) return evaluatedRedeemable(r, position, 'promotion_tier', NOT_FOUND, null, null, null, [], null);
      const validity = tierValidity(found.tier, found.campaign, { nowMs, sessionKey, orderHasItems });
      const verdict = judged(ctx, validity, found.tier.id, found.campaign.id, found.tier.discount);
      return evaluatedRedeemable(r, position, 'promotion_tier', verdict, null, found.tier, found.campaign, categoriesOf(null, found.campaign), null);
    }
    const giftCreditsAsked = r.gift?.credits ?? null;
    const voucher = reads.vouchers.get(r.id) ?? null;
    const campaign = voucher?.campaignId ? (reads.campaigns.get(voucher.campaignId) ?? null) : null;
    // A code of a deleted campaign is gone with it, though the job that removes its vouchers comes later.
    if (!voucher || (voucher.campaignId !== null && !campaign))
      return evaluatedRedeemable(r, position, 'voucher', NOT_FOUND, null, null, null, [], giftCreditsAsked);
    const validity = voucherValidity(voucher, campaign, {
      nowMs,
      sessionKey,
      orderHasItems,
      ...(giftCreditsAsked !== null ? { giftCredits: giftCreditsAsked } : {}),
    });
    const verdict = judged(ctx, validity, voucher.id, voucher.campaignId, voucher.discount);
    return evaluatedRedeemable(r, position, 'voucher', verdict, voucher, null, campaign, categoriesOf(voucher.category, campaign), giftCreditsAsked);
  });

  // A stack's tiers apply all or none (ALL mode whatever the project's). Their order is the stack's: tiers of one
  // campaign share its categories, so no sorting rule moves them.
  const asStack = ctx.request.fromStack !== undefined;
  const ordered = applicationOrder(evaluated, rules.redeemablesSortingRule);
  const outcomes = decideStacking(
    ordered.map((r) => ({ categoryIds: r.categories.map((c) => c.id), failure: r.errorKey })),
    asStack ? { ...rules, redeemablesApplicationMode: 'ALL' } : rules,
  );
  // The calculator reads only what validity decided (voucher, tier, lines, credits asked), so the
  // APPLICABLE ones are handed to it as they are and each redeemable is copied once, with its outcome and step.
  const applicable = ordered.filter((_, i) => (outcomes[i] ?? APPLICABLE_OUTCOME).status === 'APPLICABLE');
  const calculation = calculate(
    ctx.orderInput,
    applicable.map((r) => redeemableOf(r, nowMs, sessionKey)),
  );
  const steps = new Map(calculation.steps.map((s, i) => [applicable[i], s]));
  const redeemables = ordered.map((r, i): EvaluatedRedeemable => {
    const o = outcomes[i] ?? APPLICABLE_OUTCOME;
    if (o.status === 'APPLICABLE') return { ...r, status: 'APPLICABLE', errorKey: null, skipKey: null, step: steps.get(r) ?? null };
    if (o.status === 'SKIPPED') return { ...r, status: 'SKIPPED', errorKey: null, skipKey: o.key };
    return { ...r, status: 'INAPPLICABLE', errorKey: o.key, skipKey: null };
  });

  return {
    projectId: ctx.projectId,
    date: ctx.date,
    rules,
    redeemables,
    order,
    calculation: calculation.order,
    customer: reads.customer ? { id: reads.customer.id, sourceId: reads.customer.sourceId } : null,
    session: ctx.session,
    trackingId: ctx.trackingId,
    metadata: ctx.request.metadata ?? {},
    valid: isValid(outcomes, asStack ? 'ALL' : rules.redeemablesApplicationMode),
  };
}

const orderInputOf = (o: EvaluatedOrder): OrderInput => ({
  amount: o.amount,
  items: o.items.map((i) => ({ productId: i.productId, skuId: i.skuId, quantity: i.quantity ?? 0, price: i.price ?? 0, amount: i.amount ?? 0 })),
});

/** What the calculator applies for one APPLICABLE redeemable: a gift card's credits (capped by what other sessions leave of the balance), a discount, or nothing. */
function redeemableOf(r: EvaluatedRedeemable, nowMs: number, sessionKey: string | null): Redeemable {
  const v = r.voucher;
  if (v?.gift) {
    const balance = creditsLeft(v.gift.balance, v.sessions, nowMs, sessionKey);
    return { kind: 'gift', id: r.id, balance, ...(r.giftCreditsAsked !== null ? { credits: r.giftCreditsAsked } : {}) };
  }
  const discount = v ? v.discount : (r.tier?.discount ?? null);
  if (!discount) return { kind: 'none', id: r.id };
  return r.lines !== null ? { kind: 'discount', id: r.id, discount, lines: r.lines } : { kind: 'discount', id: r.id, discount };
}

/**
 * The request's tracking id: the one sent, else one derived from the customer's source id (the
 * same customer always gets the same id, as Voucherify's), else null.
 */
export function trackingIdOf(projectId: string, request: Pick<StackedRequest, 'tracking_id' | 'customer'>): string | null {
  if (request.tracking_id !== undefined) return request.tracking_id;
  const sourceId = request.customer?.source_id ?? request.customer?.id;
  if (sourceId === undefined) return null;
  return `track_${createHash('sha256').update(`${projectId}\u0000${sourceId}`).digest('base64url').slice(0, 24)}`;
}

/**
 * POST /v1/validations: the evaluation of the request (the reply is lib/validations/validation.mapper.ts).
 * Writes nothing, except what a LOCK `session` holds: when the evaluation is valid, one use of each
 * APPLICABLE voucher with a redemption limit and the gift credits it takes, written in one
 * transaction conditioned on the vouchers being as read; a lost race evaluates again (and then
 * sees the winner's hold).
 * A body naming a promotion stack is evaluated as its tiers (expandPromotionStack). An invalid
 * evaluation for a stored customer puts its activity record (lib/activity/failure.repo.ts).
 * @throws as evaluateRedeemables and expandPromotionStack; ConflictRetryError when the vouchers keep changing.
 */
export async function validateStackedDiscounts(deps: Deps & Pick<Runtime, 'clock' | 'logger'>, projectId: string, body: StackedBody): Promise<Evaluation> {
  const request = await expandPromotionStack(deps, projectId, body);
  const evaluation =
    request.session === undefined
      ? await evaluateRedeemables(deps, projectId, request, deps.clock)
      : await retryOnConflict('Too many concurrent validations holding these vouchers', async () => {
          const evaluation = await evaluateRedeemables(deps, projectId, request, deps.clock);
          const holds = sessionHoldsOf(evaluation, Date.parse(evaluation.date));
          if (evaluation.session === null || holds.length === 0) return evaluation;
          return (await writeSessionHolds(deps, projectId, evaluation.session.key, holds)) ? evaluation : RETRY;
        });
  // A failed validation of a stored customer is the customer's `customer.validation.failed`: one PutItem, never on success.
  if (!evaluation.valid) await recordFailure(deps, evaluation, 'validation');
  return evaluation;
}
