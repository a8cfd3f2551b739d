import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 4, 1);

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  const discount = await newCampaign(campaigns);
  const gift = await newCampaign(campaigns, campaignBodies.GIFT_VOUCHERS('Gifts'));
  /** Makes a template one second after the previous one, so creation order is plain. */
  const make = async (name: string, campaignId = discount.id as string) => {
    clock.advance(1000);
    const reply = await api.call('create-campaign-template', { json: { name, campaign_id: campaignId } });
    expect(reply.status).toBe(200);
    return reply.json as { id: string; name: string; created_at: string; campaign_type: string };
  };
  return { runtime, pair, api, clock, discount, gift, make };
}

describe('GET /v1/templates/campaigns/{campaignTemplateId}', () => {
  it('replies with the template object, and 404 not_found for an unknown id or another project', async () => {
    const { runtime, api, make } = await setup();
    const t = await make('Halloween');
    const got = await api.call('get-campaign-template', { params: { campaignTemplateId: t.id } });
    expect(got.status).toBe(200);
    expect(got.json).toEqual({ ...t, object: 'campaign_template' });
    const missing = await api.call('get-campaign-template', { params: { campaignTemplateId: 'camp_tpl_nope' } });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({
      key: 'not_found',
      details: 'Cannot find campaign_template with id camp_tpl_nope',
      resource_id: 'camp_tpl_nope',
      resource_type: 'campaign_template',
    });
    const other = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    expect((await other.call('get-campaign-template', { params: { campaignTemplateId: t.id } })).status).toBe(404);
  });

  it('accepts expand=json_template (the reply has no field it adds) and refuses another expand', async () => {
    const { api, make } = await setup();
    const t = await make('Expanded');
    const got = await api.call('get-campaign-template', { params: { campaignTemplateId: t.id }, query: 'expand=json_template' });
    expect(got.status).toBe(200);
    expect(got.json).toEqual({ ...t, object: 'campaign_template' });
    const bad = await api.call('get-campaign-template', { params: { campaignTemplateId: t.id }, query: 'expand=everything' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ key: 'invalid_query_params' });
  });
});

