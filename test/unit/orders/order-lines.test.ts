import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidPayloadError } from '../../../lib/errors.js';
import { itemsAmount, orderItemOf, undiscountedFigures } from '../../../lib/orders/order-lines.js';

describe('order lines', () => {
  it('takes a line amount as sent, else price × quantity, else none', () => {
    expect(orderItemOf({ amount: 700 }, 0).amount).toBe(700);
    expect(orderItemOf({ price: 250, quantity: 4 }, 0).amount).toBe(1000);
    expect(orderItemOf({ price: 250 }, 0).amount).toBeNull();
    expect(orderItemOf({ price: 250, quantity: 4, amount: 1000 }, 0).amount).toBe(1000);
  });

  it('refuses an amount that disagrees with price × quantity, naming the line', () => {
    expect(() => orderItemOf({ price: 250, quantity: 4, amount: 999 }, 3)).toThrow(InvalidPayloadError);
    expect(() => orderItemOf({ price: 250, quantity: 4, amount: 999 }, 3)).toThrow(
      expect.objectContaining({ details: expect.stringContaining('.items.3.amount') }),
    );
  });

  it('refuses products and sums beyond 2^53 - 1 instead of losing cents', () => {
    expect(() => orderItemOf({ price: Number.MAX_SAFE_INTEGER, quantity: 2 }, 0)).toThrow(InvalidPayloadError);
    const big = orderItemOf({ amount: Number.MAX_SAFE_INTEGER }, 0);
    expect(() => itemsAmount([big, orderItemOf({ amount: 1 }, 1)])).toThrow(InvalidPayloadError);
  });

  it('sums the line amounts (lines without one count 0)', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: undefined }), { maxLength: 50 }), (amounts) => {
        const items = amounts.map((amount, i) => orderItemOf(amount === undefined ? {} : { amount }, i));
        expect(itemsAmount(items)).toBe(amounts.reduce<number>((s, a) => s + (a ?? 0), 0));
      }),
    );
  });

  it('gives total_amount = initial_amount = amount and every discount 0 with no redemption', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (amount) => {
        const f = undiscountedFigures(amount);
        expect(f.totalAmount).toBe(amount);
        expect(f.initialAmount).toBe(amount);
        expect(f.totalDiscountAmount + f.discountAmount + f.itemsDiscountAmount + f.totalAppliedDiscountAmount).toBe(0);
      }),
    );
  });
});
