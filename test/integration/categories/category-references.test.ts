import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 9, 5, 10, 0, 0);

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  const categoryNamed = async (name: string) => ((await api.call('list-categories')).json.data as Record<string, unknown>[]).find((c) => c.name === name);
  return { runtime, pair, api, campaigns, categoryNamed };
}

const filterQuery = (field: string, op: string, value: string) => `filters[${field}][conditions][${op}]=${encodeURIComponent(value)}`;

describe('categories made by campaigns and vouchers', () => {
  it('lists the categories campaigns and vouchers made from a name, with hierarchy 0, and get-category reads them', async () => {
    const { api, campaigns, categoryNamed } = await setup();
    const campaign = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Tagged'), category: 'From campaign' });
    expect((await campaigns.addVoucher(campaign.id as string, { code: 'TAG-1', category: 'From voucher' })).status).toBe(200);
    const list = (await api.call('list-categories')).json;
    expect(list.total).toBe(2);
    const fromCampaign = await categoryNamed('From campaign');
    expect(fromCampaign).toMatchObject({ id: campaign.category_id, hierarchy: 0, object: 'category' });
    expect((await api.call('get-category', { params: { categoryId: campaign.category_id as string } })).json).toEqual(fromCampaign);
    expect(await categoryNamed('From voucher')).toMatchObject({ hierarchy: 0 });
  });

  it('reuses a category made by create-category when a campaign or voucher names it', async () => {
    const { api, campaigns } = await setup();
    const made = (await api.call('create-category', { json: { name: 'Premium', hierarchy: 4 } })).json;
    const campaign = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Premium deals'), category: 'Premium' });
    expect(campaign).toMatchObject({ category: 'Premium', category_id: made.id, categories: [made] });
    const voucher = await campaigns.addVoucher(campaign.id as string, { code: 'P-1', category_id: made.id });
    expect(voucher.json).toMatchObject({ category: 'Premium', category_id: made.id, categories: [made] });
    expect((await api.call('list-categories')).json.total).toBe(1);
  });
});

describe('campaigns and vouchers show their category as it is now', () => {
  it('shows a renamed and re-ranked category on get-campaign, list-campaigns and get-voucher', async () => {
    const { api, campaigns } = await setup();
    const campaign = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Shop'), category: 'Old name' });
    expect((await campaigns.addVoucher('Shop', { code: 'SHOP-1', category: 'Old name' })).status).toBe(200);
    const id = campaign.category_id as string;
    const renamed = (await api.call('update-category', { params: { categoryId: id }, json: { name: 'New name', hierarchy: 6 } })).json;

    const got = (await campaigns.getCampaign('Shop')).json;
    expect(got).toMatchObject({ category: 'New name', category_id: id, categories: [renamed] });
    const listed = (await campaigns.listCampaigns()).json.campaigns as Record<string, unknown>[];
    expect(listed[0]).toMatchObject({ category_id: id, categories: [renamed] });
    const voucher = (await campaigns.getVoucher('SHOP-1')).json;
    expect(voucher).toMatchObject({ category: 'New name', category_id: id, categories: [renamed] });
  });

  it('shows no category on campaigns and vouchers whose category was deleted, and a new category of that name is not theirs', async () => {
    const { api, campaigns } = await setup();
    const campaign = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Shop'), category: 'Doomed' });
    expect((await campaigns.addVoucher('Shop', { code: 'SHOP-1', category: 'Doomed' })).status).toBe(200);
    expect((await api.call('delete-category', { params: { categoryId: campaign.category_id as string } })).status).toBe(204);

    const none = { category_id: null, categories: [] };
    const got = (await campaigns.getCampaign('Shop')).json;
    expect(got).toMatchObject(none);
    expect(got).not.toHaveProperty('category');
    expect(((await campaigns.listCampaigns()).json.campaigns as unknown[])[0]).toMatchObject(none);
    expect((await campaigns.getVoucher('SHOP-1')).json).toMatchObject({ ...none, category: null });

    const reborn = await api.call('create-category', { json: { name: 'Doomed', hierarchy: 0 } });
    expect(reborn.json.id).not.toBe(campaign.category_id);
    expect((await campaigns.getCampaign('Shop')).json).toMatchObject(none);
  });

  it('filters campaigns by the current category names and ids: a renamed category matches its new name, a deleted one nothing', async () => {
    const { api, campaigns } = await setup();
    const a = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('A'), category: 'Before' });
    const b = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('B'), category: 'Gone' });
    await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('C'));
    await api.call('update-category', { params: { categoryId: a.category_id as string }, json: { name: 'After', hierarchy: 0 } });
    await api.call('delete-category', { params: { categoryId: b.category_id as string } });
    const namesOf = async (query: string) => {
      const reply = await campaigns.listCampaigns(query);
      expect(reply.status).toBe(200);
      return ((reply.json.campaigns as { name: string }[]).map((c) => c.name) ?? []).sort();
    };
    expect(await namesOf(filterQuery('categories', '$is', 'After'))).toEqual(['A']);
    expect(await namesOf(filterQuery('categories', '$is', 'Before'))).toEqual([]);
    expect(await namesOf(filterQuery('categories', '$is', 'Gone'))).toEqual([]);
    expect(await namesOf(filterQuery('category_ids', '$is', b.category_id as string))).toEqual([]);
    expect(await namesOf(filterQuery('category_ids', '$is', a.category_id as string))).toEqual(['A']);
    expect(await namesOf(`${filterQuery('categories', '$is_unknown', '')}`)).toEqual(['B', 'C']);
  });

  it('lets a campaign name a deleted category again: it gets the new category of that name', async () => {
    const { api, campaigns } = await setup();
    const first = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('First'), category: 'Seasonal' });
    await api.call('delete-category', { params: { categoryId: first.category_id as string } });
    const second = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Second'), category: 'Seasonal' });
    expect(second.category_id).toMatch(/^cat_/);
    expect(second.category_id).not.toBe(first.category_id);
    expect((await api.call('list-categories')).json).toMatchObject({ total: 1, data: [{ id: second.category_id, name: 'Seasonal' }] });
    const byId = await campaigns.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Third'), category_id: first.category_id });
    expect(byId.status).toBe(404);
    expect(byId.json).toMatchObject({ key: 'not_found', resource_type: 'category' });
  });
});
