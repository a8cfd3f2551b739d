import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { getCustomerIdBySourceId } from '../../../lib/customers/customer.repo.js';
import { listConversionsOfCode } from '../../../lib/referrals/referral.repo.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 6, 1, 9, 0, 0);

/** A referral program `Friends` (converting on `user_subscribed`), its code REF-1 published to `rita`, and REF-2 never published. */
async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  const events = eventApi(runtime, pair);
  expect((await events.createSchema(schemaBody('user_subscribed'))).status).toBe(200);
  const friends = await newCampaign(campaigns, {
    ...campaignBodies.REFERRAL_PROGRAM('Friends'),
    referral_program: { conversion_event_type: 'custom_event', custom_event: { name: 'user_subscribed' } },
  });
  for (const code of ['REF-1', 'REF-2']) expect((await campaigns.addVoucher('Friends', { code })).status).toBe(200);
  const published = await api.call('create-publication', { json: { customer: { source_id: 'rita' }, voucher: 'REF-1' } });
  expect(published.status, JSON.stringify(published.json)).toBe(200);
  const idOf = async (sourceId: string) => (await getCustomerIdBySourceId(runtime, pair.project_id, sourceId)) ?? '';
  return { runtime, pair, api, clock, events, friends, idOf };
}

type Holder = { id: string; customer_id: string; holder_role: string; metadata?: unknown; campaign_type: string; redeemable_id: string };

