import { getCampaign, getCampaignIdByName } from '../campaigns/campaign.repo.js';
import { getCustomer as getStoredCustomer, getCustomerIdBySourceId } from '../customers/customer.repo.js';
import type { CustomerInput } from '../customers/customer.schema.js';
import { upsertCustomer } from '../customers/customer.service.js';
import {
  BadRequestError,
  ConflictRetryError,
  DuplicateError,
  HolderAssignmentDuplicationError,
  HolderRemovalForbiddenError,
  InvalidVoucherError,
  NotFoundError,
} from '../errors.js';
import { givenFilters, isOr, matchesFilters } from '../filter-conditions.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { getVoucherByCode, getVoucherCodeById } from '../vouchers/voucher.repo.js';
import { type Holding, holderIdAt, ownerHolderId, ownerHolding, pageOf, type ReferralHolder, refereeHolding, sortHoldings } from './redeemable-holder.js';
import { findReferee, insertReferees, listReferees, removeReferee } from './redeemable-holder.repo.js';
import { type AddReferralHoldersBody, HOLDER_FILTER_FIELDS, type HolderFilterField, type ListReferralHoldersQuery } from './redeemable-holder.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;
type WriteDeps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

const VOUCHER_ID = /^v_[0-9A-Za-z]{1,64}$/;

/**
 * The voucher `{memberId}` names (its code, else its voucher id), checked against `{campaignId}`
 * (id or name) when the route has one.
 * @throws NotFoundError (campaign: unknown campaign; voucher: unknown code, or a code of another campaign).
 */
async function memberVoucher(deps: Deps, projectId: string, campaignRef: string | null, memberId: string): Promise<Voucher> {
  const [voucher, campaignId] = await Promise.all([
    findVoucher(deps, projectId, memberId),
    campaignRef === null ? Promise.resolve(null) : campaignIdOf(deps, projectId, campaignRef),
  ]);
  if (campaignRef !== null && campaignId === null) throw new NotFoundError('campaign', campaignRef);
  if (!voucher || (campaignId !== null && voucher.campaignId !== campaignId)) throw new NotFoundError('voucher', memberId);
  return voucher;
}

async function findVoucher(deps: Deps, projectId: string, codeOrId: string): Promise<Voucher | null> {
  const byCode = await getVoucherByCode(deps, projectId, codeOrId);
  if (byCode || !VOUCHER_ID.test(codeOrId)) return byCode;
  const code = await getVoucherCodeById(deps, projectId, codeOrId);
  const voucher = code === null ? null : await getVoucherByCode(deps, projectId, code);
  return voucher?.id === codeOrId ? voucher : null;
}

async function campaignIdOf(deps: Deps, projectId: string, ref: string): Promise<string | null> {
  const byId = await getCampaign(deps, projectId, ref);
  return byId ? byId.id : getCampaignIdByName(deps, projectId, ref);
}

/** The customer id a holder entry names without creating it: its `id` (which must exist), else its known `source_id`; null for a new source id. */
async function knownIdOf(deps: Deps, projectId: string, h: CustomerInput): Promise<string | null> {
  if (h.id !== undefined) {
    if (!(await getStoredCustomer(deps, projectId, h.id))) throw new NotFoundError('customer', h.id);
    return h.id;
  }
  return h.source_id === undefined ? null : getCustomerIdBySourceId(deps, projectId, h.source_id);
}

/** Attempts of the holders' write lost to concurrent writers before the request gives up. */
const MAX_ATTEMPTS = 5;

/**
 * POST /v1/referrals/[{campaignId}/]members/{memberId}/holders: adds the customers as referees
 * of a published referral code, all or none. Every check runs before any customer is written: a
 * customer named twice, the referrer, or a customer already a referee refuses the whole request.
 * Then each customer is upserted (as POST /v1/customers) and the referees are put in one
 * transaction whose conditions make a concurrent request adding the same customer lose with 409.
 * @throws NotFoundError (voucher, campaign, customer: an unknown `id`), BadRequestError (`not_published`: the code has no referrer;
 *   `missing_parameters`: a holder with neither id nor source_id), InvalidVoucherError (not a referral code),
 *   DuplicateError (a customer named twice), HolderAssignmentDuplicationError (already the referrer or a referee).
 */
