import { getCampaign as getCampaignItem, getCampaignIdByName } from '../campaigns/campaign.repo.js';
import { getCategory, getCategoryIdByName } from '../categories/category.repo.js';
import { withCurrentCategories } from '../categories/category.service.js';
import { getCustomer, getCustomerIdBySourceId } from '../customers/customer.repo.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from './voucher.js';
import { withTrueUses } from './voucher.service.js';
import type { ListVouchersQuery } from './voucher-list.schema.js';
import { planVoucherList, voucherSortKey } from './voucher-list-plan.js';
import { getVouchersByCodeOrIds, listVoucherPage, type VoucherListSource } from './voucher-list.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'clock'>;

export interface VoucherPage {
  vouchers: Voucher[];
  /**
   * With a campaign filter: the campaign's `vouchersCount` (exact; date bounds do not narrow it).
   * Otherwise no counter exists: the vouchers up to the end of this page, plus one when more follow
   * (a lower bound that grows as the client pages on; docs/decisions.md "Listing vouchers").
   */
  total: number;
  /** Index entries the page read (skipped ones included): the cost a deep page pays. */
  entriesRead: number;
}

const EMPTY: VoucherPage = { vouchers: [], total: 0, entriesRead: 0 };

/** The page's vouchers with their uses made true: a code with no limit sums its count shards (one small Query each, in parallel). */
const withTrueUsesAll = (deps: Deps, vouchers: Voucher[]): Promise<Voucher[]> => Promise.all(vouchers.map((v) => withTrueUses(deps, v)));

/** A campaign id or name that names no campaign lists nothing; both given must name the same campaign. */
async function campaignIdOf(deps: Deps, projectId: string, q: ListVouchersQuery): Promise<{ id: string; count: number } | null> {
  const [byId, idForName] = await Promise.all([
    q.campaign_id !== undefined ? getCampaignItem(deps, projectId, q.campaign_id) : Promise.resolve(null),
    q.campaign !== undefined && q.campaign.length <= 200 ? getCampaignIdByName(deps, projectId, q.campaign) : Promise.resolve(null),
  ]);
  if (q.campaign !== undefined && idForName === null) return null;
  if (q.campaign_id !== undefined && byId === null) return null;
  if (byId && idForName !== null && byId.id !== idForName) return null;
  const campaign = byId ?? (idForName !== null ? await getCampaignItem(deps, projectId, idForName) : null);
  return campaign ? { id: campaign.id, count: campaign.vouchersCount } : null;
}

/**
 * The holder a `customer` reference names: a customer with that id wins over one with that source
 * id (as {customerId} paths); a reference that is neither is taken as an id, so the vouchers of a
 * deleted customer (whose id stays their `holder_id`) are still listed.
 */
async function holderIdOf(deps: Deps, projectId: string, ref: string): Promise<string> {
  const [byId, idForSource] = await Promise.all([getCustomer(deps, projectId, ref), getCustomerIdBySourceId(deps, projectId, ref)]);
  return byId ? byId.id : (idForSource ?? ref);
}

/**
 * The category a `category` reference names: a category with that id wins over one with that
 * name (as the reference's "category id or name"); null when it names none (a deleted category
 * included), and the list is empty.
 */
async function categoryIdOf(deps: Deps, projectId: string, ref: string): Promise<string | null> {
  const [byId, idForName] = await Promise.all([
    ref.length <= 100 ? getCategory(deps, projectId, ref) : Promise.resolve(null),
    ref.length <= 200 ? getCategoryIdByName(deps, projectId, ref) : Promise.resolve(null),
  ]);
  return byId ? byId.id : idForName;
}

