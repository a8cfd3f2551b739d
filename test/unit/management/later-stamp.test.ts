import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { laterStamp } from '../../../lib/management/later-stamp.js';

describe('laterStamp', () => {
  it('is now when the clock has passed the previous stamp, and always after the previous one', () => {
    expect(laterStamp(new Date('2026-01-01T00:00:01.000Z'), null)).toBe('2026-01-01T00:00:01.000Z');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: -5000, max: 5000 }), (previous, delta) => {
        const prev = new Date(previous).toISOString();
        const next = laterStamp(new Date(previous + delta), prev);
        expect(Date.parse(next)).toBeGreaterThan(previous);
        expect(Date.parse(next)).toBe(Math.max(previous + delta, previous + 1));
      }),
    );
  });
});