describe('GET /v1/templates/campaigns', () => {
  it('pages through templates oldest first with starting_after_id, and newest first with order=-id', async () => {
    const { api, make } = await setup();
    const made = [];
    for (const name of ['A', 'B', 'C', 'D', 'E']) made.push(await make(name));
    const ids = made.map((t) => t.id);
    const first = await api.call('list-campaign-templates', { query: 'limit=2' });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      object: 'list',
      data_ref: 'data',
      data: made.slice(0, 2).map((t) => ({ ...t, object: 'campaign_template' })),
      has_more: true,
      more_starting_after: ids[1],
    });
    const second = await api.call('list-campaign-templates', { query: `limit=2&starting_after_id=${ids[1]}` });
    expect((second.json.data as { id: string }[]).map((t) => t.id)).toEqual(ids.slice(2, 4));
    const last = await api.call('list-campaign-templates', { query: `limit=2&starting_after_id=${ids[3]}` });
    expect(last.json).toMatchObject({ has_more: false });
    expect(last.json).not.toHaveProperty('more_starting_after');
    expect((last.json.data as { id: string }[]).map((t) => t.id)).toEqual([ids[4]]);
    const newest = await api.call('list-campaign-templates', { query: `order=-id&limit=3&starting_after_id=${ids[4]}` });
    expect((newest.json.data as { id: string }[]).map((t) => t.id)).toEqual([ids[3], ids[2], ids[1]]);
  });

  it('gives total from the counter only with include_total=true, whatever the filter', async () => {
    const { runtime, api, make, gift } = await setup();
    await make('A');
    await make('G', gift.id as string);
    const none = await api.call('list-campaign-templates');
    expect(none.json).not.toHaveProperty('total');
    const withTotal = await api.call('list-campaign-templates', { query: 'include_total=true&filters[campaign_type][conditions][$is]=GIFT_VOUCHERS' });
    expect(withTotal.json).toMatchObject({ total: 2, has_more: false });
    expect((withTotal.json.data as unknown[]).length).toBe(1);
    const empty = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    expect((await empty.call('list-campaign-templates', { query: 'include_total=true' })).json).toMatchObject({ total: 0, data: [], has_more: false });
  });

  it('filters by campaign_type with $is, $is_not, $in and $not_in, paging within the type', async () => {
    const { api, make, gift } = await setup();
    const d1 = await make('D1');
    const g1 = await make('G1', gift.id as string);
    const d2 = await make('D2');
    const g2 = await make('G2', gift.id as string);
    const names = async (query: string) => ((await api.call('list-campaign-templates', { query })).json.data as { name: string }[]).map((t) => t.name);
    expect(await names('filters[campaign_type][conditions][$is]=GIFT_VOUCHERS')).toEqual(['G1', 'G2']);
    expect(await names('filters[campaign_type][conditions][$is_not]=GIFT_VOUCHERS')).toEqual(['D1', 'D2']);
    expect(await names('filters[campaign_type][conditions][$in][0]=GIFT_VOUCHERS&filters[campaign_type][conditions][$in][1]=DISCOUNT_COUPONS')).toEqual([
      'D1',
      'G1',
      'D2',
      'G2',
    ]);
    expect(await names('filters[campaign_type][conditions][$not_in][0]=DISCOUNT_COUPONS&order=-id')).toEqual(['G2', 'G1']);
    expect(await names('filters[campaign_type][conditions][$is]=GIFT_VOUCHERS&filters[campaign_type][conditions][$is_not]=GIFT_VOUCHERS')).toEqual([]);
    expect(await names('filters[campaign_type][conditions][$has_value]=')).toEqual(['D1', 'G1', 'D2', 'G2']);
    expect(await names('filters[campaign_type][conditions][$is_unknown]=')).toEqual([]);
    expect(await names('filters[campaign_type][conditions][$starts_with]=GIFT&filters[junction]=and')).toEqual(['G1', 'G2']);
    expect(await names('filters[campaign_type][conditions][$ends_with]=COUPONS')).toEqual(['D1', 'D2']);
    // A cursor of the other type continues from its place in time.
    expect(await names(`filters[campaign_type][conditions][$is]=GIFT_VOUCHERS&starting_after_id=${d2.id}`)).toEqual(['G2']);
    const page = await api.call('list-campaign-templates', {
      query: `limit=1&filters[campaign_type][conditions][$is]=DISCOUNT_COUPONS&starting_after_id=${d1.id}`,
    });
    expect(page.json).toMatchObject({ data: [{ id: d2.id }], has_more: false });
    expect([g1.id, g2.id]).toHaveLength(2);
  });

  it('refuses unknown parameters, filters it cannot serve and a cursor naming no template with 400', async () => {
    const { api } = await setup();
    for (const query of [
      'limit=0',
      'limit=101',
      'order=name',
      'include_total=yes',
      'filters[name][conditions][$is]=A',
      'filters[id][conditions][$in][0]=x',
      'filters[campaign_type][conditions][$is]=PROMOTION',
      'page=2',
    ]) {
      const reply = await api.call('list-campaign-templates', { query });
      expect(reply.status, query).toBe(400);
      expect(reply.json.key, query).toBe('invalid_query_params');
    }
    const cursor = await api.call('list-campaign-templates', { query: 'starting_after_id=camp_tpl_gone' });
    expect(cursor.status).toBe(400);
    expect(cursor.json).toMatchObject({ key: 'invalid_query_params', details: 'Property .starting_after_id names no campaign template: camp_tpl_gone' });
  });
});

