import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 7, 3, 9, 0, 0);
type Json = Record<string, unknown>;
type Event = { id: string; type: string; created_at: string; data: { data: Json; event_source: Json } };

/**
 * `ann` is created, joins the VIP segment by an update, is given the loyalty card CARD-1 and the
 * code D-1, gets 40 points on the card, redeems D-1 and rolls it back: one second apart each.
 */
async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const ok = async (id: string, opts: Parameters<typeof api.call>[1]) => {
    clock.advance(1000);
    const reply = await api.call(id, opts);
    if (reply.status >= 300) throw new Error(`${id}: ${reply.status} ${JSON.stringify(reply.json)}`);
    return reply.json as Json;
  };
  const campaigns = campaignApi(runtime, pair);
  await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Discounts'));
  const club = (await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Club'))) as unknown as { id: string };
  for (const [campaign, code] of [
    ['Discounts', 'D-1'],
    ['Club', 'CARD-1'],
  ] as const) {
    expect((await campaigns.addVoucher(campaign, { code })).status).toBe(200);
  }
  const segment = await ok('create-segment', {
    json: { name: 'VIP', type: 'auto-update', filter: { junction: 'and', 'metadata.tier': { conditions: { $is: 'vip' } } } },
  });
  const ann = await ok('create-customer', { json: { source_id: 'ann', name: 'Ann' } });
  await ok('update-customer', { params: { customerId: 'ann' }, json: { metadata: { tier: 'vip' } } });
  await ok('create-publication', { json: { customer: { source_id: 'ann' }, voucher: 'CARD-1' } });
  await ok('create-publication', { json: { customer: { source_id: 'ann' }, voucher: 'D-1' } });
  await ok('update-loyalty-card-balance', { params: { memberId: 'CARD-1' }, json: { points: 40, reason: 'welcome' } });
  const redeemed = await ok('redeem-stacked-discounts', {
    json: { redeemables: [{ object: 'voucher', id: 'D-1' }], order: { amount: 1000 }, customer: { source_id: 'ann' } },
  });
  const child = (redeemed.redemptions as { id: string }[])[0]?.id as string;
  await ok('rollback-redemption', { params: { redemptionId: child } });
  const list = async (query = '', customerId = 'ann') => {
    const reply = await api.call('list-customer-activity', { params: { customerId }, query });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    return reply.json as { data: Event[]; has_more: boolean; more_starting_after?: string };
  };
  return { api, list, ann, segment, club, child, clock };
}

const ALL_NEWEST_FIRST = [
  'customer.redemption.rollback.succeeded',
  'customer.redemption.succeeded',
  'customer.voucher.loyalty_card.points_added',
  'customer.publication.succeeded',
  'customer.publication.succeeded',
  'customer.segment.entered',
  'customer.updated',
  'customer.created',
];

