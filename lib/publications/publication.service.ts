import { randomInt } from 'node:crypto';
import type { Campaign, VoucherCampaign } from '../campaigns/campaign.js';
import * as campaignRepo from '../campaigns/campaign.repo.js';
import { loadCampaign } from '../campaigns/campaign.service.js';
import type { Customer } from '../customers/customer.js';
import type { CustomerInput } from '../customers/customer.schema.js';
import * as customerRepo from '../customers/customer.repo.js';
import { upsertCustomer } from '../customers/customer.service.js';
import { heldVoucher } from '../db/entities.js';
import { MAX_TRANSACTION_ITEMS, RETRY, retryOnConflict, type TransactItem } from '../db/transact.js';
import { BadRequestError, CodeSpaceExhaustedError, InvalidCampaignError, InvalidQueryParamsError, NotFoundError } from '../errors.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import { commitOnce, type Committed, recordedReply } from '../idempotency/idempotency.service.js';
import type { Runtime } from '../runtime.js';
import { CodeSampler } from '../vouchers/code-generator.js';
import { isGenericCode, isPublishable, type Voucher } from '../vouchers/voucher.js';
import { assertCodesFit, generateVouchers, newVoucher } from '../vouchers/voucher-generation.js';
import { getHeldVoucher, putHeldVoucherItem } from '../vouchers/voucher-holder.repo.js';
import { poolCandidates, publishNamedItem, publishPooledItem, recordPublicationItem, stillPublishable } from '../vouchers/voucher-pool.repo.js';
import * as voucherRepo from '../vouchers/voucher.repo.js';
import { countVouchersItem, voucherPutItems } from '../vouchers/voucher.repo.js';
import { createdVouchersDelta } from '../campaigns/campaign-summary.js';
import { summaryCounterUpdates } from '../campaigns/campaign-summary.repo.js';
import { loadVoucher } from '../vouchers/voucher.service.js';
import {
  ALL_PUBLICATIONS,
  API_CHANNEL,
  campaignView,
  customerView,
  MAX_PUBLICATION_COUNT,
  type Publication,
  publishedVoucherOf,
  REFERRAL_PUBLICATIONS,
  typeView,
  voucherView,
} from './publication.js';
import type { ListPublicationsQuery, PublicationFilterField, PublicationStringConditions } from './publication.schema.js';
import * as repo from './publication.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** A publication request, from the body of POST /v1/publications or the query of its legacy GET form. */
export interface PublicationRequest {
  voucher?: string | undefined;
  campaign?: { name: string; count?: number | undefined } | string | undefined;
  customer: CustomerInput;
  sourceId?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  channel?: string | undefined;
  joinOnce: boolean;
}

/** What a publication request came to: the publication, its customer, and the one voucher it gave (null when it gave several). */
export interface PublicationResult {
  publication: Publication;
  customer: Customer;
  voucher: Voucher | null;
}

/** Candidates read from a pool for `count` vouchers: spares, so concurrent publications need not read again after a lost race. */
const candidatesFor = (count: number): number => Math.min(100, count * 2 + 8);

const alreadyPublished = (v: Voucher) =>
  new BadRequestError('voucher_already_published', 'Voucher already published', `Voucher '${v.id}' has already been published`);
const tooMany = (max: number, why: string) =>
  new BadRequestError('too_many_vouchers_requested', 'Too many vouchers requested', `Only up to ${max} can be published${why}`);
const noneSuitable = (details: string) =>
  new BadRequestError('no_voucher_suitable_for_publication', "Couldn't find any voucher suitable for publication", details);
const cannotPublish = (details: string) => new BadRequestError('voucher_cannot_be_published', 'Voucher cannot be published', details);

type Source = { kind: 'voucher'; code: string } | { kind: 'campaign'; ref: string; count: number };

/**
 * What the request asks to publish: a voucher code wins over a campaign (Voucherify: "if you
 * provide both, campaign param will be skipped").
 * @throws BadRequestError `missing_vouchers` (neither), `too_many_vouchers_requested` (above `maxCount`, or above 1 with a source_id).
 */
