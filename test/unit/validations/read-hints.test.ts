import { describe, expect, it } from 'vitest';
import { READ_HINT_MS, ReadHints, RECENT_CAMPAIGNS } from '../../../lib/validations/read-hints.js';

const learnt = (codes: [string, string][], tiers: [string, string][] = []) => ({ codes: new Map(codes), tiers: new Map(tiers), order: null, customer: null });

describe('ReadHints', () => {
  it('remembers where codes, tiers and source ids lead, per project', () => {
    const hints = new ReadHints(() => 0);
    hints.learn('p1', { ...learnt([['A', 'c1']], [['t1', 'c2']]), order: { sourceId: 'o', id: 'ord_1' }, customer: { sourceId: 'c', id: 'cust_1' } });
    expect(hints.campaignOfCode('p1', 'A')).toBe('c1');
    expect(hints.campaignOfTier('p1', 't1')).toBe('c2');
    expect(hints.orderOfSourceId('p1', 'o')).toBe('ord_1');
    expect(hints.customerOfSourceId('p1', 'c')).toBe('cust_1');
    expect(hints.campaignOfCode('p2', 'A')).toBeUndefined();
    expect(hints.recentCampaigns('p2')).toEqual([]);
  });

  it(`keeps the ${RECENT_CAMPAIGNS} campaigns a project used last, most recent first, without repeats`, () => {
    const hints = new ReadHints(() => 0);
    hints.learn('p', learnt([['A', 'c1']]));
    hints.learn('p', learnt([['B', 'c2']]));
    hints.learn('p', learnt([['C', 'c3']]));
    hints.learn(
      'p',
      learnt([
        ['D', 'c4'],
        ['E', 'c2'],
      ]),
    );
    expect(hints.recentCampaigns('p')).toEqual(['c4', 'c2', 'c3']);
    hints.learn('p', learnt([]));
    expect(hints.recentCampaigns('p')).toEqual(['c4', 'c2', 'c3']);
  });

  it('forgets after its age, so memory stays bounded', () => {
    let now = 0;
    const hints = new ReadHints(() => now);
    hints.learn('p', learnt([['A', 'c1']]));
    now = READ_HINT_MS;
    expect(hints.campaignOfCode('p', 'A')).toBeUndefined();
    expect(hints.recentCampaigns('p')).toEqual([]);
  });

  it('keeps a project’s rules per revision: the same revision merges, a new one starts again', () => {
    const hints = new ReadHints(() => 0);
    const rule = (id: string) => ({ id }) as unknown as Parameters<ReadHints['learnRules']>[3][number];
    hints.learnRules('p', 3, new Map([['v_1', ['val_1']]]), [rule('val_1')]);
    hints.learnRules('p', 3, new Map([['camp_1', []]]), []);
    expect([...(hints.rulesOf('p')?.objects.keys() ?? [])]).toEqual(['v_1', 'camp_1']);
    hints.learnRules('p', 4, new Map([['v_2', ['val_2']]]), [rule('val_2')]);
    const now = hints.rulesOf('p');
    expect(now?.revision).toBe(4);
    expect([...(now?.objects.keys() ?? [])]).toEqual(['v_2']);
    expect([...(now?.rules.keys() ?? [])]).toEqual(['val_2']);
    expect(hints.rulesOf('q')).toBeUndefined();
  });
});
