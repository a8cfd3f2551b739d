import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  creditsLeft,
  DEFAULT_SESSION_TTL_MS,
  expiredSessionKeys,
  heldBySessions,
  liveReservation,
  sessionTtlMs,
  usesLeft,
  type VoucherSessions,
} from '../../../lib/redemptions/session-lock.js';

const now = Date.parse('2026-11-23T12:00:00.000Z');
const at = (offsetMs: number): string => new Date(now + offsetMs).toISOString();

describe('session lifetime', () => {
  it('defaults to 7 days, converts every reference unit, and refuses out-of-range lifetimes', () => {
    expect(sessionTtlMs(undefined, undefined)).toBe(DEFAULT_SESSION_TTL_MS);
    expect(sessionTtlMs(undefined, 'HOURS')).toBe(DEFAULT_SESSION_TTL_MS);
    expect(sessionTtlMs(2, 'HOURS')).toBe(7_200_000);
    expect(sessionTtlMs(3, undefined)).toBe(3 * 86_400_000);
    expect(sessionTtlMs(90, 'SECONDS')).toBe(90_000);
    expect(sessionTtlMs(1.5, 'MINUTES')).toBe(90_000);
    expect(sessionTtlMs(1, 'NANOSECONDS')).toBe(1);
    expect(sessionTtlMs(2500, 'MICROSECONDS')).toBe(3);
    expect(sessionTtlMs(0, 'DAYS')).toBeNull();
    expect(sessionTtlMs(-1, 'DAYS')).toBeNull();
    expect(sessionTtlMs(366, 'DAYS')).toBeNull();
    expect(sessionTtlMs(Number.POSITIVE_INFINITY, 'DAYS')).toBeNull();
  });
});

describe('reservations against the clock', () => {
  const sessions: VoucherSessions = {
    live: { expiresAt: at(60_000), uses: 1, credits: 300 },
    other: { expiresAt: at(1), uses: 1, credits: 200 },
    gone: { expiresAt: at(0), uses: 1, credits: 1_000 },
  };

  it('counts live holds only, an expired one from the very millisecond it expires', () => {
    expect(heldBySessions(sessions, now)).toEqual({ uses: 2, credits: 500 });
    expect(heldBySessions(sessions, now + 1)).toEqual({ uses: 1, credits: 300 });
    expect(expiredSessionKeys(sessions, now)).toEqual(['gone']);
    expect(liveReservation(sessions, 'gone', now)).toBeNull();
    expect(liveReservation(sessions, 'live', now)?.credits).toBe(300);
  });

  it("leaves out the named session's own hold", () => {
    expect(heldBySessions(sessions, now, 'live')).toEqual({ uses: 1, credits: 200 });
    const voucher = { redemptionQuantity: 3, redeemedQuantity: 1, sessions };
    expect(usesLeft(voucher, now, null)).toBe(0);
    expect(usesLeft(voucher, now, 'live')).toBe(1);
    expect(usesLeft(voucher, now + 1, null)).toBe(1);
    expect(usesLeft({ ...voucher, redemptionQuantity: null }, now, null)).toBeNull();
    expect(creditsLeft(1_000, sessions, now, null)).toBe(500);
    expect(creditsLeft(1_000, sessions, now, 'other')).toBe(700);
    expect(creditsLeft(100, sessions, now, null)).toBe(0);
  });

  it('never leaves more uses than the limit allows, and the holds of all live sessions plus what is left never exceed it', () => {
    const reservation = fc.record({ expiresAt: fc.integer({ min: -10_000, max: 10_000 }).map(at), uses: fc.constantFrom(0, 1), credits: fc.nat(500) });
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), reservation, { maxKeys: 8 }), fc.nat(20), fc.nat(20), (held, limit, redeemed) => {
        const voucher = { redemptionQuantity: limit, redeemedQuantity: Math.min(redeemed, limit), sessions: held };
        const left = usesLeft(voucher, now, null) ?? 0;
        expect(left).toBeGreaterThanOrEqual(0);
        expect(left).toBeLessThanOrEqual(limit - voucher.redeemedQuantity);
        // A session's own use is one more than the others leave it, never more.
        for (const key of Object.keys(held)) {
          const own = liveReservation(held, key, now)?.uses ?? 0;
          expect((usesLeft(voucher, now, key) ?? 0) - left).toBeLessThanOrEqual(own);
        }
      }),
    );
  });
});
