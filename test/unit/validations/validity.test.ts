import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Campaign, PromotionTier, Validity } from '../../../lib/campaigns/campaign.js';
import type { Voucher } from '../../../lib/vouchers/voucher.js';
import { inTimeframe, inValidityHours, parseDuration, tierValidity, timeVerdict, voucherValidity } from '../../../lib/validations/validity.js';

const noRules: Validity = { startDate: null, expirationDate: null, validityTimeframe: null, validityDayOfWeek: null, validityHours: null };
/** Monday 2026-07-06 13:00 UTC. */
const now = Date.UTC(2026, 6, 6, 13, 0, 0);
const req = { nowMs: now, sessionKey: null, orderHasItems: true };

const voucher = (over: Partial<Voucher> = {}): Voucher => ({
  ...noRules,
  id: 'v_1',
  code: 'C',
  projectId: 'p',
  campaignId: null,
  campaignName: null,
  category: null,
  type: 'DISCOUNT_VOUCHER',
  discount: { type: 'AMOUNT', amountOff: 100 },
  gift: null,
  loyaltyCard: null,
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
const campaign = (over: Partial<Campaign> = {}) => ({ ...noRules, id: 'camp_1', active: true, name: 'C', category: null, ...over }) as Campaign;
const tier = (over: Partial<PromotionTier> = {}): PromotionTier => ({
  ...noRules,
  id: 'promo_1',
  name: 'T',
  banner: null,
  discount: { type: 'AMOUNT', amountOff: 100 },
  metadata: {},
  active: true,
  hierarchy: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  ...over,
});

describe('ISO durations', () => {
  it('reads the units a timeframe uses and refuses empty or zero ones', () => {
    expect(parseDuration('P2D')).toMatchObject({ days: 2 });
    expect(parseDuration('PT1H30M')).toMatchObject({ hours: 1, minutes: 30 });
    expect(parseDuration('P1M')).toMatchObject({ months: 1 });
    expect(parseDuration('P')).toBeNull();
    expect(parseDuration('PT')).toBeNull();
    expect(parseDuration('P0D')).toBeNull();
    expect(parseDuration('2 days')).toBeNull();
  });
});

describe('time rules', () => {
  it('is not active before the start date, expired after the expiration date, ok between', () => {
    expect(timeVerdict({ ...noRules, startDate: '2026-07-07T00:00:00.000Z' }, now)).toBe('not_active');
    expect(timeVerdict({ ...noRules, expirationDate: '2026-07-06T12:59:59.000Z' }, now)).toBe('expired');
    expect(timeVerdict({ ...noRules, startDate: '2026-07-01T00:00:00.000Z', expirationDate: '2026-07-31T00:00:00.000Z' }, now)).toBe('ok');
  });

  it('reads validity_day_of_week in UTC (0 Sunday … 6 Saturday)', () => {
    expect(timeVerdict({ ...noRules, validityDayOfWeek: [1] }, now)).toBe('ok');
    expect(timeVerdict({ ...noRules, validityDayOfWeek: [0, 2] }, now)).toBe('not_active');
  });

  it('reads validity_hours with an exclusive end, and a period past midnight into the next day', () => {
    const daily = [{ start_time: '12:00', expiration_time: '13:00', days_of_week: [1] }];
    expect(inValidityHours({ daily }, now - 1)).toBe(true);
    expect(inValidityHours({ daily }, now)).toBe(false);
    const night = [{ start_time: '22:00', expiration_time: '02:00', days_of_week: [0] }];
    expect(inValidityHours({ daily: night }, Date.UTC(2026, 6, 6, 1, 30))).toBe(true); // Monday 01:30, Sunday's night
    expect(inValidityHours({ daily: night }, Date.UTC(2026, 6, 6, 22, 30))).toBe(false); // Monday 22:30
    expect(timeVerdict({ ...noRules, validityHours: { daily: [{ startTime: '12:00', expirationTime: '14:00', daysOfWeek: [1] }] } }, now)).toBe('ok');
  });

  it('repeats a timeframe of `duration` every `interval` from the start date, calendar months included', () => {
    const start = '2026-07-01T00:00:00.000Z';
    const tf = { interval: 'P2D', duration: 'PT1H' };
    expect(inTimeframe(tf, start, Date.UTC(2026, 6, 5, 0, 30))).toBe(true);
    expect(inTimeframe(tf, start, Date.UTC(2026, 6, 5, 1, 0))).toBe(false);
    expect(inTimeframe(tf, start, Date.UTC(2026, 6, 6, 0, 30))).toBe(false);
    const monthly = { interval: 'P1M', duration: 'P1D' };
    expect(inTimeframe(monthly, '2026-01-31T00:00:00.000Z', Date.UTC(2026, 2, 3, 12))).toBe(true); // Jan 31 + 1 month = Mar 3
    expect(inTimeframe(monthly, start, Date.UTC(2027, 5, 1, 12))).toBe(true);
    expect(inTimeframe(monthly, start, Date.UTC(2027, 5, 2, 12))).toBe(false);
    expect(inTimeframe(tf, null, now)).toBe(true);
  });

  it('property: with a time-only interval, valid exactly in the first `duration` of each period', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 48 }),
        fc.integer({ min: 1, max: 48 }),
        fc.integer({ min: 0, max: 10_000 * 60_000 }),
        (intervalH, durationH, offset) => {
          const start = Date.UTC(2026, 0, 1);
          const inside = offset % (intervalH * 3_600_000) < durationH * 3_600_000;
          expect(inTimeframe({ interval: `PT${intervalH}H`, duration: `PT${durationH}H` }, new Date(start).toISOString(), start + offset)).toBe(inside);
        },
      ),
    );
  });
});

