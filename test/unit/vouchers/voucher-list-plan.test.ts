import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidQueryParamsError } from '../../../lib/errors.js';
import { planVoucherList, voucherSortKey } from '../../../lib/vouchers/voucher-list-plan.js';
import { VOUCHER_ORDERS } from '../../../lib/vouchers/voucher-list.schema.js';

const t1 = '2026-01-01T00:00:00.000Z';
const t2 = '2026-02-01T00:00:00.000Z';

describe('planVoucherList', () => {
  it('lists by creation, newest first, by default, and by last change with updated_at bounds alone', () => {
    expect(planVoucherList({})).toEqual({ axis: 'created', ascending: false, range: {}, empty: false, created: {}, updated: {} });
    expect(planVoucherList({ 'updated_at[after]': t1 })).toMatchObject({ axis: 'updated', ascending: false, range: { from: `${t1}$` } });
    expect(planVoucherList({ order: 'updated_at', 'updated_at[before]': t2 })).toMatchObject({ axis: 'updated', ascending: true, range: { to: t2 } });
    expect(planVoucherList({ order: '-updated_at' })).toMatchObject({ axis: 'updated', ascending: false, range: {} });
    expect(planVoucherList({ order: 'created_at', 'created_at[after]': t1 })).toMatchObject({ axis: 'created', ascending: true, range: { from: `${t1}$` } });
  });

  it('is empty when a lower bound is not below its upper bound', () => {
    expect(planVoucherList({ 'updated_at[after]': t2, 'updated_at[before]': t1 }).empty).toBe(true);
    expect(planVoucherList({ 'updated_at[after]': t1, 'updated_at[before]': t1 }).empty).toBe(true);
    expect(planVoucherList({ 'updated_at[after]': t1, 'updated_at[before]': t2 }).empty).toBe(false);
  });

  it('refuses the change list with a filter, with creation bounds or a creation order, and the code orders; code or ids lift the first three', () => {
    const refusals = [
      { campaign_id: 'camp_1', order: 'updated_at' as const },
      { campaign: 'A', 'updated_at[after]': t1 },
      { customer: 'ann', order: '-updated_at' as const },
      { category: 'First', 'updated_at[before]': t2 },
      { 'created_at[after]': t1, 'updated_at[after]': t1 },
      { 'created_at[before]': t1, order: 'updated_at' as const },
      { order: '-created_at' as const, 'updated_at[after]': t1 },
    ];
    for (const q of refusals) {
      expect(() => planVoucherList(q), JSON.stringify(q)).toThrow(InvalidQueryParamsError);
      expect(() => planVoucherList({ ...q, code: 'C1' }), JSON.stringify(q)).not.toThrow();
      expect(() => planVoucherList({ ...q, ids: ['v_1'] }), JSON.stringify(q)).not.toThrow();
    }
    expect(() => planVoucherList({ order: 'code' })).toThrow(InvalidQueryParamsError);
    expect(() => planVoucherList({ order: '-code', code: 'C1' })).toThrow(InvalidQueryParamsError);
  });

  it('never plans a change list beside a filter or creation bounds unless the vouchers are named (property)', () => {
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
    const date = fc.constantFrom(t1, t2);
    fc.assert(
      fc.property(
        fc.record({
          order: maybe(fc.constantFrom(...VOUCHER_ORDERS)),
          campaign_id: maybe(fc.constant('camp_1')),
          customer: maybe(fc.constant('ann')),
          category: maybe(fc.constant('First')),
          code: maybe(fc.constant('C1')),
          'created_at[after]': maybe(date),
          'created_at[before]': maybe(date),
          'updated_at[after]': maybe(date),
          'updated_at[before]': maybe(date),
        }),
        (q) => {
          let plan: ReturnType<typeof planVoucherList>;
          try {
            plan = planVoucherList(q);
          } catch (error) {
            expect(error).toBeInstanceOf(InvalidQueryParamsError);
            return;
          }
          expect(q.order === 'code' || q.order === '-code').toBe(false);
          const updatedBounds = q['updated_at[after]'] !== undefined || q['updated_at[before]'] !== undefined;
          if (q.code === undefined && (plan.axis === 'updated' || updatedBounds)) {
            expect([q.campaign_id, q.customer, q.category, q['created_at[after]'], q['created_at[before]']].every((x) => x === undefined)).toBe(true);
            expect(plan.axis).toBe('updated');
          }
          if (q.order !== undefined) expect(plan.ascending).toBe(!q.order.startsWith('-'));
        },
      ),
    );
  });

  it('sorts a voucher never changed at its creation on the change axis', () => {
    expect(voucherSortKey({ id: 'v_1', createdAt: t1, updatedAt: null }, 'updated')).toBe(`${t1}#v_1`);
    expect(voucherSortKey({ id: 'v_1', createdAt: t1, updatedAt: t2 }, 'updated')).toBe(`${t2}#v_1`);
    expect(voucherSortKey({ id: 'v_1', createdAt: t1, updatedAt: t2 }, 'created')).toBe(`${t1}#v_1`);
  });
});
