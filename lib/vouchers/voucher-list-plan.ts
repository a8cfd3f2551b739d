import { InvalidQueryParamsError } from '../errors.js';
import type { Voucher } from './voucher.js';
import type { ListVouchersQuery } from './voucher-list.schema.js';

/** The time a voucher list is sorted and bounded by: creation, or last change (`updatedAt`, else `createdAt`). */
export type VoucherListAxis = 'created' | 'updated';

/** How a list of vouchers is read: the time it is sorted by, its direction, and its sort-key range (both ends included). */
export interface VoucherListPlan {
  axis: VoucherListAxis;
  ascending: boolean;
  /** Sort keys `<time>#<id>` of `axis`: `from` leaves out vouchers at `after` itself, `to` those at `before`. */
  range: { from?: string; to?: string };
  /** Both bounds given and no time lies between them: the list is empty. */
  empty: boolean;
}

type PlanQuery = Pick<
  ListVouchersQuery,
  | 'order'
  | 'campaign_id'
  | 'campaign'
  | 'customer'
  | 'category'
  | 'code'
  | 'ids'
  | 'created_at[before]'
  | 'created_at[after]'
  | 'updated_at[before]'
  | 'updated_at[after]'
>;

/** The range of sort keys `<time>#<id>` strictly between `after` and `before`: `$` sorts after `#`, so `<after>$` leaves out `after` itself. */
function rangeOf(after: string | undefined, before: string | undefined): { range: { from?: string; to?: string }; empty: boolean } {
  return {
    range: { ...(after !== undefined ? { from: `${after}$` } : {}), ...(before !== undefined ? { to: before } : {}) },
    empty: after !== undefined && before !== undefined && after >= before,
  };
}

/** A voucher's sort key on `axis` (its index entry's: GSI1/GSI2/GSI3/GSI4 for creation, GSI5 for change). */
export const voucherSortKey = (v: Pick<Voucher, 'createdAt' | 'updatedAt' | 'id'>, axis: VoucherListAxis): string =>
  `${axis === 'created' ? v.createdAt : (v.updatedAt ?? v.createdAt)}#${v.id}`;

/**
 * Which list GET /v1/vouchers reads, from its query (docs/decisions.md "Listing vouchers by last change"):
 * - `updated_at[…]` or `order=updated_at` / `-updated_at`: the project's vouchers by last change
 *   (GSI5), newest change first unless `order=updated_at`. A voucher never changed is at its
 *   creation time. Refused with campaign, customer or category filters, with `created_at[…]`, and
 *   with `order=created_at` / `-created_at`: no index holds both orders or a filter's partition by change.
 * - otherwise by creation (the filter's index), newest first unless `order=created_at`.
 * With `code` or `ids` (read by key, at most 100 vouchers) every filter, both bounds and both orders go together.
 * `order=code` / `-code` is refused (no index sorts by code).
 * @throws InvalidQueryParamsError for the combinations above.
 */
export function planVoucherList(q: PlanQuery): VoucherListPlan & { created: VoucherListPlan['range']; updated: VoucherListPlan['range'] } {
  if (q.order === 'code' || q.order === '-code') {
    throw new InvalidQueryParamsError(
      `order=${q.order} is not supported: vouchers are listed by creation time or by last change (order=created_at, -created_at, updated_at or -updated_at)`,
    );
  }
  const updatedBounds = q['updated_at[before]'] !== undefined || q['updated_at[after]'] !== undefined;
  const createdBounds = q['created_at[before]'] !== undefined || q['created_at[after]'] !== undefined;
  const orderAxis: VoucherListAxis | undefined = q.order === undefined ? undefined : q.order.endsWith('updated_at') ? 'updated' : 'created';
  const byKeys = q.code !== undefined || q.ids !== undefined;
  const axis: VoucherListAxis = orderAxis ?? (updatedBounds && !createdBounds ? 'updated' : 'created');
  if (!byKeys) {
    const filters = [
      q.campaign_id !== undefined || q.campaign !== undefined ? 'campaign (campaign_id, campaign)' : null,
      q.customer !== undefined ? 'customer' : null,
      q.category !== undefined ? 'category' : null,
    ].filter((f) => f !== null);
    if (filters.length > 1) {
      throw new InvalidQueryParamsError(`${filters.join(' with ')}: filter by one of campaign (campaign_id, campaign), customer and category at a time`);
    }
    if (axis === 'updated' || updatedBounds) {
      const byChange = "updated_at[before], updated_at[after] and order=updated_at / -updated_at list the project's vouchers by last change";
      if (filters.length > 0)
        throw new InvalidQueryParamsError(`${byChange}: they cannot be combined with a ${filters[0]} filter (list by creation time there)`);
      if (createdBounds) throw new InvalidQueryParamsError(`${byChange}: they cannot be combined with created_at[before] or created_at[after]`);
      if (orderAxis === 'created') throw new InvalidQueryParamsError(`${byChange}: with updated_at[…], order is updated_at or -updated_at`);
    }
  }
  const created = rangeOf(q['created_at[after]'], q['created_at[before]']);
  const updated = rangeOf(q['updated_at[after]'], q['updated_at[before]']);
  const own = axis === 'created' ? created : updated;
  return {
    axis,
    ascending: q.order === 'created_at' || q.order === 'updated_at',
    range: own.range,
    empty: created.empty || updated.empty,
    created: created.range,
    updated: updated.range,
  };
}
