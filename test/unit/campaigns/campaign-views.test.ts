import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_STATUSES, CAMPAIGN_TYPES, type CampaignStatus, type CampaignType } from '../../../lib/campaigns/campaign.js';
import {
  ALL_VIEW,
  campaignViews,
  DELETED,
  MAX_NOT_DONE,
  notDoneRecord,
  numberViews,
  type PagePlan,
  planPage,
  type ViewFilter,
  viewOf,
} from '../../../lib/campaigns/campaign-views.js';

interface Model {
  id: string;
  campaignType: CampaignType;
  isReferralCode: boolean;
  creationStatus: CampaignStatus;
  sequence: number;
}

const campaign = (i: number, campaignType: CampaignType, isReferralCode: boolean, creationStatus: CampaignStatus): Model => ({
  id: `camp_${i}`,
  campaignType,
  isReferralCode,
  creationStatus,
  sequence: i + 1,
});

/** What the stored layout would hold for these campaigns: each view's entries by number, and the counter. */
function store(campaigns: Model[]) {
  const numbering = numberViews(campaigns);
  const entries = new Map<string, Map<number, string>>([[ALL_VIEW, new Map(campaigns.map((c) => [c.sequence, c.id]))]]);
  campaigns.forEach((c, i) => {
    campaignViews(c.campaignType, c.isReferralCode).forEach((view, v) => {
      if (!entries.has(view)) entries.set(view, new Map());
      entries.get(view)?.set(numbering.numbers[i]?.[v] as number, c.id);
    });
  });
  return { numbering, entries, count: campaigns.length };
}

/** Reads a plan as the repo does: each range in the page's direction, ids as they are. */
function read(stored: ReturnType<typeof store>, view: string, plan: PagePlan, descending: boolean): string[] {
  return plan.reads.flatMap((r) => {
    if (r.kind === 'ids') return r.ids;
    const ids: string[] = [];
    for (let n = r.from; n <= r.to; n += 1) {
      const id = stored.entries.get(view)?.get(n);
      if (id) ids.push(id);
    }
    return descending ? ids.reverse() : ids;
  });
}

/** The answer by brute force: filter, order by creation, slice. */
function expected(campaigns: Model[], filter: ViewFilter, descending: boolean, offset: number, limit: number) {
  const matching = campaigns.filter(
    (c) =>
      (filter.campaignType === undefined || c.campaignType === filter.campaignType) &&
      (filter.isReferralCode === undefined || c.isReferralCode === filter.isReferralCode) &&
      (filter.status === undefined || c.creationStatus === filter.status),
  );
  const ordered = descending ? [...matching].reverse() : matching;
  return { total: matching.length, ids: ordered.slice(offset, offset + limit).map((c) => c.id) };
}

function plan(campaigns: Model[], filter: ViewFilter, descending: boolean, offset: number, limit: number) {
  const stored = store(campaigns);
  const view = viewOf(filter);
  const viewSize = view.name === ALL_VIEW ? stored.count : (stored.numbering.views[view.name] ?? 0);
  const p = planPage({ filter, viewSize, notDone: stored.numbering.notDone ?? {}, descending, offset, limit });
  return { plan: p, ids: read(stored, view.name, p, descending) };
}

const arbModel = fc
  .array(
    fc.record({
      campaignType: fc.constantFrom(...CAMPAIGN_TYPES),
      isReferralCode: fc.boolean(),
      // Mostly DONE, as in a real project; the rest spread over the other statuses.
      creationStatus: fc.oneof({ weight: 3, arbitrary: fc.constant<CampaignStatus>('DONE') }, { weight: 2, arbitrary: fc.constantFrom(...CAMPAIGN_STATUSES) }),
    }),
    { maxLength: 60 },
  )
  .map((list) => list.map((c, i) => campaign(i, c.campaignType, c.isReferralCode, c.creationStatus)));

const arbFilter: fc.Arbitrary<ViewFilter> = fc.record(
  {
    campaignType: fc.constantFrom(...CAMPAIGN_TYPES),
    isReferralCode: fc.boolean(),
    status: fc.constantFrom(...CAMPAIGN_STATUSES),
  },
  { requiredKeys: [] },
);

