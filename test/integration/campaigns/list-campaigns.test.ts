import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { campaignApi, campaignBodies, type CampaignApi, newCampaign } from '../../support/api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

async function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  return { clock, runtime, pair, api: campaignApi(runtime, pair) };
}

/** Creates discount campaigns C00..C(n-1), one minute apart. */
async function seed(api: CampaignApi, clock: ManualClock, n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    clock.advance(60_000);
    await newCampaign(api, campaignBodies.DISCOUNT_COUPONS(`C${String(i).padStart(2, '0')}`));
  }
}

const names = (reply: { json: Record<string, unknown> }): string[] => (reply.json.campaigns as { name: string }[]).map((c) => c.name);

describe('GET /v1/campaigns', () => {
  it('answers an empty list for a project without campaigns', async () => {
    const { api } = await setup();
    const reply = await api.listCampaigns();
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ object: 'list', data_ref: 'campaigns', campaigns: [], total: 0 });
  });

  it('pages newest first, 10 by default, with total counting every campaign and an empty page past the end', async () => {
    const { api, clock } = await setup();
    await seed(api, clock, 12);
    const first = await api.listCampaigns();
    expect(first.json.total).toBe(12);
    expect(names(first)).toEqual(['C11', 'C10', 'C09', 'C08', 'C07', 'C06', 'C05', 'C04', 'C03', 'C02']);
    expect(names(await api.listCampaigns('page=2'))).toEqual(['C01', 'C00']);
    const past = await api.listCampaigns('page=3');
    expect(past.json).toMatchObject({ campaigns: [], total: 12 });
    expect(names(await api.listCampaigns('order=created_at&limit=3&page=2'))).toEqual(['C03', 'C04', 'C05']);
    expect(names(await api.listCampaigns('order=-updated_at&limit=2'))).toEqual(['C11', 'C10']);
    expect(names(await api.listCampaigns('order=updated_at&limit=2'))).toEqual(['C00', 'C01']);
  });

  it('returns full campaign objects, as GET /v1/campaigns/{id} does', async () => {
    const { api } = await setup();
    const created = await newCampaign(api, { ...campaignBodies.PROMOTION('Promo'), category: 'Deals' });
    const reply = await api.listCampaigns('expand=category');
    expect(reply.json.campaigns).toEqual([created]);
    const withAccess = await api.listCampaigns('expand=category,access_settings_assignments');
    expect((withAccess.json.campaigns as Record<string, unknown>[])[0]?.access_settings_assignments).toEqual({
      object: 'list',
      data_ref: 'data',
      data: [],
      total: 0,
    });
  });

  it('filters by campaign_type, campaign_status and is_referral_code', async () => {
    const { api } = await setup();
    for (const type of ['DISCOUNT_COUPONS', 'GIFT_VOUCHERS', 'LOYALTY_PROGRAM', 'REFERRAL_PROGRAM', 'PROMOTION'] as const) {
      await newCampaign(api, campaignBodies[type](type));
    }
    const voucher = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 1 }, code_config: { pattern: 'Z#', charset: 'a' } };
    await newCampaign(api, { ...campaignBodies.DISCOUNT_COUPONS('Full'), vouchers_count: 1, voucher });
    expect((await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Failed'), vouchers_count: 1, voucher })).status).toBe(400);

    expect(names(await api.listCampaigns('campaign_type=GIFT_VOUCHERS'))).toEqual(['GIFT_VOUCHERS']);
    expect(names(await api.listCampaigns('campaign_status=FAILED'))).toEqual(['Failed']);
    expect(names(await api.listCampaigns('is_referral_code=true'))).toEqual(['REFERRAL_PROGRAM']);
    const nonReferral = await api.listCampaigns('is_referral_code=false&campaign_type=DISCOUNT_COUPONS&campaign_status=DONE');
    expect(names(nonReferral).sort()).toEqual(['DISCOUNT_COUPONS', 'Full']);
    expect(nonReferral.json.total).toBe(2);
  });

  it('applies Voucherify-style filters, combined with and by default or with junction=or', async () => {
    const { api, clock } = await setup();
    await newCampaign(api, { ...campaignBodies.DISCOUNT_COUPONS('Spring sale'), category: 'Seasonal' });
    clock.advance(86_400_000);
    const gift = await newCampaign(api, { ...campaignBodies.GIFT_VOUCHERS('Spring gifts'), active: false });
    clock.advance(86_400_000);
    await newCampaign(api, { ...campaignBodies.LOYALTY_PROGRAM('Club'), validity_day_of_week: [1, 2] });

    expect(names(await api.listCampaigns('filters[campaigns][conditions][$starts_with]=Spring&order=created_at'))).toEqual(['Spring sale', 'Spring gifts']);
    expect(names(await api.listCampaigns(`filters[campaigns_id][conditions][$in][0]=${gift.id as string}`))).toEqual(['Spring gifts']);
    expect(names(await api.listCampaigns('filters[voucher_type][conditions][$is]=LOYALTY_CARD'))).toEqual(['Club']);
    expect(names(await api.listCampaigns('filters[categories][conditions][$in][]=Seasonal'))).toEqual(['Spring sale']);
    expect(names(await api.listCampaigns('filters[active][conditions][$disabled]='))).toEqual(['Spring gifts']);
    expect(names(await api.listCampaigns('filters[created_date][conditions][$after]=2026-01-01T12:00:00Z&order=created_at'))).toEqual(['Spring gifts', 'Club']);
    expect(names(await api.listCampaigns('filters[validity_day_of_week][conditions][$is][0]=3&order=created_at'))).toEqual(['Spring sale', 'Spring gifts']);
    const both = 'filters[campaigns][conditions][$starts_with]=Spring&filters[voucher_type][conditions][$is]=GIFT_VOUCHER';
    expect(names(await api.listCampaigns(both))).toEqual(['Spring gifts']);
    const either = 'filters[junction]=or&filters[campaigns][conditions][$is]=Club&filters[active][conditions][$disabled]=&order=created_at';
    expect(names(await api.listCampaigns(either))).toEqual(['Spring gifts', 'Club']);
    const json = encodeURIComponent(JSON.stringify({ campaigns: { conditions: { $contains: 'gift' } } }));
    expect(names(await api.listCampaigns(`filters=${json}`))).toEqual(['Spring gifts']);
  });

  it('answers an empty list for an area filter: no campaign is assigned to areas or stores', async () => {
    const { api } = await setup();
    await newCampaign(api);
    expect((await api.listCampaigns('access_settings[filter][areas_ids][0]=ar_1')).json).toMatchObject({ campaigns: [], total: 0 });
  });

  it.each(['limit=-1', 'limit=0', 'limit=101', 'limit=1.5'])('names the allowed range for %s, not just "must be an integer"', async (query) => {
    const { api } = await setup();
    const reply = await api.listCampaigns(query);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'invalid_query_params' });
    expect(reply.json.details).toMatch(/limit.*must be a whole number from 1 to 100/);
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=ten',
    'page=0',
    'page=101',
    'campaign_type=RAFFLE',
    'campaign_status=done',
    'is_referral_code=yes',
    'expand=vouchers',
    'order=name',
    'limit=5&limit=6',
    'filters[campaigns][conditions][$like]=x',
    'filters[colour][conditions][$is]=red',
    'filters[campaigns][conditions]=x',
    'filters[campaigns]=x&filters[campaigns][conditions][$is]=y',
    'filters[junction]=xor',
    'filters=%7Bnot-json',
    'access_settings[filter][regions][0]=x',
  ])('refuses %s with 400 invalid_query_params', async (query) => {
    const { api } = await setup();
    const reply = await api.listCampaigns(query);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 400, key: 'invalid_query_params', details: expect.any(String) });
  });

  it('shows a project only its own campaigns', async () => {
    const { runtime, api } = await setup();
    await newCampaign(api);
    const other = campaignApi(runtime, await newProject(runtime));
    expect((await other.listCampaigns()).json.total).toBe(0);
  });
});