/**
 * GET /v1/vouchers: one page of vouchers (which list and in which order: planVoucherList). Every
 * read is a Query on one key range of one index: by creation, the project's vouchers (GSI3), a
 * campaign's (`campaign_id` or `campaign` name: GSI1), a holder's (`customer`: GSI2) or a
 * category's (`category` id or name: GSI4); by last change (`updated_at[…]`, `order=updated_at`),
 * the project's vouchers (GSI5).
 * The date bounds are that range (both excluded). A page's entries are read keys only,
 * from the saved bound of an earlier page where the list has one (listVoucherPage), then the page's
 * vouchers by key: never a Scan, never a read of the list past the page. `code` / `ids` read the vouchers they name by key instead (byKeys).
 * @throws InvalidQueryParamsError for what no index serves: the `code` orders, two of campaign,
 *   customer and category at once, and the change list with a filter or creation bounds (planVoucherList; docs/decisions.md).
 */
export async function listVouchers(deps: Deps, projectId: string, q: ListVouchersQuery): Promise<VoucherPage> {
  const plan = planVoucherList(q);
  const byCampaign = q.campaign_id !== undefined || q.campaign !== undefined;
  if (plan.empty) return EMPTY;

  let source: VoucherListSource = plan.axis === 'updated' ? { by: 'changes' } : { by: 'project' };
  let counted: number | null = null;
  if (byCampaign) {
    const campaign = await campaignIdOf(deps, projectId, q);
    if (!campaign) return EMPTY;
    source = { by: 'campaign', campaignId: campaign.id };
    counted = campaign.count;
  } else if (q.customer !== undefined) {
    source = { by: 'holder', customerId: await holderIdOf(deps, projectId, q.customer) };
  } else if (q.category !== undefined) {
    const categoryId = await categoryIdOf(deps, projectId, q.category);
    if (categoryId === null) return EMPTY;
    source = { by: 'category', categoryId };
  }
  const skip = (q.page - 1) * q.limit;
  if (q.code !== undefined || q.ids !== undefined) return byKeys(deps, projectId, q, source, plan, skip);
  const page = await listVoucherPage(deps, projectId, { source, ascending: plan.ascending, range: plan.range }, q.page, q.limit, deps.clock.now());
  const vouchers = await withCurrentCategories(deps, projectId, await withTrueUsesAll(deps, page.vouchers));
  return { vouchers, total: counted ?? page.reached, entriesRead: page.entriesRead };
}

/** Whether a voucher read by key belongs to the list `source` names (the filter its index would apply). */
function inSource(v: Voucher, source: VoucherListSource): boolean {
  switch (source.by) {
    case 'project':
    case 'changes':
      return true;
    case 'campaign':
      return v.campaignId === source.campaignId;
    case 'holder':
      return v.holderId === source.customerId;
    case 'category':
      return v.category?.id === source.categoryId;
  }
}

/**
 * `code` and `ids` name at most 101 vouchers: they are read by key, and the other filters (campaign,
 * holder, category, creation and change bounds) and the order are applied to those few items; `total` is exact.
 */
async function byKeys(
  deps: Deps,
  projectId: string,
  q: ListVouchersQuery,
  source: VoucherListSource,
  plan: ReturnType<typeof planVoucherList>,
  skip: number,
): Promise<VoucherPage> {
  const named = await getVouchersByCodeOrIds(deps, projectId, q.code, q.ids);
  const within = (key: string, range: { from?: string; to?: string }) =>
    (range.from === undefined || key >= range.from) && (range.to === undefined || key <= range.to);
  const sortKey = (v: Voucher) => voucherSortKey(v, plan.axis);
  const matching = named
    .filter((v) => inSource(v, source))
    .filter((v) => within(voucherSortKey(v, 'created'), plan.created) && within(voucherSortKey(v, 'updated'), plan.updated))
    .sort((x, y) => (sortKey(x) < sortKey(y) ? -1 : sortKey(x) > sortKey(y) ? 1 : 0) * (plan.ascending ? 1 : -1));
  const vouchers = await withCurrentCategories(deps, projectId, await withTrueUsesAll(deps, matching.slice(skip, skip + q.limit)));
  return { vouchers, total: matching.length, entriesRead: named.length };
}
