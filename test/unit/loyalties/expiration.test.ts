import { describe, expect, it } from 'vitest';
import { expiryOf } from '../../../lib/loyalties/expiration.js';

const on = (iso: string) => new Date(`${iso}T10:00:00Z`);

describe('expiryOf (Voucherify expiration rules)', () => {
  it('never expires without rules', () => {
    expect(expiryOf(null, on('2026-02-10'))).toBeNull();
  });
  it('adds whole months, clamping the day to the target month', () => {
    expect(expiryOf({ periodType: 'MONTH', periodValue: 3 }, on('2026-02-10'))).toBe('2026-05-10');
    expect(expiryOf({ periodType: 'MONTH', periodValue: 1 }, on('2026-01-31'))).toBe('2026-02-28');
    expect(expiryOf({ periodType: 'MONTH', periodValue: 12 }, on('2026-11-05'))).toBe('2027-11-05');
  });
  it('rounds up to the end of the month, quarter, half year or year', () => {
    const now = on('2026-02-10');
    expect(expiryOf({ periodType: 'MONTH', periodValue: 3, roundingType: 'END_OF_MONTH' }, now)).toBe('2026-05-31');
    expect(expiryOf({ periodType: 'MONTH', periodValue: 3, roundingType: 'END_OF_QUARTER' }, now)).toBe('2026-06-30');
    expect(expiryOf({ periodType: 'MONTH', periodValue: 5, roundingType: 'END_OF_HALF_YEAR' }, now)).toBe('2026-12-31');
    expect(expiryOf({ periodType: 'MONTH', periodValue: 11, roundingType: 'END_OF_YEAR' }, now)).toBe('2027-12-31');
  });
  it('rounds up to the end of a particular month, the next one at or after the period', () => {
    const now = on('2026-02-10');
    expect(expiryOf({ periodType: 'MONTH', periodValue: 1, roundingType: 'PARTICULAR_MONTH', roundingValue: 6 }, now)).toBe('2026-06-30');
    expect(expiryOf({ periodType: 'MONTH', periodValue: 6, roundingType: 'PARTICULAR_MONTH', roundingValue: 2 }, now)).toBe('2027-02-28');
  });
  it('expires on the next fixed day of the year', () => {
    expect(expiryOf({ periodType: 'FIXED_DAY_OF_YEAR', fixedMonth: 3, fixedDay: 31 }, on('2026-02-10'))).toBe('2026-03-31');
    expect(expiryOf({ periodType: 'FIXED_DAY_OF_YEAR', fixedMonth: 1, fixedDay: 15 }, on('2026-02-10'))).toBe('2027-01-15');
    expect(expiryOf({ periodType: 'FIXED_DAY_OF_YEAR', fixedMonth: 2, fixedDay: 31 }, on('2027-01-10'))).toBe('2027-02-28');
  });
});