describe('campaign views: numbering', () => {
  it('numbers each campaign 1, 2, 3, … in creation order in its type, flag and type-and-flag views', () => {
    const campaigns = [
      campaign(0, 'GIFT_VOUCHERS', false, 'DONE'),
      campaign(1, 'REFERRAL_PROGRAM', true, 'IN_PROGRESS'),
      campaign(2, 'GIFT_VOUCHERS', false, 'FAILED'),
      campaign(3, 'REFERRAL_PROGRAM', false, 'DONE'),
    ];
    const numbering = numberViews(campaigns);
    expect(numbering.numbers).toEqual([
      [1, 1, 1],
      [1, 1, 1],
      [2, 2, 2],
      [2, 3, 1],
    ]);
    expect(numbering.views).toEqual({
      'TYPE#GIFT_VOUCHERS': 2,
      'REF#false': 3,
      'TYPE#GIFT_VOUCHERS#REF#false': 2,
      'TYPE#REFERRAL_PROGRAM': 2,
      'REF#true': 1,
      'TYPE#REFERRAL_PROGRAM#REF#true': 1,
      'TYPE#REFERRAL_PROGRAM#REF#false': 1,
    });
    expect(numbering.notDone).toEqual({
      camp_1: { s: 'IN_PROGRESS', t: 'REFERRAL_PROGRAM', r: true, n: [2, 1, 1, 1] },
      camp_2: { s: 'FAILED', t: 'GIFT_VOUCHERS', r: false, n: [3, 2, 2, 2] },
    });
  });

  it(`gives up the not-DONE set beyond ${MAX_NOT_DONE} campaigns`, () => {
    const many = Array.from({ length: MAX_NOT_DONE + 1 }, (_, i) => campaign(i, 'DISCOUNT_COUPONS', false, 'FAILED'));
    expect(numberViews(many).notDone).toBeNull();
    expect(Object.keys(numberViews(many.slice(1)).notDone ?? {})).toHaveLength(MAX_NOT_DONE);
  });

  it('reads the most specific view a filter names', () => {
    expect(viewOf({})).toEqual({ name: 'ALL', at: 0 });
    expect(viewOf({ status: 'DONE' })).toEqual({ name: 'ALL', at: 0 });
    expect(viewOf({ campaignType: 'PROMOTION' })).toEqual({ name: 'TYPE#PROMOTION', at: 1 });
    expect(viewOf({ isReferralCode: false })).toEqual({ name: 'REF#false', at: 2 });
    expect(viewOf({ campaignType: 'PROMOTION', isReferralCode: true, status: 'FAILED' })).toEqual({ name: 'TYPE#PROMOTION#REF#true', at: 3 });
  });
});