export async function referralsAddHolders(
  deps: WriteDeps,
  projectId: string,
  campaignRef: string | null,
  memberId: string,
  body: AddReferralHoldersBody,
): Promise<Holding[]> {
  const voucher = await memberVoucher(deps, projectId, campaignRef, memberId);
  if (!voucher.isReferralCode || voucher.campaignId === null) throw new InvalidVoucherError(voucher.code, `Voucher ${voucher.code} is not a referral code`);
  if (voucher.holderId === null) {
    throw new BadRequestError('not_published', 'Voucher is not published', 'Referral code must be first published to Referrer before assigning it to Referee');
  }
  const named = new Set<string>();
  for (const h of body.holders) {
    const name = h.id ?? h.source_id;
    if (name === undefined) throw new BadRequestError('missing_parameters', 'Missing parameters', 'Every holder needs an id or a source_id');
    if (named.has(name)) throw new DuplicateError('customer', `Duplicated customer exists with id ${name}`, name);
    named.add(name);
  }
  const [knownIds, referees] = await Promise.all([
    Promise.all(body.holders.map((h) => knownIdOf(deps, projectId, h))),
    listReferees(deps, projectId, voucher.id),
  ]);
  const holding = new Set([voucher.holderId, ...referees.map((r) => r.customerId)]);
  const seen = new Set<string>();
  for (const id of knownIds) {
    if (id === null) continue;
    if (holding.has(id)) throw new HolderAssignmentDuplicationError(id, voucher.code);
    if (seen.has(id)) throw new DuplicateError('customer', `Duplicated customer exists with id ${id}`, id);
    seen.add(id);
  }
  const customers = [];
  for (const h of body.holders) customers.push(await upsertCustomer(deps, projectId, h));
  const at = deps.clock.now().toISOString();
  const metadata = body.metadata ?? {};
  // After the referrer's holding (timed by the voucher's creation), even on a clock that has not moved.
  const idTime = new Date(Math.max(Date.parse(at), Date.parse(voucher.createdAt) + 1)).toISOString();
  const holders: ReferralHolder[] = customers.map((c) => ({
    id: holderIdAt(idTime, deps.ids.uuid().replaceAll('-', '')),
    projectId,
    voucherId: voucher.id,
    code: voucher.code,
    campaignId: voucher.campaignId ?? '',
    voucherType: voucher.type,
    customerId: c.id,
    metadata,
    createdAt: at,
  }));
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const outcome = await insertReferees(deps, holders);
    if (outcome.ok) return holders.map(refereeHolding);
    if ('taken' in outcome) throw new HolderAssignmentDuplicationError(outcome.taken[0]?.customerId ?? '', voucher.code);
  }
  throw new ConflictRetryError(`Too many concurrent writes of the holders of ${voucher.code}`);
}

/** One page of a code's holders; `total` counts every holder the filters keep. */
export interface HolderPage {
  holdings: Holding[];
  total: number;
  hasMore: boolean;
}

/**
 * GET /v1/referrals/[{campaignId}/]members/{memberId}/holders: the code's holder (REFERRER of a
 * referral code, OWNER of another voucher) and its referees, in id order (= the order they were
 * added), after `starting_after_id`. A code's holders are read whole (one Query of its partition)
 * and paged in memory.
 * @throws NotFoundError (voucher, campaign).
 */
export async function referralsCodeHolders(
  deps: Deps,
  projectId: string,
  campaignRef: string | null,
  memberId: string,
  query: ListReferralHoldersQuery,
): Promise<HolderPage> {
  const voucher = await memberVoucher(deps, projectId, campaignRef, memberId);
  const owner = ownerHolding(voucher);
  const referees = await listReferees(deps, projectId, voucher.id);
  const given = givenFilters<HolderFilterField>(query.filters, HOLDER_FILTER_FIELDS);
  const or = isOr(query.filters?.junction);
  const kept = [...(owner ? [owner] : []), ...referees.map(refereeHolding)].filter((h) =>
    matchesFilters(given, or, (field) => (field === 'id' ? h.id : field === 'holder_role' ? h.role : h.customerId)),
  );
  const { page, hasMore } = pageOf(sortHoldings(kept, query.order), query.order, query.starting_after_id, query.limit);
  return { holdings: page, total: kept.length, hasMore };
}

/**
 * DELETE /v1/referrals/[{campaignId}/]members/{memberId}/holders/{holderId}: removes a referee.
 * The referrer cannot be removed (403); the customer stays a customer.
 * @throws NotFoundError (voucher, campaign, redeemable_holder), HolderRemovalForbiddenError (the referrer).
 */
export async function referralsRemoveHolder(deps: Deps, projectId: string, campaignRef: string | null, memberId: string, holderId: string): Promise<void> {
  const voucher = await memberVoucher(deps, projectId, campaignRef, memberId);
  if (voucher.holderId !== null && holderId === ownerHolderId(voucher)) throw new HolderRemovalForbiddenError(holderId);
  const referee = await findReferee(deps, projectId, voucher.id, holderId);
  if (!referee || !(await removeReferee(deps, referee))) throw new NotFoundError('redeemable_holder', holderId);
}
