import { givenFilters, isOr, matchesFilters } from '../filter-conditions.js';
import { NotFoundError } from '../errors.js';
import { type Holding, ownerHolding, pageOf, type RedeemableStatus, redeemableStatus, refereeHolding, sortHoldings } from '../referrals/redeemable-holder.js';
import { listRefereeHoldings } from '../referrals/redeemable-holder.repo.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import { getVoucherByCode } from '../vouchers/voucher.repo.js';
import { getCustomer, getCustomerIdBySourceId } from './customer.repo.js';
import { heldVouchers } from './customer-redeemable.repo.js';
import { type ListCustomerRedeemablesQuery, REDEEMABLE_FILTER_FIELDS, type RedeemableFilterField } from './customer-redeemable.schema.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'>;

/** A customer's holding with its voucher as it is now and whether it can be used. */
export interface CustomerRedeemable {
  holding: Holding;
  voucher: Voucher;
  status: RedeemableStatus;
}

export interface CustomerRedeemablePage {
  redeemables: CustomerRedeemable[];
  total: number;
  hasMore: boolean;
}

const fieldOf = (h: Holding, field: RedeemableFilterField): string | null => {
  switch (field) {
    case 'id':
      return h.id;
    case 'redeemable_id':
      return h.voucherId;
    case 'redeemable_object':
      return 'voucher';
    case 'holder_role':
      return h.role;
    case 'campaign_id':
      return h.campaignId;
    case 'campaign_type':
      return h.campaignType;
    case 'voucher_type':
      return h.voucherType;
  }
};

/**
 * GET /v1/customers/{customerId}/redeemables: every voucher and loyalty card the customer (id or
 * source id) holds (OWNER, or REFERRER of a referral code) and every referral code they are a
 * referee of, each with its status now (ACTIVE, or why it cannot be used), in id order (a held
 * voucher's id is timed by its creation, a referee's by its addition), after `starting_after_id`. The customer's holdings are read whole
 * (two Queries of their GSI2 partitions) and paged in memory; a referee's voucher is read for the
 * page only, and a code deleted since is left out.
 * @throws NotFoundError (customer).
 */
export async function listCustomerRedeemables(
  deps: Deps,
  projectId: string,
  ref: string,
  query: ListCustomerRedeemablesQuery,
): Promise<CustomerRedeemablePage> {
  const [byId, bySource] = await Promise.all([getCustomer(deps, projectId, ref), getCustomerIdBySourceId(deps, projectId, ref)]);
  const customerId = byId?.id ?? bySource;
  if (customerId === null) throw new NotFoundError('customer', ref);
  const [owned, referee] = await Promise.all([heldVouchers(deps, projectId, customerId), listRefereeHoldings(deps, projectId, customerId)]);
  const vouchers = new Map(owned.map((v) => [v.id, v]));
  const holdings = [...owned.flatMap((v) => ownerHolding(v) ?? []), ...referee.map(refereeHolding)];
  const given = givenFilters<RedeemableFilterField>(query.filters, REDEEMABLE_FILTER_FIELDS);
  const or = isOr(query.filters?.junction);
  const kept = holdings.filter((h) => matchesFilters(given, or, (field) => fieldOf(h, field)));
  const order = query.order.startsWith('-') ? '-id' : 'id';
  const { page, hasMore } = pageOf(sortHoldings(kept, order), order, query.starting_after_id, query.limit);
  const now = deps.clock.now();
  const read = await Promise.all(
    page.map(async (holding) => {
      const held = vouchers.get(holding.voucherId);
      const voucher = held ?? (await getVoucherByCode(deps, projectId, holding.code));
      return voucher?.id === holding.voucherId ? [{ holding, voucher, status: redeemableStatus(voucher, now) }] : [];
    }),
  );
  return { redeemables: read.flat(), total: kept.length, hasMore };
}
