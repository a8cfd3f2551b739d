import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ActivityEvent, activityIdOf, activityKey, keyOfActivityId, mergePage, recordEvents, timeOfKey } from '../../../lib/activity/activity.js';
import { cursorOf } from '../../../lib/activity/activity-page.js';
import type { Customer } from '../../../lib/customers/customer.js';

const event = (key: string): ActivityEvent => ({ key, type: 'customer.created', createdAt: timeOfKey(key), campaignId: null, campaignType: null, data: {} });

async function* from(events: ActivityEvent[]): AsyncGenerator<ActivityEvent> {
  yield* events;
}

const customer = (segmentIds: string[]): Customer =>
  ({ id: 'cust_1', projectId: 'p1', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z', segmentIds }) as unknown as Customer;

describe('activity keys and ids', () => {
  it('orders keys by creation time, and an id gives its key back with no read', () => {
    const a = activityKey('2026-01-01T00:00:00.999Z', 'r', 'r_z');
    const b = activityKey('2026-01-01T00:00:01.000Z', 'a', 'act_a');
    expect(a < b).toBe(true);
    expect(keyOfActivityId(activityIdOf(b))).toBe(b);
    expect(timeOfKey(b)).toBe('2026-01-01T00:00:01.000Z');
    expect(keyOfActivityId('r_123')).toBeNull();
    expect(keyOfActivityId('evcus_nothex')).toBeNull();
  });

  it('reads a starting_after date as a cut before it newest first and after it oldest first', () => {
    const at = '2026-01-01T00:00:01.000Z';
    const same = activityKey(at, 'p', 'pub_1');
    const newest = cursorOf({ starting_after: at }, true) as string;
    const oldest = cursorOf({ starting_after: at }, false) as string;
    expect(same > newest).toBe(true);
    expect(same < oldest).toBe(true);
    expect(() => cursorOf({ starting_after_id: 'nope' }, true)).toThrow('Invalid query params');
  });
});

describe('customer activity records', () => {
  it('records a creation with the segments joined, and an update with the segments joined and left, one event each', () => {
    const record = (customerOf: Customer, was: string[] | null) => ({
      id: 'act_1',
      projectId: 'p1',
      customerId: 'cust_1',
      createdAt: 'x',
      customer: customerOf,
      was,
    });
    expect(recordEvents(record(customer(['s1']), null)).map((e) => [e.type, e.segmentId])).toEqual([
      ['customer.created', null],
      ['customer.segment.entered', 's1'],
    ]);
    expect(recordEvents(record(customer(['s2', 's3']), ['s1', 's2'])).map((e) => [e.type, e.segmentId])).toEqual([
      ['customer.updated', null],
      ['customer.segment.entered', 's3'],
      ['customer.segment.left', 's1'],
    ]);
    expect(recordEvents({ ...record(customer(['s1', 's2']), ['s1']), joined: 's2' }).map((e) => e.type)).toEqual(['customer.segment.entered']);
  });
});

describe('mergePage', () => {
  const keys = fc.uniqueArray(
    fc
      .tuple(fc.integer({ min: 0, max: 50 }), fc.constantFrom('a', 'e', 'p', 'r', 't'), fc.integer({ min: 0, max: 9 }))
      .map(([ms, source, n]) => `${ms.toString(16).padStart(12, '0')}${source}id${n}`),
  );

  it('gives the first `take` events of all sources in order and says whether more follow, in both orders', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(keys, { maxLength: 4 }), fc.integer({ min: 1, max: 10 }), fc.boolean(), async (sources, take, descending) => {
        const unique = [...new Set(sources.flat())];
        const order = (a: string, b: string) => (descending ? (a < b ? 1 : -1) : a < b ? -1 : 1);
        const seen = new Set<string>();
        const disjoint = sources.map((s) => s.filter((k) => !seen.has(k) && seen.add(k)).sort(order));
        const page = await mergePage(
          disjoint.map((s) => from(s.map(event))),
          take,
          descending,
        );
        const all = unique.sort(order);
        expect(page.events.map((e) => e.key)).toEqual(all.slice(0, take));
        expect(page.hasMore).toBe(all.length > take);
      }),
    );
  });
});