function sourceOf(request: PublicationRequest, maxCount: number): Source {
  if (request.voucher !== undefined) return { kind: 'voucher', code: request.voucher };
  if (request.campaign === undefined) throw new BadRequestError('missing_vouchers', 'Missing vouchers', 'Either Campaign or Voucher is required');
  const campaign = typeof request.campaign === 'string' ? { name: request.campaign } : request.campaign;
  const count = campaign.count ?? 1;
  if (count > maxCount) throw tooMany(maxCount, maxCount === 1 ? ' with this endpoint; POST /v1/publications publishes more' : '');
  if (count > 1 && request.sourceId !== undefined) throw tooMany(1, ' with a source_id');
  return { kind: 'campaign', ref: campaign.name, count };
}

/** Fisher–Yates with a CSPRNG: each publication picks its own random vouchers among the candidates. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The request's voucher or campaign, resolved once before the attempts. */
type Target = { kind: 'voucher'; voucher: Voucher; campaign: Campaign | null } | { kind: 'campaign'; campaign: VoucherCampaign; count: number };

async function resolve(deps: Deps, projectId: string, source: Source): Promise<Target> {
  if (source.kind === 'voucher') {
    const voucher = await loadVoucher(deps, projectId, source.code);
    const campaign = voucher.campaignId ? await campaignRepo.getCampaign(deps, projectId, voucher.campaignId) : null;
    return { kind: 'voucher', voucher, campaign };
  }
  return resolveCampaign(deps, projectId, source.ref, source.count);
}

async function resolveCampaign(deps: Deps, projectId: string, ref: string, count: number): Promise<Target> {
  const campaign = await loadCampaign(deps, projectId, ref);
  if (!campaign.voucher) throw new InvalidCampaignError(`Campaign ${campaign.name} is a ${campaign.campaignType} and has no vouchers to publish`);
  return { kind: 'campaign', campaign: campaign as VoucherCampaign, count };
}

/**
 * The state of one publication across its commit attempts: its id and time are fixed, the
 * candidates read from the pool are kept (minus those lost to other publications), and the codes
 * drawn for vouchers generated on the spot are kept until one turns out to be taken.
 */
class Publisher {
  readonly id: string;
  readonly at: string;
  readonly customerId: string;
  private candidates: Voucher[] | null = null;
  private readonly lost = new Set<string>();
  private sampler: CodeSampler | null = null;
  private codes: string[] = [];

  constructor(
    private readonly deps: Deps,
    private readonly projectId: string,
    private readonly request: PublicationRequest,
    private readonly customer: Customer,
    now: Date,
  ) {
    this.id = deps.ids.id('pub');
    this.at = now.toISOString();
    this.customerId = customer.id;
  }

  /** The publication of `vouchers` (as published), listed in its views. */
  publication(vouchers: readonly Voucher[]): Publication {
    const [first] = vouchers;
    if (!first) throw new Error('A publication gives at least one voucher');
    return {
      id: this.id,
      projectId: this.projectId,
      createdAt: this.at,
      customerId: this.customer.id,
      customer: this.customer,
      metadata: this.request.metadata ?? {},
      channel: this.request.channel ?? API_CHANNEL,
      sourceId: this.request.sourceId ?? null,
      campaignId: first.campaignId,
      voucherType: first.type,
      isReferralCode: first.isReferralCode,
      vouchers: vouchers.map((v) => ({ id: v.id, code: v.code })),
      voucher: vouchers.length === 1 ? publishedVoucherOf(first) : null,
    };
  }

  /** A named voucher as its publication leaves it. */
  publishedCopy(v: Voucher, generic: boolean): Voucher {
    const base = { ...v, updatedAt: this.at, publishCount: v.publishCount + 1 };
    return generic ? { ...base, holderId: v.holderId ?? this.customer.id } : { ...base, holderId: this.customer.id, publicationId: this.id };
  }

  /**
   * Up to `count` publishable vouchers of the campaign's pool, picked at random among the
   * candidates; the pool is read again when too few candidates are left.
   */
  async pick(campaign: VoucherCampaign, count: number): Promise<Voucher[]> {
    await this.prefetch(campaign, count);
    return shuffled(this.usable()).slice(0, count);
  }

  /** Reads the pool when fewer than `count` candidates are left (run beside the attempt's other reads). */
  async prefetch(campaign: VoucherCampaign, count: number): Promise<void> {
    if (this.usable().length >= count) return;
    // Kept candidates stay: the index may not list vouchers generated a moment ago yet.
    const kept = new Map(this.usable().map((v) => [v.id, v]));
    for (const v of await poolCandidates(this.deps, this.projectId, campaign.id, candidatesFor(count))) if (!kept.has(v.id)) kept.set(v.id, v);
    this.candidates = [...kept.values()];
  }