describe('PUT /v1/templates/campaigns/{campaignTemplateId}', () => {
  it('renames a template and changes or clears its description, setting updated_at; the old name is free again', async () => {
    const { api, clock, make } = await setup();
    const t = await make('Old');
    clock.advance(5000);
    const renamed = await api.call('update-campaign-template', { params: { campaignTemplateId: t.id }, json: { name: 'New', description: 'Winter' } });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toEqual({ ...t, name: 'New', description: 'Winter', updated_at: new Date(clock.now()).toISOString(), object: 'campaign_template' });
    const cleared = await api.call('update-campaign-template', { params: { campaignTemplateId: t.id }, json: { description: null } });
    expect(cleared.json).toMatchObject({ name: 'New' });
    expect(cleared.json).not.toHaveProperty('description');
    expect((await api.call('get-campaign-template', { params: { campaignTemplateId: t.id } })).json).toEqual(cleared.json);
    expect((await make('Old')).name).toBe('Old');
  });

  it('refuses a name another template has with 409 duplicate_found, also when 10 renames race for one name', async () => {
    const { api, make } = await setup();
    const a = await make('A');
    await make('B');
    const taken = await api.call('update-campaign-template', { params: { campaignTemplateId: a.id }, json: { name: 'B' } });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({
      key: 'duplicate_found',
      details: 'Duplicated campaign_template exists with name B',
      resource_id: 'B',
      resource_type: 'campaign_template',
    });
    const racers = [];
    for (let i = 0; i < 10; i++) racers.push(await make(`R${i}`));
    const race = await Promise.all(racers.map((r) => api.call('update-campaign-template', { params: { campaignTemplateId: r.id }, json: { name: 'Prize' } })));
    expect(race.filter((r) => r.status === 200)).toHaveLength(1);
    expect(race.filter((r) => r.status === 409)).toHaveLength(9);
    const list = await api.call('list-campaign-templates', { query: 'limit=100' });
    expect((list.json.data as { name: string }[]).filter((t) => t.name === 'Prize')).toHaveLength(1);
  });

  it('answers 404 for an unknown template and 400 for a bad body', async () => {
    const { api, make } = await setup();
    expect((await api.call('update-campaign-template', { params: { campaignTemplateId: 'camp_tpl_x' }, json: { name: 'N' } })).status).toBe(404);
    const t = await make('T');
    for (const json of [{ name: '' }, { description: 5 }]) {
      const reply = await api.call('update-campaign-template', { params: { campaignTemplateId: t.id }, json });
      expect(reply.status).toBe(400);
      expect(reply.json.key).toBe('invalid_payload');
    }
  });
});

describe('DELETE /v1/templates/campaigns/{campaignTemplateId}', () => {
  it('answers 204, then 404; the template leaves the list and the counter, and its name is free', async () => {
    const { api, make } = await setup();
    const t = await make('Gone');
    await make('Stays');
    const gone = await api.call('delete-campaign-template', { params: { campaignTemplateId: t.id } });
    expect(gone.status).toBe(204);
    expect((await api.call('get-campaign-template', { params: { campaignTemplateId: t.id } })).status).toBe(404);
    const again = await api.call('delete-campaign-template', { params: { campaignTemplateId: t.id } });
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ key: 'not_found', resource_type: 'campaign_template', resource_id: t.id });
    const list = await api.call('list-campaign-templates', { query: 'include_total=true' });
    expect(list.json).toMatchObject({ total: 1, data: [{ name: 'Stays' }] });
    expect((await make('Gone')).name).toBe('Gone');
  });

  it('counts a template once when 10 deletes of it race: one 204, nine 404', async () => {
    const { api, make } = await setup();
    const t = await make('Raced');
    const race = await Promise.all(Array.from({ length: 10 }, () => api.call('delete-campaign-template', { params: { campaignTemplateId: t.id } })));
    expect(race.filter((r) => r.status === 204)).toHaveLength(1);
    expect(race.filter((r) => r.status === 404)).toHaveLength(9);
    expect((await api.call('list-campaign-templates', { query: 'include_total=true' })).json).toMatchObject({ total: 0 });
  });
});
