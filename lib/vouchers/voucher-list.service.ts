import { getCampaign as getCampaignItem, getCampaignIdByName } from '../campaigns/campaign.repo.js';
import { getCategory, getCategoryIdByName } from '../categories/category.repo.js';
import { withCurrentCategories } from '../categories/category.service.js';
import { getCustomer, getCustomerIdBySourceId } from '../customers/customer.repo.js';
import { InvalidQueryParamsError } from '../errors.js';
import { givenFilters, isOr, operatorsOf, soleValue } from '../filter-conditions.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from './voucher.js';
import { withTrueUses } from './voucher.service.js';
import { type ListVouchersQuery, VOUCHER_FILTER_FIELDS, type VoucherFilterField } from './voucher-list.schema.js';
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
async function campaignIdOf(deps: Deps, projectId: string, q: PlainQuery): Promise<{ id: string; count: number } | null> {
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

/** The plain parameter each filter field is read as (an index, or the code's key). */
const PLAIN_OF: Record<Exclude<VoucherFilterField, 'code'>, 'category' | 'campaign' | 'campaign_id' | 'customer'> = {
  categories: 'category',
  category_ids: 'category',
  campaign: 'campaign',
  campaign_id: 'campaign_id',
  holder_id: 'customer',
};

/** The list query with `filters[…]` read as its plain parameters, and the codes the `code` filter names. */
type PlainQuery = Omit<ListVouchersQuery, 'filters'> & { codes?: string[] };

/**
 * Reads `filters[…]` as the plain parameters they mean: `$is` (or `$in` of one value) on a
 * category (name or id), campaign (name or id) or holder, and `$is` / `$in` (any number, at most
 * 100) on `code`. Every other operator, `or` between fields, and a filter naming again what a plain
 * parameter names otherwise are refused: no index serves them, and no filter is ever dropped.
 * @throws InvalidQueryParamsError naming the filter.
 */
export function plainQueryOf(q: ListVouchersQuery): PlainQuery {
  const { filters, ...plain } = q;
  const given = givenFilters(filters, VOUCHER_FILTER_FIELDS);
  if (isOr(filters?.junction) && given.length > 1) {
    throw new InvalidQueryParamsError(
      `filters[junction]=or with ${given.map(([f]) => `filters[${f}]`).join(', ')}: vouchers are read from one index (or by code) per request, and no index serves either of several filters`,
    );
  }
  const out: PlainQuery = { ...plain };
  for (const [field, c] of given) {
    const ops = operatorsOf(c);
    if (field === 'code') {
      const codes = c.$is !== undefined ? [c.$is] : c.$in;
      if (ops.length !== 1 || codes === undefined) throw onlyIs(field, ops, ' ($in with any number of codes)');
      out.codes = q.code === undefined ? codes : codes.filter((code) => code === q.code);
      continue;
    }
    const value = soleValue(c);
    if (value === undefined) throw onlyIs(field, ops, ' (or $in with one value)');
    const param = PLAIN_OF[field];
    const already = out[param];
    if (already !== undefined && already !== value) {
      throw new InvalidQueryParamsError(`filters[${field}] and ${param} (or another filter read as ${param}) name two values: give one`);
    }
    out[param] = value;
  }
  return out;
}

const onlyIs = (field: VoucherFilterField, ops: string[], also: string) =>
  new InvalidQueryParamsError(
    `filters[${field}] can only be $is${also}: vouchers are read from one index (or by code) per request, and none serves ${ops.join(', ')}`,
  );

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
export async function listVouchers(deps: Deps, projectId: string, query: ListVouchersQuery): Promise<VoucherPage> {
  const q = plainQueryOf(query);
  const plan = planVoucherList({ ...q, ...(q.codes !== undefined ? { code: q.codes[0] ?? '' } : {}) });
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
  if (q.code !== undefined || q.codes !== undefined || q.ids !== undefined) return byKeys(deps, projectId, q, source, plan, skip);
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
  q: PlainQuery,
  source: VoucherListSource,
  plan: ReturnType<typeof planVoucherList>,
  skip: number,
): Promise<VoucherPage> {
  const named = await getVouchersByCodeOrIds(deps, projectId, q.codes ?? (q.code !== undefined ? [q.code] : undefined), q.ids);
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
