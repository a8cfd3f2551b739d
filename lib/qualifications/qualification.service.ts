import type { Campaign } from '../campaigns/campaign.js';
import * as entities from '../db/entities.js';
import type { Item, ItemKey } from '../db/entity.js';
import { UnsupportedDiscountError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import type { ValidationRuleAssignment } from '../validation-rules/validation-rule.js';
import { getObjectAssignmentsMany } from '../validation-rules/validation-rule.repo.js';
import type { EvaluatedRedeemable, Evaluation } from '../validations/evaluation.js';
import { NO_READ_HINTS } from '../validations/read-hints.js';
import type { StackedRequest } from '../validations/validation.schema.js';
import { evaluateEach, trackingIdOf } from '../validations/validation.service.js';
import { isGenericCode, type Voucher } from '../vouchers/voucher.js';
import { readOnlyVoucher } from '../vouchers/voucher-read.js';
import { NO_CAMPAIGN } from '../vouchers/voucher.repo.js';
import { PrefetchedReads } from './prefetched-reads.js';
import { type Candidate, type CandidateSource, candidatesToExamine, cutPage, isItemLevel, scenarioScope, sortPage } from './qualification-page.js';
import { type CodesHint, codesMarker, type OfferCampaigns } from './qualification-hints.js';
import {
  listOfferCampaigns,
  MAX_PUBLIC_CAMPAIGNS,
  PUBLIC_CODES_PER_CAMPAIGN,
  queryCampaignCodes,
  readCampaigns,
  readWallet,
  rememberTierPointers,
} from './qualification.repo.js';
import { type CheckEligibilityBody, DEFAULT_QUALIFICATION_LIMIT } from './qualification.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'ids' | 'clock' | 'qualificationHints'>;

/**
 * The keys the engine reads for the request's context (lib/validations/validation.repo.ts
 * readForValidation): the stacking rules, the validation rule counts, and the customer and order by id or by source-id claim.
 * Reading them early only saves a round trip: a key the engine wants and this missed is read then.
 */
function contextKeysOf(projectId: string, body: CheckEligibilityBody): ItemKey[] {
  const out: ItemKey[] = [entities.stackingRules.key(projectId), entities.validationRuleCounter.key(projectId)];
  const c = body.customer;
  if (c?.id !== undefined) out.push(entities.customer.key(projectId, c.id));
  else if (c?.source_id !== undefined) out.push(entities.customerSourceId.key(projectId, c.source_id));
  const o = body.order;
  if (o?.id !== undefined) out.push(entities.order.key(projectId, o.id));
  else if (o?.source_id !== undefined) out.push(entities.orderSourceId.key(projectId, o.source_id));
  return out;
}

/** The customer and order ids the source-id claims read in round 1 name (null: none named that way, or no claim). */
function claimedIds(reads: PrefetchedReads, projectId: string, body: CheckEligibilityBody): { customerId: string | null; orderId: string | null } {
  const c = body.customer;
  const o = body.order;
  const customerClaim = c?.id === undefined && c?.source_id !== undefined ? reads.get(entities.customerSourceId.key(projectId, c.source_id)) : null;
  const orderClaim = o?.id === undefined && o?.source_id !== undefined ? reads.get(entities.orderSourceId.key(projectId, o.source_id)) : null;
  return {
    customerId: c?.id ?? (customerClaim ? entities.customerSourceId.fromItem(customerClaim).customerId : null),
    orderId: orderClaim ? entities.orderSourceId.fromItem(orderClaim).orderId : null,
  };
}

/**
 * The validation-rule assignment keys of the candidates known after round 1, for the project's
 * rule counter as round 1 read it: none when the project has no assignment (the engine then asks
 * for none either), the vouchers' only when vouchers have some; campaigns' always, and the tiers of
 * the promotion campaigns already read. The engine (readForValidation) would ask for the same keys
 * in a round of its own; read with the campaigns, they cost no round trip when round 2 happens anyway.
 */
function assignmentKeysOf(reads: PrefetchedReads, projectId: string, known: { vouchers: readonly string[]; campaigns: readonly string[] }): ItemKey[] {
  const counterItem = reads.get(entities.validationRuleCounter.key(projectId));
  if (counterItem === undefined) return [];
  const counts = counterItem === null ? { count: 0 } : entities.validationRuleCounter.fromItem(counterItem);
  if ((counts.assignments ?? 0) === 0) return [];
  const vouchersToo = counts.voucherAssignments === undefined || counts.voucherAssignments > 0;
  const campaignIds = [...new Set(known.campaigns)];
  const tierIds = campaignIds.flatMap((id) => {
    const item = reads.get(entities.campaign.key(projectId, id));
    return item ? (entities.campaign.fromItem(item).promotionTiers ?? []).map((t) => t.id) : [];
  });
  return [...(vouchersToo ? known.vouchers : []), ...campaignIds, ...tierIds].map((id) => entities.objectAssignments.key(projectId, id));
}

/** Candidates examined before checking whether the page is full (kept from when they were evaluated in parallel: the same candidates are examined). */
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
  /** With `options.expand` holding `validation_rules`: each redeemable's own rule assignments (by its id; none: absent). */
  assignments: ReadonlyMap<string, ValidationRuleAssignment[]> | null;
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
 * project's newest STANDALONE campaigns, the unheld generic codes among its newest vouchers of no
 * campaign, and the tiers of its PROMOTION campaigns (one Query of the project's campaign list, then
 * one Query per STANDALONE campaign and one of the vouchers of no campaign, each only when what this
 * container learnt does not hold), within the scenario and filters
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
  const limit = body.options?.limit ?? DEFAULT_QUALIFICATION_LIMIT;
  const { context, qualified } = await qualify(deps, projectId, body, { limit, tiersOnly: false });
  const { page, hasMore } = cutPage(qualified, limit);
  const last = page[page.length - 1];
  // The engine keeps which rules an object has, not its assignment records: asked for, they cost one BatchGet of ≤ 50 keys.
  const expandRules = body.options?.expand?.includes('validation_rules') === true && page.length > 0;
  return {
    context,
    redeemables: sortPage(page, body.options?.sorting_rule ?? 'DEFAULT'),
    hasMore,
    moreStartingAfter: hasMore && last ? last.createdAt : null,
    assignments: expandRules
      ? await getObjectAssignmentsMany(
          deps,
          projectId,
          page.map((q) => q.evaluated.id),
        )
      : null,
  };
}