describe('referral code holders', () => {
  it('adds customers as referees (upserting them), lists them after the referrer in id order, and pages with starting_after_id', async () => {
    const { api, friends, idOf, clock } = await setup();
    const added = await api.call('referrals-add-holders', {
      params: { memberId: 'REF-1' },
      json: { holders: [{ source_id: 'ann', name: 'Ann' }, { source_id: 'bob' }], metadata: { influencer: true } },
    });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    const holders = added.json.holders as Holder[];
    expect(holders.map((h) => [h.customer_id, h.holder_role, h.metadata, h.campaign_type])).toEqual([
      [await idOf('ann'), 'REFEREE', { influencer: true }, 'REFERRAL_PROGRAM'],
      [await idOf('bob'), 'REFEREE', { influencer: true }, 'REFERRAL_PROGRAM'],
    ]);
    expect(holders[0]?.id).toMatch(/^rh_[0-9a-f]{18}$/);
    clock.advance(1000);
    expect(
      (await api.call('referrals-add-holders-1', { params: { campaignId: 'Friends', memberId: 'REF-1' }, json: { holders: [{ source_id: 'cy' }] } })).status,
    ).toBe(200);

    const all = await api.call('referrals-code-holders', { params: { campaignId: friends.id as string, memberId: 'REF-1' } });
    expect(all.status).toBe(200);
    const listed = all.json.data as Holder[];
    expect(listed.map((h) => h.holder_role)).toEqual(['REFERRER', 'REFEREE', 'REFEREE', 'REFEREE']);
    expect(listed[0]?.customer_id).toBe(await idOf('rita'));
    expect(listed.at(-1)?.customer_id).toBe(await idOf('cy'));
    expect(all.json.total).toBe(4);
    expect(listed.map((h) => h.id)).toEqual([...listed.map((h) => h.id)].sort());

    const first = await api.call('referrals-code-holders-1', { params: { memberId: 'REF-1' }, query: 'limit=2' });
    expect(first.json.has_more).toBe(true);
    const next = await api.call('referrals-code-holders-1', {
      params: { memberId: 'REF-1' },
      query: `limit=2&starting_after_id=${first.json.more_starting_after}`,
    });
    expect([...(first.json.data as Holder[]), ...(next.json.data as Holder[])].map((h) => h.id)).toEqual(listed.map((h) => h.id));
    expect(next.json.has_more).toBe(false);

    const referees = await api.call('referrals-code-holders-1', {
      params: { memberId: 'REF-1' },
      query: 'order=-id&filters[holder_role][conditions][$is]=REFEREE',
    });
    const refereeIds = (referees.json.data as Holder[]).map((h) => h.customer_id);
    expect(refereeIds[0]).toBe(await idOf('cy'));
    expect(refereeIds.slice(1).sort()).toEqual([await idOf('ann'), await idOf('bob')].sort());
    expect(referees.json.total).toBe(3);
  });

  it('refuses an unpublished code, a non-referral code, the referrer, a customer already a referee and one named twice, writing nothing', async () => {
    const { api, runtime, pair, idOf } = await setup();
    const notPublished = await api.call('referrals-add-holders', { params: { memberId: 'REF-2' }, json: { holders: [{ source_id: 'ann' }] } });
    expect([notPublished.status, notPublished.json.key]).toEqual([400, 'not_published']);
    const campaigns = campaignApi(runtime, pair);
    await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Plain'));
    expect((await campaigns.addVoucher('Plain', { code: 'PLAIN-1' })).status).toBe(200);
    const plain = await api.call('referrals-add-holders', { params: { memberId: 'PLAIN-1' }, json: { holders: [{ source_id: 'ann' }] } });
    expect([plain.status, plain.json.key]).toEqual([400, 'invalid_voucher']);
    const referrer = await api.call('referrals-add-holders', {
      params: { memberId: 'REF-1' },
      json: { holders: [{ source_id: 'new-1' }, { source_id: 'rita' }] },
    });
    expect([referrer.status, referrer.json.key]).toEqual([409, 'holder_assignement_duplication']);
    const twice = await api.call('referrals-add-holders', {
      params: { memberId: 'REF-1' },
      json: { holders: [{ source_id: 'new-2' }, { source_id: 'new-2' }] },
    });
    expect([twice.status, twice.json.key]).toEqual([409, 'duplicate_found']);
    expect(await idOf('new-1')).toBe('');
    expect(await idOf('new-2')).toBe('');
    expect((await api.call('referrals-add-holders', { params: { memberId: 'REF-1' }, json: { holders: [{ source_id: 'ann' }] } })).status).toBe(200);
    const again = await api.call('referrals-add-holders', { params: { memberId: 'REF-1' }, json: { holders: [{ id: await idOf('ann') }] } });
    expect([again.status, again.json.key]).toEqual([409, 'holder_assignement_duplication']);
    const wrongCampaign = await api.call('referrals-add-holders-1', {
      params: { campaignId: 'Plain', memberId: 'REF-1' },
      json: { holders: [{ source_id: 'x' }] },
    });
    expect([wrongCampaign.status, wrongCampaign.json.resource_type]).toEqual([404, 'voucher']);
    const noCampaign = await api.call('referrals-code-holders', { params: { campaignId: 'Nope', memberId: 'REF-1' } });
    expect([noCampaign.status, noCampaign.json.resource_type]).toEqual([404, 'campaign']);
    const filteredByDate = await api.call('referrals-code-holders-1', {
      params: { memberId: 'REF-1' },
      query: 'filters[created_at][conditions][$after]=2026-01-01',
    });
    expect(filteredByDate.status).toBe(400);
  });

  it('lets one of two concurrent requests adding the same customer win', async () => {
    const { api } = await setup();
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => api.call('referrals-add-holders', { params: { memberId: 'REF-1' }, json: { holders: [{ source_id: 'racer' }] } })),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409).map((r) => r.json.key)).toEqual(Array(3).fill('holder_assignement_duplication'));
    const listed = await api.call('referrals-code-holders-1', { params: { memberId: 'REF-1' } });
    expect(listed.json.total).toBe(2);
  });

  it('removes a referee, refuses to remove the referrer, and answers 404 for an unknown holder', async () => {
    const { api } = await setup();
    const added = await api.call('referrals-add-holders', { params: { memberId: 'REF-1' }, json: { holders: [{ source_id: 'ann' }] } });
    const [ann] = added.json.holders as Holder[];
    const listed = (await api.call('referrals-code-holders-1', { params: { memberId: 'REF-1' } })).json.data as Holder[];
    const referrer = listed.find((h) => h.holder_role === 'REFERRER');
    const forbidden = await api.call('referrals-remove-holder', { params: { memberId: 'REF-1', holderId: referrer?.id ?? '' } });
    expect([forbidden.status, forbidden.json.key]).toEqual([403, 'forbidden']);
    expect((await api.call('referrals-remove-holder-1', { params: { campaignId: 'Friends', memberId: 'REF-1', holderId: ann?.id ?? '' } })).status).toBe(204);
    const gone = await api.call('referrals-remove-holder', { params: { memberId: 'REF-1', holderId: ann?.id ?? '' } });
    expect([gone.status, gone.json.resource_type]).toEqual([404, 'redeemable_holder']);
    const after = (await api.call('referrals-code-holders-1', { params: { memberId: 'REF-1' } })).json.data as Holder[];
    expect(after.map((h) => h.holder_role)).toEqual(['REFERRER']);
  });

  it("credits the code's referrer when a referee converts it, and refuses a referee named as the referrer", async () => {
    const { api, events, runtime, pair, friends, idOf } = await setup();
    expect((await api.call('referrals-add-holders', { params: { memberId: 'REF-1' }, json: { holders: [{ source_id: 'ann' }] } })).status).toBe(200);
    const converted = await events.trackEvent({ event: 'user_subscribed', customer: { source_id: 'ann' }, referral: { code: 'REF-1' } });
    expect(converted.status, JSON.stringify(converted.json)).toBe(200);
    const conversions = await listConversionsOfCode(runtime, pair.project_id, friends.id as string, 'REF-1');
    expect(conversions.map((c) => [c.referrerId, c.refereeId])).toEqual([[await idOf('rita'), await idOf('ann')]]);
    const wrongReferrer = await events.trackEvent({
      event: 'user_subscribed',
      customer: { source_id: 'zed' },
      referral: { code: 'REF-1', referrer_id: 'ann' },
    });
    expect([wrongReferrer.status, wrongReferrer.json.key]).toEqual([400, 'invalid_customer']);
  });
});
