import { describe, expect, it } from 'vitest';
import { campaignListReplySchema, campaignReplySchema } from '../../../lib/campaigns/campaign.reply.js';
import { listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/**
 * GET/POST /v1/loyalties and GET/PUT/DELETE /v1/loyalties/{campaignId} (issue 37): doors onto the
 * LOYALTY_PROGRAM campaigns of /v1/campaigns, against DynamoDB Local. One store: what is made,
 * changed or deleted through one door is seen through the other; other campaign types are 404 here.
 */

const { campaign_type: _type, ...programBody } = campaignBodies.LOYALTY_PROGRAM('Club');

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(Date.UTC(2026, 3, 1)) });
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  return { runtime, p: pair.project_id, jobs, api, campaigns: campaignApi(runtime, pair, jobs) };
}

describe('POST /v1/loyalties and GET /v1/loyalties/{campaignId}', () => {
  it('creates a LOYALTY_PROGRAM campaign without campaign_type, which GET /v1/campaigns/{id} shows the same', async () => {
    const { runtime, api, jobs } = await setup();
    const made = await api.call('create-loyalty-program', { json: { ...programBody, vouchers_count: 2 } });
    expect(made.status).toBe(200);
    const program = campaignReplySchema.parse(made.json);
    // Above one card the cards are made by the jobs queue, as POST /v1/campaigns makes them.
    expect(program).toMatchObject({ name: 'Club', campaign_type: 'LOYALTY_PROGRAM', creation_status: 'IN_PROGRESS', voucher: { type: 'LOYALTY_CARD' } });
    await jobs.deliver(runtime);
    const viaCampaigns = await api.call('get-campaign', { params: { campaignId: program.id } });
    const viaLoyalties = await api.call('get-loyalty-program', { params: { campaignId: program.id } });
    expect(viaLoyalties.status).toBe(200);
    expect(viaLoyalties.json).toEqual(viaCampaigns.json);
    expect(viaLoyalties.json).toMatchObject({ vouchers_count: 2, creation_status: 'DONE' });
    // By name too, as on /v1/campaigns.
    expect((await api.call('get-loyalty-program', { params: { campaignId: 'Club' } })).json.id).toBe(program.id);
  });

  it('shares the campaigns name space (409 for a taken name) and refuses another campaign_type', async () => {
    const { api, campaigns } = await setup();
    await campaigns.createCampaign(campaignBodies.DISCOUNT_COUPONS('Taken'));
    const dup = await api.call('create-loyalty-program', { json: { ...programBody, name: 'Taken' } });
    expect(dup.status).toBe(409);
    expect(dup.json.key).toBe('duplicate_found');
    const wrongType = await api.call('create-loyalty-program', { json: { ...campaignBodies.DISCOUNT_COUPONS('Coupons') } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.key).toBe('invalid_payload');
    expect((await api.call('get-campaign', { params: { campaignId: 'Coupons' } })).status).toBe(404);
  });

  it('answers 404 for a campaign of another type, and for none', async () => {
    const { api, campaigns } = await setup();
    const coupons = (await campaigns.createCampaign(campaignBodies.DISCOUNT_COUPONS('Coupons'))).json;
    for (const ref of [coupons.id as string, 'Coupons', 'camp_missing']) {
      const got = await api.call('get-loyalty-program', { params: { campaignId: ref } });
      expect(got.status, ref).toBe(404);
      expect(got.json).toMatchObject({ key: 'not_found', resource_type: 'campaign', resource_id: ref });
    }
  });
});

describe('GET /v1/loyalties', () => {
  it('lists only loyalty programs, newest first, paged, with the total of programs', async () => {
    const { api, campaigns } = await setup();
    await api.call('create-loyalty-program', { json: { ...programBody, name: 'P1' } });
    await campaigns.createCampaign(campaignBodies.DISCOUNT_COUPONS('Coupons'));
    // Made through the other door: listed here too.
    await campaigns.createCampaign(campaignBodies.LOYALTY_PROGRAM('P2'));
    await campaigns.createCampaign(campaignBodies.GIFT_VOUCHERS('Gifts'));
    await api.call('create-loyalty-program', { json: { ...programBody, name: 'P3' } });

    const all = campaignListReplySchema.parse((await api.call('list-loyalty-programs')).json);
    expect(all).toMatchObject({ object: 'list', data_ref: 'campaigns', total: 3 });
    expect(all.campaigns.map((c) => c.name)).toEqual(['P3', 'P2', 'P1']);
    const page2 = campaignListReplySchema.parse((await api.call('list-loyalty-programs', { query: 'limit=2&page=2&order=created_at' })).json);
    expect(page2.campaigns.map((c) => c.name)).toEqual(['P3']);
    expect(page2.total).toBe(3);
    // The campaign list's type filter is no parameter here: ignored as any unknown key, the type stays fixed.
    const typed = campaignListReplySchema.parse((await api.call('list-loyalty-programs', { query: 'campaign_type=DISCOUNT_COUPONS' })).json);
    expect(typed.campaigns.map((c) => c.name)).toEqual(['P3', 'P2', 'P1']);
  });
});

describe('PUT /v1/loyalties/{campaignId}', () => {
  it('changes the program, seen through /v1/campaigns; a change through /v1/campaigns is seen here', async () => {
    const { api } = await setup();
    const id = (await api.call('create-loyalty-program', { json: programBody })).json.id as string;
    const put = await api.call('update-loyalty-program', {
      params: { campaignId: 'Club' },
      json: { description: 'Points for all', metadata: { tier: 'gold' } },
    });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ id, description: 'Points for all', metadata: { tier: 'gold' } });
    expect((await api.call('get-campaign', { params: { campaignId: id } })).json).toMatchObject({ description: 'Points for all', metadata: { tier: 'gold' } });

    await api.call('update-campaign', { params: { campaignId: id }, json: { description: 'Changed via campaigns' } });
    expect((await api.call('get-loyalty-program', { params: { campaignId: id } })).json.description).toBe('Changed via campaigns');
  });

  it("is 404 on another type (nothing changes), refuses tier options and ignores another type's discount", async () => {
    const { api, campaigns } = await setup();
    const coupons = (await campaigns.createCampaign(campaignBodies.DISCOUNT_COUPONS('Coupons'))).json;
    const other = await api.call('update-loyalty-program', { params: { campaignId: 'Coupons' }, json: { description: 'nope' } });
    expect(other.status).toBe(404);
    expect(other.json).toMatchObject({ key: 'not_found', resource_type: 'campaign' });
    expect((await api.call('get-campaign', { params: { campaignId: coupons.id as string } })).json.description ?? null).toBeNull();

    await api.call('create-loyalty-program', { json: programBody });
    const refused = await api.call('update-loyalty-program', { params: { campaignId: 'Club' }, json: { options: { recalculate_tiers: true } } });
    expect(refused.status).toBe(400);
    expect(refused.json.key).toBe('invalid_payload');
    // `discount` is no field of the loyalty update body: an unknown key, ignored (docs/decisions.md "Reading requests liberally").
    const ignored = await api.call('update-loyalty-program', { params: { campaignId: 'Club' }, json: { discount: { type: 'PERCENT', percent_off: 5 } } });
    expect(ignored.status).toBe(200);
    expect(ignored.json.voucher).toEqual((await api.call('get-campaign', { params: { campaignId: 'Club' } })).json.voucher);
  });
});