/** Promotion tiers examined by the legacy POST /v1/promotions/validation: the newest ones (the reference's limit). */
export const LEGACY_PROMOTION_TIERS = 150;

/**
 * The promotion tiers the customer and/or order qualify for, each evaluated alone by the validation
 * engine (as checkEligibility's tiers), in hierarchy order (then newest first); for the legacy
 * POST /v1/promotions/validation. `audienceOnly` evaluates them without the order. Writes nothing.
 * @throws as checkEligibility.
 */
export async function qualifyPromotionTiers(
  deps: Deps,
  projectId: string,
  body: Pick<CheckEligibilityBody, 'customer' | 'order' | 'metadata'>,
  options: { audienceOnly: boolean; tierIds?: readonly string[] | undefined },
): Promise<{ context: Evaluation; tiers: QualifiedRedeemable[] }> {
  const request: CheckEligibilityBody = {
    ...body,
    scenario: options.audienceOnly ? 'AUDIENCE_ONLY' : 'ALL',
    ...(options.tierIds ? { options: { filters: { resource_id: { conditions: { $in: [...options.tierIds] } } } } } : {}),
  };
  const { context, qualified } = await qualify(deps, projectId, request, { limit: LEGACY_PROMOTION_TIERS, tiersOnly: true });
  const hierarchy = (q: QualifiedRedeemable) => q.evaluated.tier?.hierarchy ?? 0;
  const tiers = qualified
    .filter((q) => q.evaluated.status === 'APPLICABLE')
    .slice(0, LEGACY_PROMOTION_TIERS)
    .sort((a, b) => hierarchy(a) - hierarchy(b));
  return { context, tiers };
}

/**
 * The qualified candidates, newest first, at most `limit` + 1 (the page and whether there is more);
 * `tiersOnly` reads promotion tiers alone (no wallet, no generic codes).
 */
