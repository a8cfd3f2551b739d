import type { Campaign } from '../campaigns/campaign.js';
import { transactionsCampaign } from '../campaigns/transactions-campaign.js';
import { getCustomer as getCustomerItem, getCustomerIdBySourceId } from '../customers/customer.repo.js';
import { InvalidQueryParamsError, NotFoundError } from '../errors.js';
import type { IdempotencyScope } from '../idempotency/idempotency-scope.js';
import type { Committed } from '../idempotency/idempotency.service.js';
import { createPublication } from '../publications/publication.service.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { getHeldVoucher } from '../vouchers/voucher-holder.repo.js';
import { listVouchers, type VoucherPage } from '../vouchers/voucher-list.service.js';
import { loadVoucher } from '../vouchers/voucher.service.js';
import type { CardTransaction } from './card-transaction.js';
import { campaignTransactionPage, cardTransactionPage, findCardTransaction } from './card-transaction.repo.js';
import type { AddMemberBody, CardTransactionsQuery, ListMembersQuery } from './loyalty.schema.js';
import { cardAsOf, findLoyaltyCampaign, voucherOrNull } from './loyalty.service.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/**
 * POST /v1/loyalties/{campaignId}/members: publishes a card of the program to the customer (by
 * id, or by `source_id`, created or updated on the way) through the publication service, so the
 * card, its holder, the held-voucher record, the publication and the Idempotency-Key's record are
 * one transaction. A loyalty program is always join-once (the reference forces `join_once` for
 * loyalty campaigns): a customer who already holds a card of the program gets that same card
 * again, and of parallel joins of one customer exactly one card is given. `voucher` names the
 * card to give (one of this program's, not yet published); without it an unpublished card of the
 * program is picked, or generated for an AUTO_UPDATE program.
 * @throws NotFoundError (campaign: not a loyalty program; voucher: not a card of this program; customer),
 *   BadRequestError (`voucher_already_published`, `voucher_cannot_be_published`, `no_voucher_suitable_for_publication`,
 *   `duplicate_source_id`), IdempotencyKeyReusedError, ConflictRetryError.
 */
export async function addMember(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  body: AddMemberBody,
  idempotency: IdempotencyScope | null,
): Promise<Committed<Voucher>> {
  const campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  if (body.voucher !== undefined) {
    const named = await voucherOrNull(deps, projectId, body.voucher);
    if (!named || named.campaignId !== campaign.id) throw new NotFoundError('voucher', body.voucher);
  }
  const published = await createPublication(
    deps,
    projectId,
    {
      ...(body.voucher !== undefined ? { voucher: body.voucher } : { campaign: campaign.id }),
      customer: body.customer,
      sourceId: body.source_id,
      metadata: body.metadata,
      channel: body.channel,
      joinOnce: true,
    },
    idempotency,
    1,
  );
  const card = published.value.voucher;
  if (!card) throw new Error(`Publication ${published.value.publication.id} gave no single card`);
  return { value: card, replayed: published.replayed };
}

/**
 * The loyalty card `memberId` (code or id) names, of the program `campaignRef` names when given.
 * @throws NotFoundError (campaign: not a loyalty program; voucher: no such card there).
 */
export async function findCard(deps: Deps, projectId: string, campaignRef: string | null, memberId: string): Promise<Voucher> {
  const [campaign, card] = await Promise.all([
    campaignRef === null ? null : findLoyaltyCampaign(deps, projectId, campaignRef),
    voucherOrNull(deps, projectId, memberId),
  ]);
  if (!card?.loyaltyCard || !card.campaignId || (campaign && card.campaignId !== campaign.id)) throw new NotFoundError('voucher', memberId);
  return card;
}

/**
 * GET /v1/loyalties/members/{memberId} and GET /v1/loyalties/{campaignId}/members/{memberId}: a
 * loyalty card by code or id (in that program, when one is named), its expired points no longer
 * counted (`cardAsOf`).
 * @throws NotFoundError (campaign, voucher).
 */
export async function getMember(deps: Deps, projectId: string, campaignRef: string | null, memberId: string): Promise<Voucher> {
  return cardAsOf(deps, await findCard(deps, projectId, campaignRef, memberId), deps.clock.now());
}

/** The customer id a `customer` filter names: an id wins over a source id; neither is taken as an id (a deleted holder's). */
async function holderIdOf(deps: Deps, projectId: string, ref: string): Promise<string> {
  const [byId, idForSource] = await Promise.all([getCustomerItem(deps, projectId, ref), getCustomerIdBySourceId(deps, projectId, ref)]);
  return byId ? byId.id : (idForSource ?? ref);
}

/**
 * GET /v1/loyalties/{campaignId}/members: one page of the program's cards, as GET /v1/vouchers
 * lists a campaign's (its index by creation, `total` the program's card count). With `customer`:
 * the one card the customer holds in the program (a program is join-once), found by key.
 * @throws NotFoundError (campaign), InvalidQueryParamsError (what the voucher list refuses).
 */
export async function listMembers(deps: Deps, projectId: string, campaignRef: string, query: ListMembersQuery): Promise<VoucherPage> {
  const campaign: Campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  if (query.customer === undefined) return listVouchers(deps, projectId, { ...query, campaign_id: campaign.id });
  if (query.code !== undefined || query.ids !== undefined) throw new InvalidQueryParamsError('customer cannot be combined with code or ids');
  const held = await getHeldVoucher(deps, projectId, await holderIdOf(deps, projectId, query.customer), campaign.id);
  const card = held.voucher && held.voucher.holderId !== null ? await loadVoucher(deps, projectId, held.voucher.code) : null;
  const all = card ? [card] : [];
  return { vouchers: query.page === 1 ? all : [], total: all.length, entriesRead: all.length };
}

/** One page of transactions, and whether more follow. */
export interface CardTransactionPage {
  transactions: CardTransaction[];
  hasMore: boolean;
}

/** The transaction a `starting_after_id` names, if it belongs where `belongs` says. @throws InvalidQueryParamsError otherwise. */
async function cursorOf(
  deps: Deps,
  projectId: string,
  query: CardTransactionsQuery,
  belongs: (t: CardTransaction) => boolean,
  where: string,
): Promise<CardTransaction | null> {
  if (query.starting_after_id === undefined) return null;
  const after = await findCardTransaction(deps, projectId, query.starting_after_id);
  if (!after || !belongs(after)) throw new InvalidQueryParamsError(`starting_after_id ${query.starting_after_id} is not a transaction of ${where}`);
  return after;
}

/**
 * GET /v1/loyalties/members/{memberId}/transactions and GET /v1/loyalties/{campaignId}/members/{memberId}/transactions:
 * one page of a card's transactions (every change of its points), newest first unless `order=id`,
 * after `starting_after_id`: one Query of the card's transaction partition (plus one GSI1 read for the cursor).
 * @throws NotFoundError (campaign, voucher), InvalidQueryParamsError (a cursor that is no transaction of this card).
 */
export async function listLoyaltyCardTransactions(
  deps: Deps,
  projectId: string,
  campaignRef: string | null,
  memberId: string,
  query: CardTransactionsQuery,
): Promise<CardTransactionPage> {
  const card = await findCard(deps, projectId, campaignRef, memberId);
  const after = await cursorOf(deps, projectId, query, (t) => t.voucherId === card.id, `card ${card.code}`);
  return cardTransactionPage(deps, projectId, card.id, query.limit, query.order === 'id', after);
}

/**
 * GET /v1/loyalties/{campaignId}/transactions: one page of the transactions of every card of the
 * program, newest first unless `order=id`, after `starting_after_id`: one Query of the program's
 * transaction list (sparse GSI2, so a transaction shows a moment after its commit).
 * @throws NotFoundError (campaign), InvalidQueryParamsError (a cursor that is no transaction of this program).
 */
export async function listLoyaltyCampaignTransactions(
  deps: Deps,
  projectId: string,
  campaignRef: string,
  query: CardTransactionsQuery,
): Promise<CardTransactionPage> {
  const campaign = await findLoyaltyCampaign(deps, projectId, campaignRef);
  const after = await cursorOf(deps, projectId, query, (t) => t.campaignId === campaign.id, `campaign ${campaign.name}`);
  return campaignTransactionPage(deps, projectId, campaign.id, query.limit, query.order === 'id', after);
}

/**
 * GET /v1/campaigns/{campaignId}/transactions: one page of the transactions of every card of a
 * gift card or loyalty campaign, newest first unless `order=id`, after `starting_after_id`, read
 * as GET /v1/loyalties/{campaignId}/transactions reads a program's (sparse GSI2, so a
 * transaction shows a moment after its commit).
 * @throws NotFoundError (campaign), InvalidCampaignError (a campaign of another type),
 * InvalidQueryParamsError (a cursor that is no transaction of this campaign).
 */
export async function listCampaignTransactions(deps: Deps, projectId: string, campaignRef: string, query: CardTransactionsQuery): Promise<CardTransactionPage> {
  const campaign = await transactionsCampaign(deps, projectId, campaignRef);
  const after = await cursorOf(deps, projectId, query, (t) => t.campaignId === campaign.id, `campaign ${campaign.name}`);
  return campaignTransactionPage(deps, projectId, campaign.id, query.limit, query.order === 'id', after);
}