  private usable(): Voucher[] {
    return (this.candidates ?? []).filter((v) => !this.lost.has(v.id));
  }

  /** Vouchers just generated into the pool: candidates at once, without waiting for the index to list them. */
  addCandidates(vouchers: readonly Voucher[]): void {
    this.candidates = [...(this.candidates ?? []).filter((v) => !this.lost.has(v.id)), ...vouchers];
  }

  /**
   * After picked vouchers failed their conditions: those still publishable as they are now
   * (changed meanwhile, not published) stay candidates with their fresh copy; the others are lost.
   */
  async lose(failed: readonly Voucher[]): Promise<void> {
    const fresh = await stillPublishable(this.deps, this.projectId, failed, isPublishable);
    const freshIds = new Set(fresh.map((v) => v.id));
    for (const v of failed) if (!freshIds.has(v.id)) this.lost.add(v.id);
    const failedIds = new Set(failed.map((v) => v.id));
    this.candidates = [...(this.candidates ?? []).filter((v) => !failedIds.has(v.id)), ...fresh];
  }

  /**
   * `count` new vouchers of an AUTO_UPDATE campaign, published from birth, with codes from its
   * `code_config` (kept across attempts until one is found taken).
   * @throws BadRequestError `no_voucher_suitable_for_publication` when the pattern has no free code left.
   */
  generate(campaign: VoucherCampaign, count: number): Voucher[] {
    try {
      if (this.sampler === null) {
        assertCodesFit(campaign.voucher.codeConfig, count, campaign.vouchersCount);
        this.sampler = new CodeSampler(campaign.voucher.codeConfig, count);
      }
      while (this.codes.length < count) {
        const code = this.sampler.next();
        if (code === null) throw new CodeSpaceExhaustedError(`No free code left for pattern ${campaign.voucher.codeConfig.pattern}`);
        this.codes.push(code);
      }
    } catch (error) {
      if (error instanceof CodeSpaceExhaustedError) throw noneSuitable(`Couldn't create new vouchers for publication: ${error.details ?? error.message}`);
      throw error;
    }
    return this.codes.slice(0, count).map((code) => ({
      ...newVoucher(this.deps, campaign, code, { category: campaign.category }),
      holderId: this.customer.id,
      publicationId: this.id,
      publishCount: 1,
      updatedAt: this.at,
    }));
  }

  /** Codes of generated vouchers found taken: the next attempt draws others instead. */
  codesTaken(codes: readonly string[]): void {
    this.codes = this.codes.filter((c) => !codes.includes(c));
  }
}

/** Items of one commit attempt, with the positions whose failed condition means something. */
interface Plan {
  items: TransactItem[];
  /** The published vouchers, in publication order. */
  vouchers: Voucher[];
  /** Position → the voucher as read, for the updates of existing vouchers. */
  updates: Map<number, Voucher>;
  /** Position → code, for the puts of generated vouchers. */
  generated: Map<number, string>;
  campaignCounterAt: number;
  publicationAt: number;
}

/** Items besides the vouchers: publication, source id, ≤ 6 views × (entry + count), held voucher, campaign count, campaign summary counter, idempotency record. */
const FIXED_ITEMS = 1 + 1 + 12 + 1 + 1 + 1 + 1;

/**
 * POST /v1/publications (and its legacy GET form, with `maxCount` 1): publishes to the customer
 * (upserted by id or source_id) either the voucher named by its code or `count` vouchers of a
 * campaign: unpublished ones picked at random from the campaign's pool, or for an AUTO_UPDATE
 * campaign, as many as the pool lacks generated on the spot from its `code_config`. Everything a
 * publication changes is one transaction with conditions: each voucher's holder, publish count and
 * removal from the pool, generated vouchers and the campaign's count, the publication with its list
 * entries and counts, the customer's held-voucher record, the `source_id` reservation, and the
 * Idempotency-Key's record. A voucher is given once: of concurrent publications reaching for one
 * voucher exactly one wins; the others pick again among the rest. In a join-once campaign (or with
 * `join_once`) a customer gets one voucher: a second publication returns the first one. A known
 * `source_id` of the same customer returns its publication.
 * @throws BadRequestError (`missing_vouchers`, `too_many_vouchers_requested`, `voucher_already_published`,
 *   `voucher_cannot_be_published`, `no_voucher_suitable_for_publication`, `duplicate_source_id`),
 *   NotFoundError (voucher, campaign, customer), InvalidCampaignError, IdempotencyKeyReusedError, ConflictRetryError.
 */