async function qualify(
  deps: Deps,
  projectId: string,
  body: CheckEligibilityBody,
  opts: { limit: number; tiersOnly: boolean },
): Promise<{ context: Evaluation; qualified: QualifiedRedeemable[] }> {
  const reads = new PrefetchedReads(deps);
  // Every read of the engine is answered from memory: its hints would only cost time.
  const engine = {
    ddb: deps.ddb,
    tableName: deps.tableName,
    ids: deps.ids,
    readHints: NO_READ_HINTS,
    knownValueOf: reads.knownValueOf,
    readItems: reads.readItems,
  };
  const scenario = body.scenario ?? 'ALL';
  const limit = opts.limit;
  const scope = opts.tiersOnly ? { sources: new Set<CandidateSource>(['tier']), itemLevelOnly: false } : scenarioScope(scenario);
  // Derived once here rather than hashed again by each candidate's evaluation.
  const trackingId = trackingIdOf(projectId, body);
  const base: Omit<StackedRequest, 'redeemables'> = {
    ...(body.order !== undefined ? { order: body.order } : {}),
    ...(body.customer !== undefined ? { customer: body.customer } : {}),
    ...(trackingId !== null ? { tracking_id: trackingId } : {}),
    ...(body.metadata !== undefined ? { metadata: body.metadata } : {}),
  };

  // Round 1, in parallel: one BatchGetItem of what the context needs (stacking rules, customer,
  // order, by key or source-id claim), the project's campaign counter, and what this container's
  // hints expect (the wallet's campaigns, the offer campaigns and their generic codes); and the
  // wallet when the customer is named by id.
  const hints = deps.qualificationHints;
  const hintKey = body.customer?.id !== undefined ? `id:${body.customer.id}` : body.customer?.source_id !== undefined ? `src:${body.customer.source_id}` : null;
  const wantsTiers = scope.sources.has('tier');
  const wantsPublic = scope.sources.has('public');
  const wantsOffers = wantsTiers || wantsPublic;
  const offerHint = wantsOffers ? hints.offers(projectId) : undefined;
  const hintedOffers = offerHint ? [...(wantsTiers ? offerHint.promotions : []), ...(wantsPublic ? offerHint.standalone : [])] : [];
  const hintedCodes = offerHint && wantsPublic ? offerHint.standalone.flatMap((id) => offerHint.codes[id]?.codes ?? []) : [];
  // The project's vouchers of no campaign are one more generic-code list, under NO_CAMPAIGN, marked by the project's counter.
  const noCampaignHint = wantsPublic ? offerHint?.codes[NO_CAMPAIGN] : undefined;
  const noCampaignCounterKey = entities.standaloneVoucherCounter.key(projectId);
  const hintedWallet = hintKey !== null && scope.sources.has('wallet') ? hints.walletCampaigns(projectId, hintKey) : [];
  const campaignKey = (id: string) => entities.campaign.key(projectId, id);
  const counterKey = entities.campaignCounter.key(projectId);
  const walletOf = (customerId: string | null) =>
    scope.sources.has('wallet') && customerId !== null ? readWallet(deps, reads, projectId, customerId) : Promise.resolve([]);
  const knownId = body.customer?.id ?? null;
  const roundKeys = [
    ...contextKeysOf(projectId, body),
    ...(wantsOffers ? [counterKey] : []),
    ...(wantsPublic ? [noCampaignCounterKey] : []),
    ...[...hintedWallet, ...hintedOffers].map(campaignKey),
    ...[...hintedCodes, ...(noCampaignHint?.codes ?? [])].map((code) => entities.voucher.key(projectId, code)),
  ];
  // The wallet's Query is sent first (it is the longer read), the BatchGetItem right after it.
  const walletRead = knownId !== null ? walletOf(knownId) : Promise.resolve(null);
  const [, earlyWallet] = await Promise.all([reads.read(roundKeys), walletRead]);

  // The offer hint holds when no campaign was created since it was learnt and every campaign it
  // names is still there; otherwise the campaign list is queried, after the counter was read.
  const counterItem = wantsOffers ? reads.get(counterKey) : null;
  const campaignsCreated = counterItem ? entities.campaignCounter.fromItem(counterItem).campaignCount : 0;
  const hintHolds = offerHint !== undefined && offerHint.campaignsCreated === campaignsCreated && hintedOffers.every((id) => !!reads.get(campaignKey(id)));
  const offersOf = async (): Promise<OfferCampaigns> => {
    if (!wantsOffers) return { promotions: [], standalone: [] };
    if (hintHolds) return offerHint;
    const entries = await listOfferCampaigns(deps, projectId);
    return {
      promotions: entries.filter((c) => c.campaignType === 'PROMOTION').map((c) => c.id),
      standalone: entries
        .filter((c) => c.type === 'STANDALONE' && c.campaignType !== 'PROMOTION')
        .slice(0, MAX_PUBLIC_CAMPAIGNS)
        .map((c) => c.id),
    };
  };
  // A customer named by source id: its claim was read in round 1, its wallet now.
  const claimed = claimedIds(reads, projectId, body);
  const [wallet, offers] = await Promise.all([earlyWallet ?? walletOf(claimed.customerId), offersOf()]);
  const promotions = wantsTiers ? offers.promotions : [];
  const standalone = wantsPublic ? offers.standalone : [];
  const walletCampaigns = wallet.flatMap((v) => (v.campaignId !== null ? [v.campaignId] : []));

  // A generic-code campaign's hinted codes hold when its marker, read in round 1, is the one they
  // were learnt with and each is still its voucher; the others are queried.
  const codesByCampaign = new Map<string, Item[]>();
  const toQuery: string[] = [];
  for (const id of standalone) {
    const hint = offerHint?.codes[id];
    const item = reads.get(campaignKey(id));
    const items = hint?.codes.map((code) => reads.get(entities.voucher.key(projectId, code)));
    const holds =
      hint && item && codesMarker(reads.remember(item, entities.campaign.fromItem(item))) === hint.marker && items?.every((i) => !!i && i.campaignId === id);
    if (holds && items) codesByCampaign.set(id, items as Item[]);
    else toQuery.push(id);
  }
  // The newest vouchers of no campaign hold likewise: the project's counter, read in round 1, is the
  // marker they were learnt with, and each is still a voucher of no campaign; otherwise their list is queried.
  const noCampaignCounter = reads.get(noCampaignCounterKey);
  const noCampaignMarker = codesMarker(noCampaignCounter ? entities.standaloneVoucherCounter.fromItem(noCampaignCounter) : { vouchersCount: 0 });
  const noCampaignItems = noCampaignHint?.codes.map((code) => reads.get(entities.voucher.key(projectId, code)));
  const noCampaignHolds =
    noCampaignHint?.marker === noCampaignMarker && noCampaignItems?.every((i) => !!i && (i.campaignId === null || i.campaignId === undefined)) === true;
  if (noCampaignHolds && noCampaignItems) codesByCampaign.set(NO_CAMPAIGN, noCampaignItems as Item[]);
  // Codes learnt from a Query are trusted later only if their campaign's marker was read before it.
  const readBefore = new Set(toQuery.filter((id) => !!reads.get(campaignKey(id))));
  const heldVouchers = [...codesByCampaign.values()].flat().map((item) => reads.remember(item, readOnlyVoucher(item)));

  // Round 2, only for what round 1 did not guess: campaigns, the claimed customer and order, generic
  // codes; and, in a project with validation rules, the assignments of the candidates known by now.
  const assignmentKeys = assignmentKeysOf(reads, projectId, {
    vouchers: [...wallet, ...heldVouchers].map((v) => v.id),
    campaigns: [...walletCampaigns, ...promotions, ...standalone],
  });
  const [queried, noCampaignQueried, campaigns] = await Promise.all([
    Promise.all(toQuery.map((id) => queryCampaignCodes(deps, projectId, id))),
    wantsPublic && !noCampaignHolds ? queryCampaignCodes(deps, projectId, NO_CAMPAIGN) : Promise.resolve(null),
    readCampaigns(
      reads,
      projectId,
      [...walletCampaigns, ...promotions, ...standalone],
      [
        ...(claimed.customerId !== null ? [entities.customer.key(projectId, claimed.customerId)] : []),
        ...(claimed.orderId !== null ? [entities.order.key(projectId, claimed.orderId)] : []),
        ...assignmentKeys,
      ],
    ),
  ]);
  for (const items of [...queried, noCampaignQueried ?? []]) reads.add(items);
  // Unheld codes of a STANDALONE campaign read, and unheld generic codes of no campaign (a one-off code
  // of no campaign is handed out by the shop itself: docs/decisions.md "Qualifications").
  const publicCodes = [...heldVouchers, ...[...queried, noCampaignQueried ?? []].flat().map((item) => reads.remember(item, readOnlyVoucher(item)))].filter(
    (v) => (v.holderId === null || v.holderId === undefined) && (v.campaignId !== null ? campaigns.has(v.campaignId) : isGenericCode(v)),
  );
  rememberTierPointers(reads, campaigns.values());

  if (hintKey !== null && scope.sources.has('wallet')) hints.learnWallet(projectId, hintKey, walletCampaigns);
  if (wantsOffers) {
    const codes: Record<string, CodesHint> = {};
    for (const id of offers.standalone) {
      const kept = codesByCampaign.has(id) || !wantsPublic ? offerHint?.codes[id] : undefined;
      if (kept) codes[id] = kept;
    }
    toQuery.forEach((id, i) => {
      const c = campaigns.get(id);
      const items = queried[i] ?? [];
      // Fewer codes than its count says: the index has not caught up with an insert yet.
      if (c && readBefore.has(id) && items.length === Math.min(PUBLIC_CODES_PER_CAMPAIGN, c.vouchersCount)) {
        codes[id] = { marker: codesMarker(c), codes: items.map((item) => String(item.code)) };
      }
    });
    // The counter was read in round 1, before the Query. Vouchers stored before the counter existed
    // are not counted, so the index may show more than it says, never (caught up) fewer.
    const noCampaignCount = noCampaignCounter ? entities.standaloneVoucherCounter.fromItem(noCampaignCounter).vouchersCount : 0;
    if (noCampaignHolds || !wantsPublic) {
      if (offerHint?.codes[NO_CAMPAIGN]) codes[NO_CAMPAIGN] = offerHint.codes[NO_CAMPAIGN];
    } else if (noCampaignQueried && noCampaignQueried.length >= Math.min(PUBLIC_CODES_PER_CAMPAIGN, noCampaignCount)) {
      codes[NO_CAMPAIGN] = { marker: noCampaignMarker, codes: noCampaignQueried.map((item) => String(item.code)) };
    }
    hints.learnOffers(projectId, { campaignsCreated, promotions: offers.promotions, standalone: offers.standalone, codes });
  }

  // One read of every candidate for the engine, answered from memory (the assignments and rules
  // aside, when the project has some: one round for all candidates); the items are turned into
  // values once, and each candidate is then evaluated alone, synchronously, from them.
  const offered: Candidate[] = [
    ...publicCodes.map((v) => voucherCandidate(v, 'public', campaigns)),
    ...promotions.flatMap((id) => {
      const c = campaigns.get(id);
      return c ? tierCandidates(c) : [];
    }),
  ];
  const walletCandidates = wallet.map((v) => voucherCandidate(v, 'wallet', campaigns));
  const filters = body.options?.filters;
  const startingAfter = body.options?.starting_after ?? null;
  const mayExamine = candidatesToExamine([...walletCandidates, ...offered], scenario, filters, startingAfter);
  const evaluator = await evaluateEach(
    engine,
    projectId,
    base,
    mayExamine.map((c) => ({ object: c.object, id: c.id })),
    deps.clock,
  );
  const context = evaluator.evaluate(base, []);
  const walletIsTheirs = context.customer !== null && (knownId === null || context.customer.id === knownId);
  const toExamine = walletIsTheirs ? mayExamine : candidatesToExamine(offered, scenario, filters, startingAfter);
  const audienceOnly = scenario === 'AUDIENCE_ONLY';
  const request = audienceOnly ? { ...base, order: undefined } : base;

  const evaluate = (c: Candidate): QualifiedRedeemable | null => {
    let evaluation: Evaluation;
    try {
      evaluation = evaluator.evaluate(request, [{ object: c.object, id: c.id }]);
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
    for (const c of toExamine.slice(i, i + EVALUATION_BATCH)) {
      const q = evaluate(c);
      if (q) qualified.push(q);
    }
  }
  return { context, qualified };
}