describe('DELETE /v1/loyalties/{campaignId}', () => {
  it('answers 200 with the async action (the reference; /v1/campaigns answers 202) and removes program and cards', async () => {
    const { runtime, p, api, jobs } = await setup();
    const id = (await api.call('create-loyalty-program', { json: { ...programBody, vouchers_count: 3 } })).json.id as string;
    await jobs.deliver(runtime);
    expect(await listCampaignVoucherCodes(runtime, p, id)).toHaveLength(3);
    const deleted = await api.call('delete-loyalty-program', { params: { campaignId: 'Club' }, query: 'force=true' });
    expect(deleted.status).toBe(200);
    const actionId = deleted.json.async_action_id as string;
    expect(actionId).toMatch(/^aa_/);
    expect((await api.call('get-campaign', { params: { campaignId: id } })).status).toBe(404);
    expect((await api.call('get-loyalty-program', { params: { campaignId: id } })).status).toBe(404);
    await jobs.deliver(runtime);
    expect((await api.call('get-async-action', { params: { asyncActionId: actionId } })).json).toMatchObject({
      type: 'CAMPAIGN.VOUCHERS_DELETE',
      status: 'DONE',
      result: { done_count: 3 },
    });
    expect(await listCampaignVoucherCodes(runtime, p, id)).toEqual([]);
  });

  it('is 404 on another type and leaves that campaign; a program made through /v1/campaigns is deleted here', async () => {
    const { api, campaigns } = await setup();
    await campaigns.createCampaign(campaignBodies.GIFT_VOUCHERS('Gifts'));
    const refused = await api.call('delete-loyalty-program', { params: { campaignId: 'Gifts' } });
    expect(refused.status).toBe(404);
    expect((await api.call('get-campaign', { params: { campaignId: 'Gifts' } })).status).toBe(200);

    await campaigns.createCampaign(campaignBodies.LOYALTY_PROGRAM('Other door'));
    expect((await api.call('delete-loyalty-program', { params: { campaignId: 'Other door' } })).status).toBe(200);
    expect((await api.call('get-campaign', { params: { campaignId: 'Other door' } })).status).toBe(404);
    expect((await api.call('list-loyalty-programs')).json.total).toBe(0);
  });
});