export async function createPublication(
  deps: Deps,
  projectId: string,
  request: PublicationRequest,
  idempotency: IdempotencyScope | null,
  maxCount: number = MAX_PUBLICATION_COUNT,
): Promise<Committed<PublicationResult>> {
  const now = deps.clock.now();
  if (idempotency) {
    const first = await recordedReply<PublicationResult>(deps, idempotency, now);
    if (first !== undefined) return { value: first, replayed: true };
  }
  const source = sourceOf(request, maxCount);
  const target = await resolve(deps, projectId, source);
  const busy = `Too many concurrent publications for ${source.kind === 'voucher' ? `voucher ${source.code}` : `campaign ${source.ref}`}`;
  return publish(deps, projectId, request, target, idempotency, now, busy, EVERY_PATH);
}

/**
 * Order earning's auto-join (lib/loyalties/order-earning.service.ts): one card of the program `campaignId` published
 * to the customer `customerId`, join-once, without `source_id` or Idempotency-Key. The same publication as
 * createPublication with `{ campaign: campaignId, customer: { id: customerId }, joinOnce: true }` and a count of 1,
 * through a path that leaves out what such a request never reaches (a named code, a known `source_id`, a top-up of
 * the pool for a large count), so the checkout's bundles do not carry them (docs/benchmarks.md "Redemption bundles
 * under 340 KiB").
 * @throws as createPublication.
 */
export async function joinProgram(deps: Deps, projectId: string, campaignId: string, customerId: string): Promise<Committed<PublicationResult>> {
  const now = deps.clock.now();
  const target = await resolveCampaign(deps, projectId, campaignId, 1);
  const request: PublicationRequest = { campaign: campaignId, customer: { id: customerId }, joinOnce: true };
  return publish(deps, projectId, request, target, null, now, `Too many concurrent publications for campaign ${campaignId}`, CAMPAIGN_PATH);
}

/**
 * A reward's voucher (lib/loyalties/reward-redemption.service.ts): one voucher of `campaignId` published to the
 * customer `customerId` under `sourceId`, as createPublication would with `{ campaign: campaignId, customer: { id:
 * customerId }, sourceId, joinOnce: false }` and a count of 1, without the paths such a request never reaches.
 * @throws as createPublication.
 */
export async function publishUnderSourceId(
  deps: Deps,
  projectId: string,
  campaignId: string,
  customerId: string,
  sourceId: string,
): Promise<Committed<PublicationResult>> {
  const now = deps.clock.now();
  const target = await resolveCampaign(deps, projectId, campaignId, 1);
  const request: PublicationRequest = { campaign: campaignId, customer: { id: customerId }, sourceId, joinOnce: false };
  return publish(deps, projectId, request, target, null, now, `Too many concurrent publications for campaign ${campaignId}`, SOURCE_ID_PATH);
}

/**
 * The paths of a publication that only some requests reach, passed in by the caller that can reach them, so a
 * bundle whose caller never does leaves them out (esbuild keeps whatever a kept function names).
 */
interface RarePaths {
  /** A `source_id` already known (the request has one). */
  bySourceId?: typeof existingBySourceId;
  /** A voucher named by its code (the request names one). */
  named?: { reread: typeof voucherOrNull; plan: typeof namedPlan };
  /** More vouchers than one transaction can generate (a count above 1). */
  topUp?: typeof generateVouchers;
}

const EVERY_PATH: RarePaths = { bySourceId: existingBySourceId, named: { reread: voucherOrNull, plan: namedPlan }, topUp: generateVouchers };
const CAMPAIGN_PATH: RarePaths = {};
const SOURCE_ID_PATH: RarePaths = { bySourceId: existingBySourceId };