describe('campaign views: page plans', () => {
  it('plans an unfiltered page as one range of creation numbers, newest first', () => {
    const campaigns = Array.from({ length: 250 }, (_, i) => campaign(i, 'DISCOUNT_COUPONS', false, 'DONE'));
    expect(plan(campaigns, {}, true, 100, 100).plan).toEqual({ total: 250, reads: [{ kind: 'range', from: 51, to: 150 }] });
    expect(plan(campaigns, {}, false, 200, 100).plan).toEqual({ total: 250, reads: [{ kind: 'range', from: 201, to: 250 }] });
    expect(plan(campaigns, {}, false, 300, 100).plan).toEqual({ total: 250, reads: [] });
  });

  it('reads DONE pages around the campaigns that are not DONE, and nothing else', () => {
    const statuses: CampaignStatus[] = ['DONE', 'FAILED', 'DONE', 'DONE', 'IN_PROGRESS', 'FAILED', 'DONE', 'DONE'];
    const campaigns = statuses.map((s, i) => campaign(i, 'GIFT_VOUCHERS', false, s));
    const done = plan(campaigns, { campaignType: 'GIFT_VOUCHERS', status: 'DONE' }, false, 1, 3);
    expect(done.plan).toEqual({
      total: 5,
      reads: [
        { kind: 'range', from: 3, to: 4 },
        { kind: 'range', from: 7, to: 7 },
      ],
    });
    expect(done.ids).toEqual(['camp_2', 'camp_3', 'camp_6']);
    const newest = plan(campaigns, { status: 'DONE' }, true, 0, 4);
    expect(newest.plan.reads).toEqual([
      { kind: 'range', from: 7, to: 8 },
      { kind: 'range', from: 3, to: 4 },
    ]);
    expect(newest.ids).toEqual(['camp_7', 'camp_6', 'camp_3', 'camp_2']);
  });

  it('answers other statuses from the not-DONE set alone, with no range to read', () => {
    const campaigns = ['FAILED', 'DONE', 'FAILED', 'IN_PROGRESS', 'FAILED'].map((s, i) => campaign(i, 'LOYALTY_PROGRAM', false, s as CampaignStatus));
    expect(plan(campaigns, { status: 'FAILED' }, true, 1, 10).plan).toEqual({ total: 3, reads: [{ kind: 'ids', ids: ['camp_2', 'camp_0'] }] });
    expect(plan(campaigns, { status: 'DRAFT' }, true, 0, 10).plan).toEqual({ total: 0, reads: [] });
  });

  it('pages every filter combination in either order exactly as filtering all campaigns would', () => {
    fc.assert(
      fc.property(arbModel, arbFilter, fc.boolean(), fc.nat({ max: 70 }), fc.integer({ min: 1, max: 100 }), (campaigns, filter, descending, offset, limit) => {
        const got = plan(campaigns, filter, descending, offset, limit);
        const want = expected(campaigns, filter, descending, offset, limit);
        expect(got.plan.total).toBe(want.total);
        expect(got.ids).toEqual(want.ids);
      }),
      { numRuns: 3000 },
    );
  });

  it('never reads a number outside the page: ranges hold exactly the page, and a range never spans a not-DONE campaign', () => {
    fc.assert(
      fc.property(arbModel, arbFilter, fc.boolean(), fc.nat({ max: 70 }), fc.integer({ min: 1, max: 100 }), (campaigns, filter, descending, offset, limit) => {
        const got = plan(campaigns, filter, descending, offset, limit);
        const width = got.plan.reads.reduce((n, r) => n + (r.kind === 'range' ? r.to - r.from + 1 : r.ids.length), 0);
        expect(width).toBe(got.ids.length);
        expect(width).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('campaign views: page plans after deletions', () => {
  /** Numbers the campaigns as created, then deletes some as delete-campaign does: entries gone, a DELETED record each. */
  function planWithDeleted(campaigns: Model[], deleted: ReadonlySet<number>, filter: ViewFilter, descending: boolean, offset: number, limit: number) {
    const stored = store(campaigns);
    const notDone = { ...(stored.numbering.notDone ?? {}) };
    campaigns.forEach((c, i) => {
      if (!deleted.has(i)) return;
      for (const entries of stored.entries.values()) for (const [n, id] of entries) if (id === c.id) entries.delete(n);
      notDone[c.id] = notDoneRecord(DELETED, c.campaignType, c.isReferralCode, c.sequence, stored.numbering.numbers[i] as [number, number, number]);
    });
    const view = viewOf(filter);
    const viewSize = view.name === ALL_VIEW ? stored.count : (stored.numbering.views[view.name] ?? 0);
    const p = planPage({ filter, viewSize, notDone, descending, offset, limit });
    return { plan: p, ids: read(stored, view.name, p, descending) };
  }

  it('skips deleted campaigns under every filter combination, in either order, reading no number beyond the page', () => {
    fc.assert(
      fc.property(
        arbModel,
        fc.uniqueArray(fc.nat({ max: 59 }), { maxLength: 30 }),
        arbFilter,
        fc.boolean(),
        fc.nat({ max: 70 }),
        fc.integer({ min: 1, max: 100 }),
        (campaigns, gone, filter, descending, offset, limit) => {
          const deleted = new Set(gone.filter((i) => i < campaigns.length));
          const got = planWithDeleted(campaigns, deleted, filter, descending, offset, limit);
          const want = expected(
            campaigns.filter((_, i) => !deleted.has(i)),
            filter,
            descending,
            offset,
            limit,
          );
          expect(got.plan.total).toBe(want.total);
          expect(got.ids).toEqual(want.ids);
          const width = got.plan.reads.reduce((n, r) => n + (r.kind === 'range' ? r.to - r.from + 1 : r.ids.length), 0);
          expect(width).toBe(got.ids.length);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
