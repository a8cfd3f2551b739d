import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markLoyaltyDue, ORDER_LOYALTY_SHARDS, ORDER_STATUSES, type Order, type OrderStatus, orderLoyaltyShardOf } from '../../../lib/orders/order.js';

const order = (status: OrderStatus, loyaltyDueAt?: string): Order => ({
  id: 'ord_1',
  projectId: 'proj_1',
  sourceId: null,
  status,
  amount: 0,
  items: [],
  metadata: {},
  customerId: null,
  referrerId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  revision: 0,
  ...(loyaltyDueAt !== undefined ? { loyaltyDueAt } : {}),
});

describe('markLoyaltyDue', () => {
  it('marks a new order created PAID or CANCELED, and no other new order', () => {
    expect(markLoyaltyDue(null, order('PAID'), 't1').loyaltyDueAt).toBe('t1');
    expect(markLoyaltyDue(null, order('CANCELED'), 't1').loyaltyDueAt).toBe('t1');
    expect(markLoyaltyDue(null, order('CREATED'), 't1').loyaltyDueAt).toBeUndefined();
    expect(markLoyaltyDue(null, order('FULFILLED'), 't1').loyaltyDueAt).toBeUndefined();
  });

  it('marks a move into PAID or CANCELED with the new time, and keeps the old mark on any other write', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ORDER_STATUSES), fc.constantFrom(...ORDER_STATUSES), fc.option(fc.constant('t0'), { nil: undefined }), (from, to, had) => {
        const after = markLoyaltyDue(order(from, had), order(to, had), 't1');
        const moved = from !== to && (to === 'PAID' || to === 'CANCELED');
        expect(after.loyaltyDueAt).toBe(moved ? 't1' : had);
      }),
    );
  });

  it('spreads orders over every sweep shard', () => {
    const shards = new Set(Array.from({ length: 200 }, (_, i) => orderLoyaltyShardOf(`ord_${i.toString(36)}x`)));
    expect(shards.size).toBe(ORDER_LOYALTY_SHARDS);
  });
});