/** The attempts of one publication of `target` (createPublication's, after its source is resolved). */
async function publish(
  deps: Deps,
  projectId: string,
  request: PublicationRequest,
  target: Target,
  idempotency: IdempotencyScope | null,
  now: Date,
  busy: string,
  paths: RarePaths,
): Promise<Committed<PublicationResult>> {
  const campaign = target.campaign;
  const joinOnce = request.joinOnce || campaign?.joinOnce === true;
  if (joinOnce && target.kind === 'campaign' && target.count > 1) throw tooMany(1, ' to a customer in a join-once campaign');
  const customer = await upsertCustomer(deps, projectId, request.customer);
  const publisher = new Publisher(deps, projectId, request, customer, now);
  let named = target.kind === 'voucher' ? target.voucher : null;

  return retryOnConflict(busy, async (attempt) => {
    if (request.sourceId !== undefined && paths.bySourceId) {
      const known = await paths.bySourceId(deps, projectId, request.sourceId, customer);
      if (known) return { value: known, replayed: false };
    }
    // The pool is read beside the held voucher (one round trip); a join-once customer who holds one wastes that read.
    const [held] = await Promise.all([
      campaign ? getHeldVoucher(deps, projectId, customer.id, campaign.id) : null,
      target.kind === 'campaign' ? publisher.prefetch(target.campaign, target.count) : undefined,
    ]);
    if (joinOnce && campaign && held?.voucher) {
      if (named && named.code !== held.voucher.code) {
        throw cannotPublish(`Voucher cannot be published. Customer already joined program: it holds voucher ${held.voucher.code} of campaign ${campaign.name}`);
      }
      const given = held.publicationId ? await repo.getPublication(deps, projectId, held.publicationId) : null;
      if (held.publicationId && !given) throw new Error(`Held voucher ${held.voucher.id} names publication ${held.publicationId}, which is missing`);
      if (given) return { value: { publication: given, customer, voucher: given.vouchers.length === 1 ? held.voucher : null }, replayed: false };
    }

    let plan: Plan;
    if (joinOnce && campaign && held?.voucher) {
      plan = adoptionPlan(deps, publisher, held.voucher, campaign);
    } else if (target.kind === 'voucher') {
      if (!paths.named) throw new Error('A publication of a named voucher needs its path (createPublication)');
      if (attempt > 0) named = await paths.named.reread(deps, projectId, target.voucher.code);
      if (!named) throw new NotFoundError('voucher', request.voucher ?? '');
      plan = paths.named.plan(deps, publisher, named);
    } else {
      const planned = await campaignPlan(deps, publisher, target.campaign, target.count, paths.topUp);
      if (planned === RETRY) return RETRY;
      plan = planned;
    }
    if (campaign && !held?.voucher && plan.vouchers[0]) {
      plan.items.push(putHeldVoucherItem(deps, plan.vouchers[0], held?.staleVoucherId ?? null, publisher.id));
    }
    const publication = publisher.publication(plan.vouchers);
    plan.publicationAt = plan.items.length;
    const generic = plan.vouchers.length === 1 && plan.vouchers[0] && isGenericCode(plan.vouchers[0]) ? plan.vouchers[0].id : null;
    plan.items.push(...repo.publicationItems(deps, publication, generic));
    // The campaign's summary figures (get-campaign-summary): this publication, and the vouchers it generated.
    if (campaign) {
      const created = plan.vouchers.filter((v) => [...plan.generated.values()].includes(v.code));
      const delta = { publications: 1, publicationsSucceeded: 1, ...(created.length > 0 ? createdVouchersDelta(created) : {}) };
      plan.items.push(...summaryCounterUpdates(deps, projectId, campaign.id, publisher.at, delta));
    }

    const result: PublicationResult = { publication, customer, voucher: plan.vouchers.length === 1 ? (plan.vouchers[0] ?? null) : null };
    const outcome = await commitOnce(deps, idempotency, plan.items, result, now);
    if (outcome.ok) return { value: outcome.reply, replayed: outcome.replayed };
    if (!('failed' in outcome)) return RETRY;
    if (outcome.failed.includes(plan.publicationAt)) throw new Error(`Publication id ${publisher.id} is already taken`);
    if (outcome.failed.includes(plan.campaignCounterAt)) throw new NotFoundError('campaign', campaign?.id ?? '');
    const lost = outcome.failed.flatMap((i) => plan.updates.get(i) ?? []);
    if (lost.length > 0 && target.kind === 'campaign') await publisher.lose(lost);
    publisher.codesTaken(outcome.failed.flatMap((i) => plan.generated.get(i) ?? []));
    // Anything else (the voucher published or changed meanwhile, the held voucher or source id
    // taken by a concurrent publication): read again and re-plan.
    return RETRY;
  });
}

