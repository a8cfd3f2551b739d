import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertRedemptionHasValue, statedOrderAmount } from '../../../lib/redemptions/redemption-value.js';

const voucher = (gift?: { credits?: number }) => ({ object: 'voucher' as const, id: 'CODE', ...(gift ? { gift } : {}) });

describe('statedOrderAmount', () => {
  it('is the amount sent, else the sum of lines that all state theirs, else undefined', () => {
    expect(statedOrderAmount(undefined)).toBeUndefined();
    expect(statedOrderAmount({})).toBeUndefined();
    expect(statedOrderAmount({ id: 'ord_1' })).toBeUndefined();
    expect(statedOrderAmount({ amount: 0 })).toBe(0);
    expect(statedOrderAmount({ amount: 1200, items: [{ amount: 5 }] })).toBe(1200);
    expect(statedOrderAmount({ items: [{ amount: 300 }, { price: 100, quantity: 2 }] })).toBe(500);
    expect(statedOrderAmount({ items: [{ price: 0, quantity: 3 }] })).toBe(0);
    // A line without a price states no amount: the order's is unknown, not 0.
    expect(statedOrderAmount({ items: [{ amount: 300 }, { product_id: 'p', quantity: 1 }] })).toBeUndefined();
  });
});

describe('assertRedemptionHasValue', () => {
  it('refuses an order stated at 0 or -0 and gift credits of 0 or -0 with invalid_amount', () => {
    for (const request of [
      { redeemables: [voucher()], order: { amount: 0 } },
      { redeemables: [voucher()], order: { amount: -0 } },
      { redeemables: [voucher({ credits: 0 })], order: { amount: 100 } },
      { redeemables: [voucher(), { object: 'gift_card' as const, id: 'G', gift: { credits: -0 } }] },
    ]) {
      expect(() => assertRedemptionHasValue(request)).toThrow(expect.objectContaining({ status: 400, key: 'invalid_amount' }));
    }
  });

  it('lets through any request that states a positive amount and credits, or none', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
        (amount, credits) => {
          const request = {
            redeemables: [voucher(credits === undefined ? undefined : { credits }), { object: 'promotion_tier' as const, id: 'promo_1' }],
            ...(amount === undefined ? {} : { order: { amount } }),
          };
          expect(() => assertRedemptionHasValue(request)).not.toThrow();
        },
      ),
    );
  });
});
