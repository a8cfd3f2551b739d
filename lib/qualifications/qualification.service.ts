import type { Campaign } from '../campaigns/campaign.js';
import { UnsupportedDiscountError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { EvaluatedRedeemable, Evaluation } from '../validations/evaluation.js';
import { ReadHints } from '../validations/read-hints.js';
import type { StackedRequest } from '../validations/validation.schema.js';
import { evaluateRedeemables } from '../validations/validation.service.js';
import type { Voucher } from '../vouchers/voucher.js';
import { PrefetchedReads } from './prefetched-reads.js';
import { type Candidate, type CandidateSource, candidatesToExamine, cutPage, isItemLevel, scenarioScope, sortPage } from './qualification-page.js';
import { listOfferCampaigns, MAX_PUBLIC_CAMPAIGNS, readCampaigns, readPublicCodes, readWallet, rememberTierPointers } from './qualification.repo.js';
import { type CheckEligibilityBody, DEFAULT_QUALIFICATION_LIMIT } from './qualification.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'ids' | 'clock'>;

/** Candidates evaluated together; the engine's reads are answered from memory, so this bounds only the work in flight. */
const EVALUATION_BATCH = 25;

/** One qualified redeemable: what it is, and the engine's evaluation of it alone on the request's order. */
export interface QualifiedRedeemable {
  candidate: Candidate;
  evaluated: EvaluatedRedeemable;
  evaluation: Evaluation;
  /** What it takes off the order (0 when it was evaluated without the order). */
  appliedDiscount: number;
  createdAt: string;
  id: string;
}

export interface Qualification {
  /** The request evaluated with no redeemable: the order's figures, the customer, the stacking rules, the tracking id. */
  context: Evaluation;
  /** The page, in the sorting rule's order. */
  redeemables: QualifiedRedeemable[];
  hasMore: boolean;
  /** The cursor of the next page (the page's last creation time); null when there is none. */
  moreStartingAfter: string | null;
}

const voucherCandidate = (v: Voucher, source: CandidateSource, campaigns: ReadonlyMap<string, Campaign>): Candidate => {
  const campaign = v.campaignId !== null ? campaigns.get(v.campaignId) : undefined;
  const category = v.category ?? campaign?.category ?? null;
  return {
    object: 'voucher',
    id: v.code,
    createdAt: v.createdAt,
    campaignId: v.campaignId,
    campaignType: campaign?.campaignType ?? null,
    voucherType: v.type,
    categoryIds: category ? [category.id] : [],
    source,
    itemLevel: isItemLevel(v.discount),
  };
};

const tierCandidates = (campaign: Campaign): Candidate[] =>
  (campaign.promotionTiers ?? []).map((t) => ({
    object: 'promotion_tier',
    id: t.id,
    createdAt: t.createdAt,
    campaignId: campaign.id,
    campaignType: campaign.campaignType,
    voucherType: null,
    categoryIds: campaign.category ? [campaign.category.id] : [],
    source: 'tier',
    itemLevel: isItemLevel(t.discount),
  }));

/**
 * POST /v1/qualifications: the redeemables the customer and/or order could use, one page of them.
 *
 * Candidates: the vouchers the customer holds (one Query of their wallet), the unheld codes of the
 * project's newest STANDALONE campaigns and the tiers of its PROMOTION campaigns (one Query of the
 * project's campaign list, then one Query per STANDALONE campaign), within the scenario and filters
 * (lib/qualifications/qualification-page.ts). Nothing reads the project's vouchers at large, so the
 * cost follows the wallet and the number of campaigns, never the number of vouchers.
 *
 * Each candidate is evaluated alone by the validation engine (evaluateRedeemables, with the
 * request's order and customer), so a redeemable qualifies exactly when a validation of it alone
 * would find it APPLICABLE. The engine's reads are answered from what this request read
 * (PrefetchedReads): the campaigns in one consistent BatchGetItem per 100, the wallet and public
 * codes from the index Queries. Candidates are examined newest first until the page and one more
 * are found. AUDIENCE_ONLY evaluates without the order and also keeps a redeemable whose only
 * failure is that it needs order items. Writes nothing.
 * @throws NotFoundError (order) for an unknown order id; InvalidPayloadError for inconsistent order lines.
 */
export async function checkEligibility(deps: Deps, projectId: string, body: CheckEligibilityBody): Promise<Qualification> {
  const reads = new PrefetchedReads(deps);
  const engine = { ddb: reads.client, tableName: deps.tableName, ids: deps.ids, readHints: new ReadHints(() => deps.clock.now().getTime(), 1000) };
  const scenario = body.scenario ?? 'ALL';
  const limit = body.options?.limit ?? DEFAULT_QUALIFICATION_LIMIT;
  const scope = scenarioScope(scenario);
  const base: Omit<StackedRequest, 'redeemables'> = {
    ...(body.order !== undefined ? { order: body.order } : {}),
    ...(body.customer !== undefined ? { customer: body.customer } : {}),
    ...(body.tracking_id !== undefined ? { tracking_id: body.tracking_id } : {}),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
  };

  const contextP = evaluateRedeemables(engine, projectId, { ...base, redeemables: [] }, deps.clock);
  const offersP = scope.sources.has('public') || scope.sources.has('tier') ? listOfferCampaigns(deps, projectId) : Promise.resolve([]);
  const knownId = body.customer?.id;
  const walletOf = async (customerId: string | undefined) =>
    scope.sources.has('wallet') && customerId !== undefined ? readWallet(deps, reads, projectId, customerId) : [];
  // A customer named by id: its wallet is read with the context (an unknown id holds nothing).
  const earlyWalletP = knownId !== undefined ? walletOf(knownId) : null;
  const [context, offers] = await Promise.all([contextP, offersP]);
  const wallet = earlyWalletP ? await earlyWalletP : await walletOf(context.customer?.id);
  const heldByCustomer = context.customer !== null && (knownId === undefined || context.customer.id === knownId) ? wallet : [];

  const promotions = scope.sources.has('tier') ? offers.filter((c) => c.campaignType === 'PROMOTION').map((c) => c.id) : [];
  const standalone = scope.sources.has('public')
    ? offers
        .filter((c) => c.type === 'STANDALONE' && c.campaignType !== 'PROMOTION')
        .slice(0, MAX_PUBLIC_CAMPAIGNS)
        .map((c) => c.id)
    : [];
  const walletCampaigns = heldByCustomer.flatMap((v) => (v.campaignId !== null ? [v.campaignId] : []));
  const [publicCodes, campaigns] = await Promise.all([
    readPublicCodes(deps, reads, projectId, standalone),
    readCampaigns(reads, projectId, [...walletCampaigns, ...promotions, ...standalone]),
  ]);
  rememberTierPointers(reads, campaigns.values());

  const all: Candidate[] = [
    ...heldByCustomer.map((v) => voucherCandidate(v, 'wallet', campaigns)),
    ...publicCodes.map((v) => voucherCandidate(v, 'public', campaigns)),
    ...promotions.flatMap((id) => {
      const c = campaigns.get(id);
      return c ? tierCandidates(c) : [];
    }),
  ];
  const toExamine = candidatesToExamine(all, scenario, body.options?.filters, body.options?.starting_after ?? null);
  const audienceOnly = scenario === 'AUDIENCE_ONLY';
  const request = audienceOnly ? { ...base, order: undefined } : base;

  const evaluate = async (c: Candidate): Promise<QualifiedRedeemable | null> => {
    let evaluation: Evaluation;
    try {
      evaluation = await evaluateRedeemables(engine, projectId, { ...request, redeemables: [{ object: c.object, id: c.id }] }, deps.clock);
    } catch (error) {
      // A discount whose formula the calculator cannot evaluate is not offered; a validation of it would fail too.
      if (error instanceof UnsupportedDiscountError) return null;
      throw error;
    }
    const evaluated = evaluation.redeemables[0];
    if (!evaluated) return null;
    const qualifies = evaluated.status === 'APPLICABLE' || (audienceOnly && evaluated.errorKey === 'missing_order_items');
    if (!qualifies) return null;
    return { candidate: c, evaluated, evaluation, appliedDiscount: evaluated.step?.order.totalAppliedDiscountAmount ?? 0, createdAt: c.createdAt, id: c.id };
  };

  const qualified: QualifiedRedeemable[] = [];
  for (let i = 0; i < toExamine.length && qualified.length <= limit; i += EVALUATION_BATCH) {
    const batch = await Promise.all(toExamine.slice(i, i + EVALUATION_BATCH).map(evaluate));
    for (const q of batch) if (q) qualified.push(q);
  }
  const { page, hasMore } = cutPage(qualified, limit);
  const last = page[page.length - 1];
  return {
    context,
    redeemables: sortPage(page, body.options?.sorting_rule ?? 'DEFAULT'),
    hasMore,
    moreStartingAfter: hasMore && last ? last.createdAt : null,
  };
}
