import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Holding, holderIdAt, ownerHolderId, pageOf, redeemableStatus, sortHoldings } from '../../../lib/referrals/redeemable-holder.js';

const holding = (id: string): Holding => ({
  id,
  createdAt: '2026-01-01T00:00:00.000Z',
  voucherId: 'v_1',
  code: 'C',
  customerId: 'cust_1',
  role: 'REFEREE',
  campaignId: 'camp_1',
  campaignType: 'REFERRAL_PROGRAM',
  voucherType: 'DISCOUNT_VOUCHER',
  metadata: null,
});

const hex = (minLength = 0, maxLength = 10) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength, maxLength });

const base = { active: true, startDate: null, expirationDate: null, redemptionQuantity: null, redeemedQuantity: 0, gift: null, loyaltyCard: null };
const now = new Date('2026-06-01T00:00:00.000Z');

describe('redeemable holders', () => {
  it('makes holder ids whose order is their time order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), fc.integer({ min: 1, max: 1_000_000 }), hex(), hex(), (t, dt, r1, r2) => {
        const a = holderIdAt(new Date(t).toISOString(), r1);
        const b = holderIdAt(new Date(t + dt).toISOString(), r2);
        expect(a).toMatch(/^rh_[0-9a-f]{18}$/);
        expect(a < b).toBe(true);
      }),
    );
  });

  it("gives a voucher's owner one id, the same on every read, and another voucher another", () => {
    const v = { id: 'v_abc', createdAt: '2026-01-01T00:00:00.000Z' };
    expect(ownerHolderId(v)).toBe(ownerHolderId({ ...v }));
    expect(ownerHolderId(v)).not.toBe(ownerHolderId({ ...v, id: 'v_abd' }));
    expect(ownerHolderId(v) < holderIdAt('2026-01-01T00:00:00.001Z', '0000000')).toBe(true);
  });

  it('pages sorted holdings after a cursor in either order, every holding once', () => {
    fc.assert(
      fc.property(fc.uniqueArray(hex(4, 4), { maxLength: 30 }), fc.integer({ min: 1, max: 7 }), fc.boolean(), (ids, limit, asc) => {
        const order = asc ? 'id' : '-id';
        const sorted = sortHoldings(ids.map(holding), order);
        const seen: string[] = [];
        let after: string | undefined;
        for (;;) {
          const { page, hasMore } = pageOf(sorted, order, after, limit);
          seen.push(...page.map((h) => h.id));
          if (!hasMore) break;
          after = page.at(-1)?.id;
        }
        expect(seen).toEqual(sorted.map((h) => h.id));
      }),
    );
  });

  it('says why a voucher cannot be used', () => {
    expect(redeemableStatus(base, now)).toBe('ACTIVE');
    expect(redeemableStatus({ ...base, active: false }, now)).toBe('DISABLED');
    expect(redeemableStatus({ ...base, startDate: '2026-07-01T00:00:00.000Z' }, now)).toBe('NOT_ACTIVE_YET');
    expect(redeemableStatus({ ...base, expirationDate: '2026-05-01T00:00:00.000Z' }, now)).toBe('EXPIRED');
    expect(redeemableStatus({ ...base, redemptionQuantity: 1, redeemedQuantity: 1 }, now)).toBe('USED');
    expect(redeemableStatus({ ...base, gift: { amount: 10, balance: 0, subtractedAmount: 0, effect: null } }, now)).toBe('NO_BALANCE');
  });
});
