import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FilterCustomer, matchesSegmentFilter, parseSegmentFilter, UnsupportedFilterError } from '../../../lib/segments/segment-filter.js';

const customer = (over: Partial<FilterCustomer> = {}): FilterCustomer => ({
  id: 'cust_1',
  source_id: 'ann',
  name: 'Ann Lee',
  email: 'ann@shop.test',
  phone: null,
  description: null,
  birthdate: '1990-04-02',
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: null,
  address: { city: 'Oslo', country: 'NO' },
  metadata: { tier: 'vip', visits: 12, since: '2025-01-01T00:00:00Z' },
  ...over,
});
const matches = (filter: Record<string, unknown>, c = customer()) => {
  parseSegmentFilter(filter);
  return matchesSegmentFilter(c, filter);
};

describe('segment filters: evaluation', () => {
  it('string operators on fields, address and metadata', () => {
    expect(matches({ name: { conditions: { $starts_with: 'Ann' } } })).toBe(true);
    expect(matches({ email: { conditions: { $ends_with: '@other.test' } } })).toBe(false);
    expect(matches({ 'address.city': { conditions: { $in: ['Oslo', 'Bergen'] } } })).toBe(true);
    expect(matches({ 'metadata.tier': { conditions: { $is: 'vip' } } })).toBe(true);
    expect(matches({ 'metadata.tier': { conditions: { $is_not: 'vip' } } })).toBe(false);
    expect(matches({ name: { conditions: { $contains: 'Lee', $not_contain: 'Bob' } } })).toBe(true);
  });

  it('unknown values: $is_unknown and $has_value; $is_not holds for them', () => {
    expect(matches({ phone: { conditions: { $is_unknown: true } } })).toBe(true);
    expect(matches({ phone: { conditions: { $has_value: true } } })).toBe(false);
    expect(matches({ 'metadata.missing': { conditions: { $is_not: 'x' } } })).toBe(true);
    expect(matches({ 'address.state': { conditions: { $is_unknown: '' } } })).toBe(true);
  });

  it('numbers and dates', () => {
    expect(matches({ 'metadata.visits': { conditions: { $more_than: 10, $less_than_equal: 12 } } })).toBe(true);
    expect(matches({ 'metadata.visits': { conditions: { $less_than: 12 } } })).toBe(false);
    expect(matches({ 'metadata.tier': { conditions: { $more_than: 1 } } })).toBe(false);
    expect(matches({ created_at: { conditions: { $after: '2026-01-01T00:00:00Z', $before: '2026-06-01T00:00:00Z' } } })).toBe(true);
    expect(matches({ 'metadata.since': { conditions: { $before: '2024-01-01' } } })).toBe(false);
    expect(matches({ updated_at: { conditions: { $after: '2000-01-01' } } })).toBe(false);
  });

  it('junctions: and (default) needs every field, or needs one; no field matches everyone', () => {
    const two = { name: { conditions: { $is: 'Nobody' } }, 'metadata.tier': { conditions: { $is: 'vip' } } };
    expect(matches(two)).toBe(false);
    expect(matches({ junction: 'or', ...two })).toBe(true);
    expect(matches({ junction: 'OR', ...two })).toBe(true);
    expect(matches({})).toBe(true);
  });
});

describe('segment filters: what cannot be evaluated is refused by name', () => {
  const refused = (filter: Record<string, unknown>, named: string) => {
    expect(() => parseSegmentFilter(filter)).toThrow(UnsupportedFilterError);
    expect(() => parseSegmentFilter(filter)).toThrow(named);
  };
  it('names the field, operator or operand', () => {
    refused({ 'summary.redemptions.total_redeemed': { conditions: { $more_than: 1 } } }, 'summary.redemptions.total_redeemed');
    refused({ 'loyalty.points': { conditions: { $more_than: 1 } } }, 'loyalty.points');
    refused({ name: { conditions: { $sounds_like: 'x' } } }, '$sounds_like');
    refused({ name: { conditions: {} } }, 'filter.name');
    refused({ name: 'Ann' }, 'filter.name');
    refused({ 'metadata.visits': { conditions: { $more_than: 'ten' } } }, '$more_than takes a number');
    refused({ created_at: { conditions: { $after: 'yesterday' } } }, '$after takes an ISO 8601 date');
    refused({ name: { conditions: { $in: [] } } }, '$in takes a non-empty list');
    refused({ junction: 'xor' }, 'filter.junction');
  });
});

describe('segment filters: properties', () => {
  const value = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -50, max: 50 }), fc.constant(null));
  const cust = fc
    .record({ tier: value, visits: value })
    .map((m) => customer({ metadata: Object.fromEntries(Object.entries(m).filter(([, v]) => v !== null)) as Record<string, unknown> }));
  const operand = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -50, max: 50 }));

  it('$is and $is_not are complements; or of one field equals and of it', () => {
    fc.assert(
      fc.property(cust, operand, (c, o) => {
        const is = matches({ 'metadata.tier': { conditions: { $is: o } } }, c);
        const isNot = matches({ 'metadata.tier': { conditions: { $is_not: o } } }, c);
        expect(is).toBe(!isNot);
        const f = { 'metadata.tier': { conditions: { $is: o } } };
        expect(matches({ junction: 'or', ...f }, c)).toBe(matches(f, c));
      }),
    );
  });

  it('$more_than and $less_than_equal partition the customers with a numeric value', () => {
    fc.assert(
      fc.property(cust, fc.integer({ min: -50, max: 50 }), (c, n) => {
        const more = matches({ 'metadata.visits': { conditions: { $more_than: n } } }, c);
        const lessEq = matches({ 'metadata.visits': { conditions: { $less_than_equal: n } } }, c);
        const v = c.metadata.visits;
        const numeric = typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)));
        expect(more || lessEq).toBe(numeric);
        expect(more && lessEq).toBe(false);
      }),
    );
  });

  it('an or-filter holds iff some of its fields holds alone; an and-filter iff all do', () => {
    fc.assert(
      fc.property(cust, operand, operand, (c, a, b) => {
        const f1 = { 'metadata.tier': { conditions: { $is: a } } };
        const f2 = { 'metadata.visits': { conditions: { $is: b } } };
        expect(matches({ junction: 'or', ...f1, ...f2 }, c)).toBe(matches(f1, c) || matches(f2, c));
        expect(matches({ ...f1, ...f2 }, c)).toBe(matches(f1, c) && matches(f2, c));
      }),
    );
  });
});
