import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 6, 1, 9, 0, 0);

type Redeemable = {
  id: string;
  holder_role: string;
  campaign_type: string | null;
  voucher_type: string;
  redeemable: { voucher: { code: string }; status: string };
};

/**
 * `rita` holds the discount code D-1, the loyalty card CARD-1, the referral code REF-1 (as its
 * referrer) and the disabled code D-2, and is a referee of `sam`'s referral code REF-2.
 */
async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Discounts'));
  await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Club'));
  await newCampaign(campaigns, campaignBodies.REFERRAL_PROGRAM('Friends'));
  const publish = async (customer: string, code: string) => {
    clock.advance(1000);
    const reply = await api.call('create-publication', { json: { customer: { source_id: customer }, voucher: code } });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  };
  for (const [campaign, code] of [
    ['Discounts', 'D-1'],
    ['Discounts', 'D-2'],
    ['Club', 'CARD-1'],
    ['Friends', 'REF-1'],
    ['Friends', 'REF-2'],
  ] as const) {
    clock.advance(1000);
    expect((await campaigns.addVoucher(campaign, { code })).status).toBe(200);
  }
  for (const code of ['D-1', 'CARD-1', 'REF-1', 'D-2']) await publish('rita', code);
  await publish('sam', 'REF-2');
  expect((await api.call('disable-voucher', { params: { code: 'D-2' } })).status).toBe(200);
  clock.advance(1000);
  expect((await api.call('referrals-add-holders', { params: { memberId: 'REF-2' }, json: { holders: [{ source_id: 'rita' }] } })).status).toBe(200);
  return { api, clock };
}

describe('GET /v1/customers/{customerId}/redeemables', () => {
  it('lists every voucher and card the customer holds, in any role, held vouchers by creation and referee codes by when they were added, each with its status', async () => {
    const { api } = await setup();
    const reply = await api.call('list-customer-redeemables', { params: { customerId: 'rita' } });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    const data = reply.json.data as Redeemable[];
    expect(data.map((r) => [r.redeemable.voucher.code, r.holder_role, r.campaign_type, r.voucher_type, r.redeemable.status])).toEqual([
      ['D-1', 'OWNER', 'DISCOUNT_COUPONS', 'DISCOUNT_VOUCHER', 'ACTIVE'],
      ['D-2', 'OWNER', 'DISCOUNT_COUPONS', 'DISCOUNT_VOUCHER', 'DISABLED'],
      ['CARD-1', 'OWNER', 'LOYALTY_PROGRAM', 'LOYALTY_CARD', expect.any(String)],
      ['REF-1', 'REFERRER', 'REFERRAL_PROGRAM', 'DISCOUNT_VOUCHER', 'ACTIVE'],
      ['REF-2', 'REFEREE', 'REFERRAL_PROGRAM', 'DISCOUNT_VOUCHER', 'ACTIVE'],
    ]);
    expect(reply.json.total).toBe(5);
    expect(reply.json.has_more).toBe(false);
  });

  it('pages with limit and starting_after_id in either order, and filters by role', async () => {
    const { api } = await setup();
    const all = ((await api.call('list-customer-redeemables', { params: { customerId: 'rita' }, query: 'order=-id' })).json.data as Redeemable[]).map(
      (r) => r.id,
    );
    const seen: string[] = [];
    let after = '';
    for (let round = 0; round < 5; round++) {
      const page = await api.call('list-customer-redeemables', {
        params: { customerId: 'rita' },
        query: `order=-id&limit=2${after ? `&starting_after_id=${after}` : ''}`,
      });
      seen.push(...(page.json.data as Redeemable[]).map((r) => r.id));
      if (!page.json.has_more) break;
      after = page.json.more_starting_after as string;
    }
    expect(seen).toEqual(all);
    expect(all).toEqual([...all].sort().reverse());
    const referrals = await api.call('list-customer-redeemables', {
      params: { customerId: 'rita' },
      query: 'filters[campaign_type][conditions][$is]=REFERRAL_PROGRAM&filters[holder_role][conditions][$in][0]=REFEREE',
    });
    expect((referrals.json.data as Redeemable[]).map((r) => r.redeemable.voucher.code)).toEqual(['REF-2']);
  });

  it('answers 404 for an unknown customer and an empty list for a customer holding nothing', async () => {
    const { api } = await setup();
    const unknown = await api.call('list-customer-redeemables', { params: { customerId: 'nobody' } });
    expect([unknown.status, unknown.json.resource_type]).toEqual([404, 'customer']);
    expect((await api.call('create-customer', { json: { source_id: 'idle' } })).status).toBe(200);
    const idle = await api.call('list-customer-redeemables', { params: { customerId: 'idle' } });
    expect([idle.status, idle.json.total, idle.json.data]).toEqual([200, 0, []]);
  });
});
