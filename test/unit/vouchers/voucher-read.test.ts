import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { voucher as voucherEntity } from '../../../lib/db/entities.js';
import type { Voucher } from '../../../lib/vouchers/voucher.js';
import { readOnlyVoucher } from '../../../lib/vouchers/voucher-read.js';

const base: Voucher = {
  id: 'v_1',
  code: 'CODE-1',
  projectId: 'proj_1',
  campaignId: 'camp_1',
  campaignName: 'Spring',
  category: { id: 'cat_1', name: 'Shoes', hierarchy: 1, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: null } as Voucher['category'],
  type: 'DISCOUNT_VOUCHER',
  discount: { type: 'AMOUNT', amountOff: 500 },
  gift: null,
  loyaltyCard: null,
  startDate: '2026-01-01T00:00:00.000Z',
  expirationDate: null,
  validityTimeframe: { interval: 'P2D', duration: 'PT1H' },
  validityDayOfWeek: [1, 2],
  validityHours: null,
  active: true,
  additionalInfo: 'note',
  metadata: { tier: 'gold', nested: { a: 1 } },
  isReferralCode: false,
  createdAt: '2026-01-02T00:00:00.000Z',
  updatedAt: '2026-01-03T00:00:00.000Z',
  holderId: 'cust_1',
  referrerId: null,
  redemptionQuantity: 3,
  redeemedQuantity: 1,
  redeemedPoints: 0,
  publishCount: 1,
};

/** An item as the SDK hands it over: more than ~20 attributes come in dictionary mode (a deleted property makes one). */
const asRead = (v: Voucher) => {
  const item: Record<string, unknown> = { ...voucherEntity.toItem(v, v.campaignId ?? 'none'), __gone: 1 };
  delete item.__gone;
  return item;
};

describe('readOnlyVoucher', () => {
  it('gives what the entity gives, every field, with and without each optional field', () => {
    const optional = fc.record(
      {
        referralConversions: fc.nat(),
        publicationId: fc.string(),
        sessions: fc.dictionary(fc.string({ minLength: 1 }), fc.record({ expiresAt: fc.string(), quantity: fc.nat() })),
        sessionsRevision: fc.nat(),
      },
      { requiredKeys: [] },
    );
    const nullable = fc.record({
      campaignId: fc.option(fc.string(), { nil: null }),
      holderId: fc.option(fc.string(), { nil: null }),
      redemptionQuantity: fc.option(fc.nat(), { nil: null }),
      updatedAt: fc.option(fc.string(), { nil: null }),
      active: fc.boolean(),
    });
    fc.assert(
      fc.property(optional, nullable, (o, n) => {
        const v = { ...base, ...n, ...o } as Voucher;
        const item = asRead(v);
        expect(readOnlyVoucher(item)).toStrictEqual(voucherEntity.fromItem(item));
      }),
    );
  });

  it('leaves an absent optional field absent, and carries no attribute outside the Voucher type', () => {
    const value = readOnlyVoucher({ ...asRead(base), legacyAttribute: 'x' });
    expect('publicationId' in value).toBe(false);
    expect('legacyAttribute' in value).toBe(false);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});