/**
 * The publication a known `source_id` names, when it is the same customer's (the request is
 * answered with it, as the code stays assigned to that source id).
 * @throws BadRequestError `duplicate_source_id` when another customer's publication has it.
 */
async function existingBySourceId(deps: Deps, projectId: string, sourceId: string, customer: Customer): Promise<PublicationResult | null> {
  const claim = await repo.getPublicationSourceId(deps, projectId, sourceId);
  if (!claim) return null;
  if (claim.customerId !== customer.id) {
    throw new BadRequestError('duplicate_source_id', 'Duplicate source_id', `Publication with source_id: '${sourceId}' already exists`);
  }
  const publication = await repo.getPublication(deps, projectId, claim.publicationId);
  if (!publication) throw new Error(`Source id ${sourceId} names publication ${claim.publicationId}, which is missing`);
  const [only] = publication.vouchers;
  const voucher = publication.vouchers.length === 1 && only ? await voucherOrNull(deps, projectId, only.code) : null;
  return { publication, customer, voucher };
}

/** The voucher of a code as it is now; null once it is gone (deleted meanwhile). */
async function voucherOrNull(deps: Deps, projectId: string, code: string): Promise<Voucher | null> {
  try {
    return await loadVoucher(deps, projectId, code);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

const emptyPlan = (): Plan => ({ items: [], vouchers: [], updates: new Map(), generated: new Map(), campaignCounterAt: -1, publicationAt: -1 });

/**
 * A voucher named by its code: a one-holder voucher must be active and never published; a
 * generic code may be published again.
 * @throws BadRequestError `voucher_already_published`, `voucher_cannot_be_published` (disabled).
 */
function namedPlan(deps: Deps, publisher: Publisher, v: Voucher): Plan {
  const generic = isGenericCode(v);
  if (!generic && (v.publishCount > 0 || v.holderId !== null)) throw alreadyPublished(v);
  if (!v.active) throw cannotPublish(`Voucher ${v.code} is disabled`);
  const plan = emptyPlan();
  plan.updates.set(plan.items.push(publishNamedItem(deps, v, publisher.customerId, publisher.id, publisher.at, generic)) - 1, v);
  plan.vouchers.push(publisher.publishedCopy(v, generic));
  return plan;
}

/**
 * A customer of a join-once campaign who holds its voucher without a publication (a referee
 * reward gives one that way): the publication records that voucher, changing nothing else of it.
 */
function adoptionPlan(deps: Deps, publisher: Publisher, v: Voucher, campaign: Campaign): Plan {
  const plan = emptyPlan();
  plan.items.push(recordPublicationItem(deps, v, publisher.customerId, publisher.id));
  plan.items.push({
    Update: {
      TableName: deps.tableName,
      Key: heldVoucher.key(v.projectId, publisher.customerId, campaign.id),
      UpdateExpression: 'SET publicationId = :pub',
      ConditionExpression: 'voucherId = :vid AND (attribute_not_exists(publicationId) OR attribute_type(publicationId, :nullType))',
      ExpressionAttributeValues: { ':pub': publisher.id, ':vid': v.id, ':nullType': 'NULL' },
    },
  });
  plan.vouchers.push({ ...v, publicationId: publisher.id });
  return plan;
}

/**
 * `count` vouchers of the campaign: picked from its pool, and for an AUTO_UPDATE campaign the
 * rest generated in the same transaction. Generated vouchers take two items each; when they
 * would not fit one transaction, the surplus is first generated into the pool (unpublished, in
 * their own transactions) and the publication planned again.
 * @returns RETRY after such a top-up of the pool.
 * @throws BadRequestError `no_voucher_suitable_for_publication`.
 */
async function campaignPlan(
  deps: Deps,
  publisher: Publisher,
  campaign: VoucherCampaign,
  count: number,
  topUp: RarePaths['topUp'],
): Promise<Plan | typeof RETRY> {
  const picked = await publisher.pick(campaign, count);
  const short = count - picked.length;
  if (short > 0 && campaign.type !== 'AUTO_UPDATE') {
    throw noneSuitable(`Campaign ${campaign.name} has ${picked.length} voucher${picked.length === 1 ? '' : 's'} suitable for publication; ${count} requested`);
  }
  const room = MAX_TRANSACTION_ITEMS - FIXED_ITEMS;
  if (picked.length + 2 * short > room) {
    if (!topUp) throw new Error('A publication of this many vouchers needs its top-up path (createPublication)');
    // With p vouchers picked, the other count − p generated need 2 items each: p ≥ 2·count − room fits.
    const missing = 2 * count - room - picked.length;
    try {
      publisher.addCandidates(await topUp(deps, campaign, missing, { category: campaign.category }));
    } catch (error) {
      if (error instanceof CodeSpaceExhaustedError) throw noneSuitable(`Couldn't create new vouchers for publication: ${error.details ?? error.message}`);
      throw error;
    }
    return RETRY;
  }
  const plan = emptyPlan();
  for (const v of picked) {
    plan.updates.set(plan.items.push(publishPooledItem(deps, v, publisher.customerId, publisher.id, publisher.at)) - 1, v);
    plan.vouchers.push(publisher.publishedCopy(v, false));
  }
  if (short > 0) {
    for (const v of publisher.generate(campaign, short)) {
      plan.generated.set(plan.items.length, v.code);
      plan.items.push(...voucherPutItems(deps, campaign.id, v));
      plan.vouchers.push(v);
    }
    plan.campaignCounterAt = plan.items.push(countVouchersItem(deps, campaign.projectId, campaign.id, short)) - 1;
  }
  return plan;
}

/** One page of GET /v1/publications. */
export interface PublicationPage {
  publications: Publication[];
  /** The publications the filter names (its view's count); date bounds do not narrow it. */
  total: number;
  hasMore: boolean;
}

/** What a list request reads: one view, one known publication (or none), or nothing at all. */
type ListSource = { kind: 'view'; view: string } | { kind: 'one'; publicationId: string | null } | { kind: 'none' };

/** The one value a filter field asks for with `$is` (or an `$in` of one value); other operators no key serves. */
function isValue(field: string, filter: { conditions: PublicationStringConditions } | undefined): string | undefined {
  if (!filter) return undefined;
  const c = filter.conditions;
  const ops = Object.keys(c).filter((op) => c[op as keyof PublicationStringConditions] !== undefined);
  const value = c.$is ?? (c.$in?.length === 1 ? c.$in[0] : undefined);
  if (ops.length !== 1 || value === undefined) {
    throw new InvalidQueryParamsError(
      `filters[${field}] can only be $is (or $in with one value): publications are read from one list view per request, and no view serves ${ops.join(', ')}`,
    );
  }
  return value;
}

/** Maps the list's voucher type names (Voucherify's and its SDK's) to stored types; null for a type no voucher has. */
function voucherTypeOf(name: string): Voucher['type'] | null {
  const types: Record<string, Voucher['type']> = {
    discount: 'DISCOUNT_VOUCHER',
    DISCOUNT: 'DISCOUNT_VOUCHER',
    DISCOUNT_VOUCHER: 'DISCOUNT_VOUCHER',
    loyalty: 'LOYALTY_CARD',
    LOYALTY_CARD: 'LOYALTY_CARD',
    gift: 'GIFT_VOUCHER',
    GIFT: 'GIFT_VOUCHER',
    GIFT_VOUCHER: 'GIFT_VOUCHER',
  };
  return types[name] ?? null;
}

/** The filters a list request names, each with its value: at most one may remain after this. */
function filtersOf(q: ListPublicationsQuery) {
  const f = q.filters ?? {};
  const pick = (a: string | undefined, field: PublicationFilterField) => a ?? isValue(field, f[field]);
  const referral = q.is_referral_code ?? (f.is_referral_code ? ['true', 'TRUE'].includes(isValue('is_referral_code', f.is_referral_code) ?? '') : undefined);
  return {
    result: pick(q.result, 'result'),
    // No failure is stored: `$is_unknown` (no failure code) holds for every publication.
    failureCode: f.failure_code && f.failure_code.conditions.$is_unknown !== '' ? isValue('failure_code', f.failure_code) : undefined,
    keyed: {
      customer: pick(q.customer, 'customer_id'),
      campaign: pick(q.campaign, 'campaign_name'),
      campaign_id: isValue('parent_object_id', f.parent_object_id),
      voucher: q.voucher,
      voucher_id: isValue('related_object_id', f.related_object_id),
      voucher_type: pick(q.voucher_type, 'voucher_type'),
      // Voucherify: "works only for the true option"; false does not filter.
      is_referral_code: referral === true ? 'true' : undefined,
      source_id: pick(q.source_id, 'source_id'),
    },
  };
}

async function listSource(deps: Deps, projectId: string, q: ListPublicationsQuery): Promise<ListSource> {
  const { result, failureCode, keyed } = filtersOf(q);
  if (result === 'FAILURE' || failureCode !== undefined) return { kind: 'none' };
  if (result !== undefined && result !== 'SUCCESS') return { kind: 'none' };
  const given = Object.entries(keyed).filter(([, v]) => v !== undefined) as [keyof typeof keyed, string][];
  if (given.length > 1) {
    throw new InvalidQueryParamsError(
      `Filter by one of customer, campaign, voucher, voucher_type, is_referral_code and source_id at a time, not ${given.map(([k]) => k).join(' and ')}: each is its own list view`,
    );
  }
  const [entry] = given;
  if (!entry) return { kind: 'view', view: ALL_PUBLICATIONS };
  const [field, value] = entry;
  switch (field) {
    case 'customer': {
      const [byId, bySource] = await Promise.all([
        customerRepo.getCustomer(deps, projectId, value),
        customerRepo.getCustomerIdBySourceId(deps, projectId, value),
      ]);
      // A deleted customer's publications stay listed under its id.
      return { kind: 'view', view: customerView(byId?.id ?? bySource ?? value) };
    }
    case 'campaign':
    case 'campaign_id': {
      const found = await loadCampaign(deps, projectId, value).catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
      return found ? { kind: 'view', view: campaignView(found.id) } : { kind: 'none' };
    }
    case 'voucher':
    case 'voucher_id': {
      const code = field === 'voucher' ? value : await voucherRepo.getVoucherCodeById(deps, projectId, value);
      const v = code === null ? null : await voucherRepo.getVoucherByCode(deps, projectId, code);
      if (!v || (field === 'voucher_id' && v.id !== value)) return { kind: 'none' };
      if (isGenericCode(v)) return { kind: 'view', view: voucherView(v.id) };
      return { kind: 'one', publicationId: v.publicationId ?? null };
    }
    case 'voucher_type': {
      const type = voucherTypeOf(value);
      return type ? { kind: 'view', view: typeView(type) } : { kind: 'none' };
    }
    case 'is_referral_code':
      return { kind: 'view', view: REFERRAL_PUBLICATIONS };
    case 'source_id':
      return { kind: 'one', publicationId: (await repo.getPublicationSourceId(deps, projectId, value))?.publicationId ?? null };
  }
}

/**
 * GET /v1/publications: one page of publications, newest first unless `order=created_at`, read
 * from one list view (all; or a customer's, a campaign's, a generic code's, a voucher type's, the
 * referral codes'): a Query on one key range, never a Scan or a read of the whole view. A one-holder
 * voucher's publication and a `source_id`'s are found by key. `total` is the view's count.
 * `created_at[after]`/`[before]` bound the key range (both excluded).
 * @throws InvalidQueryParamsError for filters no single view serves (two at once, operators other than `$is`).
 */
export async function listPublications(deps: Deps, projectId: string, q: ListPublicationsQuery): Promise<PublicationPage> {
  const source = await listSource(deps, projectId, q);
  const ascending = q.order === 'created_at';
  const after = q.created_at?.after;
  const before = q.created_at?.before;
  const skip = (q.page - 1) * q.limit;
  if (source.kind === 'none') return { publications: [], total: 0, hasMore: false };
  if (source.kind === 'one') {
    const p = source.publicationId ? await repo.getPublication(deps, projectId, source.publicationId) : null;
    if (!p) return { publications: [], total: 0, hasMore: false };
    const inRange = (after === undefined || p.createdAt > after) && (before === undefined || p.createdAt < before);
    return { publications: inRange && skip === 0 ? [p] : [], total: 1, hasMore: false };
  }
  const empty = after !== undefined && before !== undefined && after >= before;
  // `<after>$` sorts after every key of that instant (`$` follows `#`); `<before>` before every key of its instant.
  const range = { ...(after !== undefined ? { from: `${after}$` } : {}), ...(before !== undefined ? { to: before } : {}) };
  const [page, total] = await Promise.all([
    empty ? { ids: [], hasMore: false } : repo.listPublicationIds(deps, projectId, source.view, { ascending, range }, skip, q.limit),
    repo.countPublications(deps, projectId, source.view),
  ]);
  return { publications: await repo.getPublications(deps, projectId, page.ids), total, hasMore: page.hasMore };
}
