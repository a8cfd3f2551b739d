import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { RecordingJobQueue } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 4, 1);

/** A source campaign with much configuration, and a template made from it. */
const source = {
  name: 'Source',
  campaign_type: 'DISCOUNT_COUPONS',
  type: 'AUTO_UPDATE',
  join_once: true,
  auto_join: true,
  use_voucher_metadata_schema: true,
  start_date: '2026-06-01T00:00:00.000Z',
  expiration_date: '2026-09-01T00:00:00.000Z',
  validity_day_of_week: [1, 2],
  validity_hours: { daily: [{ start_time: '09:00', expiration_time: '17:00', days_of_week: [1, 2] }] },
  activity_duration_after_publishing: 'P24D',
  metadata: { season: 'summer' },
  category: 'Seasonal',
  voucher: {
    type: 'DISCOUNT_VOUCHER',
    discount: { type: 'AMOUNT', amount_off: 2500, effect: 'APPLY_TO_ORDER' },
    redemption: { quantity: 4 },
    code_config: { pattern: 'SUM-####', charset: '0123456789' },
  },
};

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  const made = await api.call('create-campaign', { json: source });
  expect(made.status).toBe(200);
  const template = await api.call('create-campaign-template', { json: { name: 'Summer', campaign_id: made.json.id } });
  expect(template.status).toBe(200);
  const templateId = template.json.id as string;
  const setUp = (json: unknown, id = templateId) => api.call('create-campaign-from-template', { params: { campaignTemplateId: id }, json });
  return { runtime, pair, api, jobs, sourceCampaign: made.json, templateId, setUp };
}

/** The campaign fields a template carries over (everything but identity, times and counts). */
const configuration = (c: Record<string, unknown>) => {
  const { id, name, created_at, updated_at, vouchers_count, creation_status, vouchers_generation_status, ...rest } = c;
  return rest;
};