describe('GET /v1/customers/{customerId}/activity', () => {
  it('lists what happened to the customer newest first, with the reference type names and the data of each', async () => {
    const { list, ann, segment, child } = await setup();
    const page = await list();
    expect(page.data.map((e) => e.type)).toEqual(ALL_NEWEST_FIRST);
    expect(page.has_more).toBe(false);
    expect(page.more_starting_after).toBeUndefined();
    const byType = (t: string) => page.data.find((e) => e.type === t) as Event;
    expect(byType('customer.created').data.data.customer).toMatchObject({ id: ann.id, source_id: 'ann', name: 'Ann' });
    expect(byType('customer.updated').data.data.customer).toMatchObject({ metadata: { tier: 'vip' } });
    expect(byType('customer.segment.entered').data.data.segment).toEqual({ id: segment.id, name: 'VIP', object: 'segment' });
    expect(byType('customer.redemption.succeeded').data.data.redemption).toMatchObject({ id: child, result: 'SUCCESS' });
    expect(byType('customer.voucher.loyalty_card.points_added').data.data).toMatchObject({
      voucher: { code: 'CARD-1' },
      transaction: { type: 'POINTS_ADDITION' },
    });
    expect(page.data.every((e) => e.id.startsWith('evcus_') && e.data.event_source.channel === 'API')).toBe(true);
    // Each event shows its own moment: one second apart, newest first.
    const times = page.data.map((e) => Date.parse(e.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('pages with limit and starting_after_id in both orders, each page continuing where the last ended', async () => {
    const { list } = await setup();
    for (const order of ['-created_at', 'created_at']) {
      const seen: string[] = [];
      let after = '';
      for (let round = 0; round < 10; round++) {
        const page = await list(`order=${order}&limit=3${after ? `&starting_after_id=${after}` : ''}`);
        seen.push(...page.data.map((e) => e.type));
        if (!page.has_more) break;
        after = page.more_starting_after as string;
      }
      expect(seen).toEqual(order === '-created_at' ? ALL_NEWEST_FIRST : [...ALL_NEWEST_FIRST].reverse());
    }
  });

  it('filters by campaign, campaign type, category, type and creation time', async () => {
    const { list, club } = await setup();
    const types = async (q: string) => (await list(q)).data.map((e) => e.type);
    expect(await types('campaign_type=LOYALTY_PROGRAM')).toEqual(['customer.voucher.loyalty_card.points_added', 'customer.publication.succeeded']);
    expect(await types(`campaign_id=${club.id}`)).toEqual(['customer.voucher.loyalty_card.points_added', 'customer.publication.succeeded']);
    expect(await types('campaign_type=DISCOUNT_COUPONS')).toEqual(ALL_NEWEST_FIRST.slice(0, 2).concat('customer.publication.succeeded'));
    expect(await types('category=EFFECT')).toEqual(['customer.voucher.loyalty_card.points_added', 'customer.segment.entered']);
    expect(await types('type=customer.created')).toEqual(['customer.created']);
    expect(await types('type=customer.sms.sent')).toEqual([]);
    // The created customer is the 2nd step after the set-up's start (one second each), the update the 3rd.
    const second = new Date(at + 2000).toISOString();
    const third = new Date(at + 3000).toISOString();
    expect(await types(`start_date=${second}&end_date=${third}`)).toEqual(['customer.segment.entered', 'customer.updated', 'customer.created']);
    // Crossed bounds, or a cursor beyond them, hold no moment: an empty page, not an error.
    expect(await types(`start_date=${third}&end_date=${second}`)).toEqual([]);
    const oldest = (await list('order=created_at&limit=1')).more_starting_after as string;
    expect(await types(`start_date=${third}&starting_after_id=${oldest}`)).toEqual([]);
  });

  it('answers 404 for an unknown customer and 400 for a cursor that is no event id', async () => {
    const { api } = await setup();
    const missing = await api.call('list-customer-activity', { params: { customerId: 'nobody' } });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ key: 'not_found', resource_type: 'customer', resource_id: 'nobody' });
    const bad = await api.call('list-customer-activity', { params: { customerId: 'ann' }, query: 'starting_after_id=r_123' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ key: 'invalid_query_params' });
  });
});

describe('GET /v1/customers/{customerId}/activities', () => {
  it("lists the same activity with the page's total, and continues before a starting_after date", async () => {
    const { api } = await setup();
    const all = await api.call('list-customer-activities', { params: { customerId: 'ann' } });
    expect(all.status).toBe(200);
    expect((all.json.data as Event[]).map((e) => e.type)).toEqual(ALL_NEWEST_FIRST);
    expect(all.json.total).toBe(ALL_NEWEST_FIRST.length);
    const created = (all.json.data as Event[]).find((e) => e.type === 'customer.segment.entered') as Event;
    const before = await api.call('list-customer-activities', { params: { customerId: 'ann' }, query: `starting_after=${created.created_at}` });
    expect((before.json.data as Event[]).map((e) => e.type)).toEqual(['customer.created']);
    const refused = await api.call('list-customer-activities', { params: { customerId: 'ann' }, query: 'product_id=prod_1' });
    expect(refused.status).toBe(400);
  });
});

describe('customer activity records under concurrent writes', () => {
  it('records one customer.updated per committed change: 10 parallel updates of one customer give 10 events, one per name', async () => {
    const runtime = testRuntime({ clock: new ManualClock(at) });
    const pair = await newProject(runtime);
    const api = apiClient({ runtime }, keyPairHeaders(pair));
    expect((await api.call('create-customer', { json: { source_id: 'racer' } })).status).toBe(200);
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api.call('update-customer', { params: { customerId: 'racer' }, json: { name: `Name ${i}` } })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const page = await api.call('list-customer-activity', { params: { customerId: 'racer' }, query: 'limit=100' });
    const types = (page.json.data as Event[]).map((e) => e.type);
    expect(types.filter((t) => t === 'customer.updated')).toHaveLength(10);
    expect(types.filter((t) => t === 'customer.created')).toHaveLength(1);
    // Each record holds the customer as its own write left it: every name once (all share one moment of the fixed clock).
    const names = (page.json.data as Event[]).filter((e) => e.type === 'customer.updated').map((e) => (e.data.data.customer as Json).name);
    expect(new Set(names)).toEqual(new Set(Array.from({ length: 10 }, (_, i) => `Name ${i}`)));
    const got = await api.call('get-customer', { params: { customerId: 'racer' } });
    expect(names).toContain(got.json.name);
  });
});

describe('segment creation in the customer activity', () => {
  it('records customer.segment.entered for the customers a new static or auto-update segment takes in, and nothing else', async () => {
    const clock = new ManualClock(at);
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const api = apiClient({ runtime }, keyPairHeaders(pair));
    expect((await api.call('create-customer', { json: { source_id: 'early', metadata: { tier: 'vip' } } })).status).toBe(200);
    clock.advance(1000);
    const vip = await api.call('create-segment', {
      json: { name: 'VIP', type: 'auto-update', filter: { junction: 'and', 'metadata.tier': { conditions: { $is: 'vip' } } } },
    });
    clock.advance(1000);
    const friends = await api.call('create-segment', { json: { name: 'Friends', type: 'static', customers: ['early'] } });
    const page = await api.call('list-customer-activity', { params: { customerId: 'early' } });
    expect((page.json.data as Event[]).map((e) => [e.type, (e.data.data.segment as Json | undefined)?.name ?? null])).toEqual([
      ['customer.segment.entered', 'Friends'],
      ['customer.segment.entered', 'VIP'],
      ['customer.created', null],
    ]);
    expect([vip.status, friends.status]).toEqual([200, 200]);
  });
});
