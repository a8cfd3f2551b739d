import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runningCounters } from '../../../lib/loyalties/card-transaction.js';

describe('runningCounters', () => {
  it('gives the last change the final counters and each earlier one the counters before the changes after it', () => {
    expect(runningCounters([5, 6], { total: 111, balance: 61 })).toEqual([
      { total: 105, balance: 55 },
      { total: 111, balance: 61 },
    ]);
    expect(runningCounters([10, -4], { total: 10, balance: 6 })).toEqual([
      { total: 10, balance: 10 },
      { total: 10, balance: 6 },
    ]);
  });

  it('steps from the counters before all changes by each change in turn (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: -500, max: 500 }).filter((p) => p !== 0),
          { maxLength: 10 },
        ),
        fc.nat(10_000),
        fc.nat(10_000),
        (points, total0, balance0) => {
          const total = points.reduce((t, p) => t + Math.max(p, 0), total0);
          const balance = points.reduce((b, p) => b + p, balance0);
          const counters = runningCounters(points, { total, balance });
          let t = total0;
          let b = balance0;
          points.forEach((p, i) => {
            t += Math.max(p, 0);
            b += p;
            expect(counters[i]).toEqual({ total: t, balance: b });
          });
        },
      ),
    );
  });
});