describe('POST /v1/templates/campaigns/{campaignTemplateId}/campaign-setup', () => {
  it('takes the description and empty access_settings of a campaign create (issue 15 item 1)', async () => {
    const { setUp } = await setup();
    const reply = await setUp({ name: 'Described', description: 'From the template', access_settings: { assign: { areas_ids: [] } } });
    expect(reply.status).toBe(200);
    expect(reply.json.campaign).toMatchObject({ name: 'Described', description: 'From the template' });
    const assigned = await setUp({ name: 'Assigned', access_settings: { assign: { areas_ids: ['ar_1'] } } });
    expect(assigned.status).toBe(400);
  });

  it("makes a campaign with the template's configuration and the new name, replying campaign_setup", async () => {
    const { api, sourceCampaign, setUp } = await setup();
    const reply = await setUp({ name: 'Summer 2027' });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ created_resources: [], object: 'campaign_setup' });
    const campaign = reply.json.campaign as Record<string, unknown>;
    expect(campaign).toMatchObject({ name: 'Summer 2027', vouchers_count: 0, creation_status: 'DONE', object: 'campaign' });
    expect(campaign.id).not.toBe(sourceCampaign.id);
    expect(configuration(campaign)).toEqual(configuration(sourceCampaign));
    // Made as POST /v1/campaigns makes one: readable by name, counted and listed.
    expect((await api.call('get-campaign', { params: { campaignId: 'Summer 2027' } })).json).toEqual(campaign);
    const list = await api.call('list-campaigns', { query: 'order=created_at' });
    expect(list.json).toMatchObject({ total: 2 });
  });

  it('overrides what the request sends: flags, dates (null clears), metadata, code config (merged), redemption, type', async () => {
    const { setUp } = await setup();
    const reply = await setUp({
      name: 'Winter',
      join_once: false,
      auto_join: false,
      start_date: null,
      expiration_date: '2027-03-01T00:00:00.000Z',
      validity_day_of_week: null,
      metadata: { season: 'winter' },
      active: false,
      type: 'STATIC',
      voucher: { code_config: { prefix: 'W-' }, redemption: { quantity: null } },
    });
    expect(reply.status).toBe(200);
    const campaign = reply.json.campaign as Record<string, unknown>;
    expect(campaign).toMatchObject({
      name: 'Winter',
      type: 'STATIC',
      join_once: false,
      auto_join: false,
      use_voucher_metadata_schema: true,
      expiration_date: '2027-03-01T00:00:00.000Z',
      metadata: { season: 'winter' },
      active: false,
      voucher: {
        discount: { type: 'AMOUNT', amount_off: 2500 },
        redemption: { quantity: null },
        code_config: { pattern: 'SUM-####', charset: '0123456789', prefix: 'W-', length: 4 },
      },
      category: 'Seasonal',
    });
    expect(campaign).not.toHaveProperty('start_date');
    expect(campaign).not.toHaveProperty('validity_day_of_week');
  });

  it('generates vouchers_count vouchers with the template code config, through the job queue above one', async () => {
    const { api, jobs, runtime, setUp } = await setup();
    const one = await setUp({ name: 'One' });
    expect(one.status).toBe(200);
    const withOne = await setUp({ name: 'With one', vouchers_count: 1 });
    expect(withOne.json.campaign).toMatchObject({ vouchers_count: 1, creation_status: 'DONE' });
    const many = await setUp({ name: 'Many', vouchers_count: 5 });
    expect(many.json.campaign).toMatchObject({ creation_status: 'IN_PROGRESS' });
    await jobs.deliver(runtime);
    const done = await api.call('get-campaign', { params: { campaignId: 'Many' } });
    expect(done.json).toMatchObject({ vouchers_count: 5, creation_status: 'DONE' });
    const voucher = await api.call('add-vouchers-to-campaign', { params: { campaignId: 'One' }, json: {} });
    expect(voucher.json.code).toMatch(/^SUM-\d{4}$/);
  });

  it("references the template's category by id: renamed, the campaign shows the new name; deleted, the campaign has none", async () => {
    const { api, sourceCampaign, setUp } = await setup();
    const categoryId = sourceCampaign.category_id as string;
    expect((await api.call('update-category', { params: { categoryId }, json: { name: 'Holidays', hierarchy: 1 } })).status).toBe(200);
    const renamed = await setUp({ name: 'After rename' });
    expect(renamed.json.campaign).toMatchObject({ category: 'Holidays', category_id: categoryId });
    expect((await api.call('delete-category', { params: { categoryId } })).status).toBe(204);
    const deleted = await setUp({ name: 'After delete' });
    expect(deleted.status).toBe(200);
    expect(deleted.json.campaign).toMatchObject({ category_id: null, categories: [] });
    const chosen = await setUp({ name: 'Own category', category: 'Autumn' });
    expect(chosen.json.campaign).toMatchObject({ category: 'Autumn' });
  });

  it('makes a GIFT_VOUCHERS campaign from a gift template', async () => {
    const { api, setUp } = await setup();
    const gift = await api.call('create-campaign', {
      json: { name: 'Gifts', campaign_type: 'GIFT_VOUCHERS', voucher: { type: 'GIFT_VOUCHER', gift: { amount: 5000, effect: 'APPLY_TO_ORDER' } } },
    });
    const template = await api.call('create-campaign-template', { json: { name: 'Gift tpl', campaign_id: gift.json.id } });
    const reply = await setUp({ name: 'More gifts', vouchers_count: 1 }, template.json.id as string);
    expect(reply.status).toBe(200);
    expect(reply.json.campaign).toMatchObject({
      campaign_type: 'GIFT_VOUCHERS',
      voucher: { type: 'GIFT_VOUCHER', gift: { amount: 5000, effect: 'APPLY_TO_ORDER' } },
      vouchers_count: 1,
    });
  });

  it('refuses a taken campaign name with 409 (one winner of 10 racing setups), an unknown template with 404, a bad body with 400', async () => {
    const { api, setUp } = await setup();
    const taken = await setUp({ name: 'Source' });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ key: 'duplicate_found', resource_type: 'campaign', resource_id: 'Source' });
    const race = await Promise.all(Array.from({ length: 10 }, () => setUp({ name: 'Raced' })));
    expect(race.filter((r) => r.status === 200)).toHaveLength(1);
    expect(race.filter((r) => r.status === 409)).toHaveLength(9);
    expect((await api.call('list-campaigns', { query: 'order=created_at' })).json).toMatchObject({ total: 2 });
    const unknown = await setUp({ name: 'X' }, 'camp_tpl_unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'campaign_template', resource_id: 'camp_tpl_unknown' });
    // `campaign_type` is not in the setup body: ignored (issue 33); a discount override is refused by name (the template's is used).
    for (const json of [{}, { name: 'Y', voucher: { discount: { type: 'PERCENT', percent_off: 5 } } }]) {
      const bad = await setUp(json);
      expect(bad.status).toBe(400);
      expect(bad.json.key).toBe('invalid_payload');
    }
  });
});
