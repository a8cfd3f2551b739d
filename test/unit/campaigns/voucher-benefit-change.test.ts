import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Discount, VoucherTemplate } from '../../../lib/campaigns/campaign.js';
import { benefitChangeOf, followsTemplate, sameJson } from '../../../lib/campaigns/voucher-benefit-change.js';
import type { Voucher } from '../../../lib/vouchers/voucher.js';

const voucher = (over: Partial<Voucher> = {}): Voucher => ({
  id: 'v_1',
  code: 'CODE',
  projectId: 'p',
  campaignId: 'camp_1',
  campaignName: 'C',
  category: null,
  type: 'DISCOUNT_VOUCHER',
  discount: { type: 'PERCENT', percentOff: 10 } as Discount,
  gift: null,
  loyaltyCard: null,
  startDate: null,
  expirationDate: null,
  validityTimeframe: null,
  validityDayOfWeek: null,
  validityHours: null,
  active: true,
  additionalInfo: null,
  metadata: {},
  isReferralCode: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  holderId: null,
  referrerId: null,
  redemptionQuantity: null,
  redeemedQuantity: 0,
  redeemedPoints: 0,
  publishCount: 0,
  ...over,
});

const discountTemplate = (discount: Discount): Pick<VoucherTemplate, 'type' | 'discount' | 'gift'> => ({ type: 'DISCOUNT_VOUCHER', discount, gift: null });

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.integer(),
    fc.string({ maxLength: 5 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** The same object with its keys in reverse order, at every depth (DynamoDB does not keep key order). */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reordered(v)]),
    );
  }
  return value;
}

describe('sameJson', () => {
  it('holds for a value and its copy with keys in any order, and is symmetric', () => {
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(sameJson(a, reordered(structuredClone(a)))).toBe(true);
        expect(sameJson(a, b)).toBe(sameJson(b, a));
      }),
    );
  });

  it('tells different discounts apart', () => {
    expect(sameJson({ type: 'PERCENT', percentOff: 10 }, { type: 'PERCENT', percentOff: 11 })).toBe(false);
    expect(sameJson({ type: 'PERCENT', percentOff: 10 }, { type: 'PERCENT', percentOff: 10, effect: 'APPLY_TO_ORDER' })).toBe(false);
    expect(sameJson([1, 2], { 0: 1, 1: 2 })).toBe(false);
  });
});

describe('benefitChangeOf', () => {
  it('gives an unpublished unredeemed voucher the new discount, and nothing once it has it', () => {
    const next = { type: 'AMOUNT', amountOff: 500 } as Discount;
    const v = voucher();
    expect(benefitChangeOf(v, discountTemplate(next))).toEqual({ discount: next });
    expect(benefitChangeOf({ ...v, discount: next }, discountTemplate(next))).toBeNull();
  });

  it('leaves published, held or redeemed vouchers alone, whatever the template', () => {
    fc.assert(
      fc.property(fc.nat(3), fc.boolean(), fc.nat(3), fc.integer({ min: 0, max: 100 }), (publishCount, held, redeemedQuantity, percentOff) => {
        const v = voucher({ publishCount, holderId: held ? 'cust_1' : null, redeemedQuantity });
        const change = benefitChangeOf(v, discountTemplate({ type: 'PERCENT', percentOff } as Discount));
        const follows = publishCount === 0 && !held && redeemedQuantity === 0;
        expect(followsTemplate(v)).toBe(follows);
        if (!follows) expect(change).toBeNull();
        else expect(change).toEqual(percentOff === 10 ? null : { discount: { type: 'PERCENT', percentOff } });
      }),
    );
  });

  it("gives a following gift card the credits a new card of the template starts with, and never touches another type's voucher", () => {
    const card = voucher({ type: 'GIFT_VOUCHER', discount: null, gift: { amount: 5000, subtractedAmount: 0, balance: 5000, effect: 'APPLY_TO_ORDER' } });
    const template = { type: 'GIFT_VOUCHER' as const, discount: null, gift: { amount: 8000 } };
    expect(benefitChangeOf(card, template)).toEqual({ gift: { amount: 8000, subtractedAmount: 0, balance: 8000, effect: null } });
    expect(benefitChangeOf({ ...card, gift: { amount: 8000, subtractedAmount: 0, balance: 8000, effect: null } }, template)).toBeNull();
    expect(benefitChangeOf(voucher(), template)).toBeNull();
    expect(benefitChangeOf({ ...card, redeemedQuantity: 1 }, template)).toBeNull();
  });
});