describe('voucher validity', () => {
  it('checks in order: disabled, campaign, dates, quantity, gift balance, order items', () => {
    expect(voucherValidity(voucher({ active: false, startDate: '2027-01-01T00:00:00.000Z' }), null, req)).toBe('voucher_disabled');
    expect(voucherValidity(voucher(), campaign({ active: false }), req)).toBe('campaign_not_active');
    expect(voucherValidity(voucher(), campaign({ expirationDate: '2026-01-01T00:00:00.000Z' }), req)).toBe('campaign_not_active');
    expect(voucherValidity(voucher({ startDate: '2027-01-01T00:00:00.000Z' }), null, req)).toBe('voucher_not_active');
    expect(voucherValidity(voucher({ expirationDate: '2026-01-01T00:00:00.000Z' }), null, req)).toBe('voucher_expired');
    expect(voucherValidity(voucher({ redemptionQuantity: 2, redeemedQuantity: 2 }), null, req)).toBe('quantity_exceeded');
    expect(voucherValidity(voucher({ redemptionQuantity: 2, redeemedQuantity: 1 }), null, req)).toBeNull();
    expect(voucherValidity(voucher({ discount: { type: 'AMOUNT', amountOff: 1, effect: 'APPLY_TO_ITEMS' } }), null, { ...req, orderHasItems: false })).toBe(
      'missing_order_items',
    );
    expect(
      voucherValidity(voucher({ discount: { type: 'AMOUNT', amountOff: 1, effect: 'APPLY_TO_ORDER' } }), null, { ...req, orderHasItems: false }),
    ).toBeNull();
  });

  it('counts another live session’s hold as used, but not the request’s own session nor an expired hold', () => {
    const held = voucher({ redemptionQuantity: 1, sessions: { s1: { expiresAt: new Date(now + 1000).toISOString(), uses: 1, credits: 0 } } });
    expect(voucherValidity(held, null, req)).toBe('quantity_exceeded');
    expect(voucherValidity(held, null, { ...req, sessionKey: 's1' })).toBeNull();
    expect(voucherValidity(held, null, { ...req, nowMs: now + 1000 })).toBeNull();
  });

  it('refuses gift credits above what other sessions leave of the balance, and a card with nothing left', () => {
    const gift = { amount: 1000, subtractedAmount: 0, balance: 1000, effect: null };
    const card = voucher({
      type: 'GIFT_VOUCHER',
      discount: null,
      gift,
      sessions: { s: { expiresAt: new Date(now + 1000).toISOString(), uses: 0, credits: 400 } },
    });
    expect(voucherValidity(card, null, { ...req, giftCredits: 600 })).toBeNull();
    expect(voucherValidity(card, null, { ...req, giftCredits: 601 })).toBe('gift_amount_exceeded');
    expect(voucherValidity(card, null, { ...req, giftCredits: 1000, sessionKey: 's' })).toBeNull();
    expect(voucherValidity(voucher({ type: 'GIFT_VOUCHER', discount: null, gift: { ...gift, balance: 0 } }), null, req)).toBe('gift_amount_exceeded');
  });
});

describe('promotion tier validity', () => {
  it('answers promotion_inactive for a disabled tier, then the campaign, then the tier’s own dates', () => {
    expect(tierValidity(tier({ active: false }), campaign({ active: false }), req)).toBe('promotion_inactive');
    expect(tierValidity(tier(), campaign({ active: false }), req)).toBe('campaign_not_active');
    expect(tierValidity(tier({ startDate: '2027-01-01T00:00:00.000Z' }), campaign(), req)).toBe('voucher_not_active');
    expect(tierValidity(tier({ expirationDate: '2026-01-01T00:00:00.000Z' }), campaign(), req)).toBe('voucher_expired');
    expect(tierValidity(tier(), campaign(), req)).toBeNull();
  });
});
