import { describe, expect, it } from 'vitest';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  return { runtime, api: campaignApi(runtime, pair) };
}

describe('GET /v1/campaigns/{campaignId}', () => {
  it('returns the campaign by id and by name, identical to the creation reply', async () => {
    const { api } = await setup();
    const created = await newCampaign(api, { ...campaignBodies.LOYALTY_PROGRAM('Club / 2026'), metadata: { tier: 'gold' } });
    const byId = await api.getCampaign(created.id as string);
    expect(byId.status).toBe(200);
    expect(byId.json).toEqual(created);
    const byName = await api.getCampaign('Club / 2026');
    expect(byName.status).toBe(200);
    expect(byName.json).toEqual(created);
  });

  it('returns every type with its template, and a promotion with its tiers', async () => {
    const { api } = await setup();
    for (const type of ['DISCOUNT_COUPONS', 'GIFT_VOUCHERS', 'LOYALTY_PROGRAM', 'REFERRAL_PROGRAM', 'PROMOTION'] as const) {
      const created = await newCampaign(api, campaignBodies[type](`Type ${type}`));
      const got = await api.getCampaign(created.id as string);
      expect(got.json).toEqual(created);
      expect(got.json.campaign_type).toBe(type);
    }
  });

  it('prefers the campaign whose id matches over one named like that id', async () => {
    const { api } = await setup();
    const first = await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('First'));
    const impostor = await newCampaign(api, campaignBodies.DISCOUNT_COUPONS(first.id as string));
    expect(impostor.name).toBe(first.id);
    expect((await api.getCampaign(first.id as string)).json.id).toBe(first.id);
  });

  it('answers 404 not_found for an unknown campaign, naming it', async () => {
    const { api } = await setup();
    const reply = await api.getCampaign('camp_doesnotexist');
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({
      code: 404,
      key: 'not_found',
      message: 'Resource not found',
      details: 'Cannot find campaign with id camp_doesnotexist',
      request_id: expect.stringMatching(/^v-/),
      resource_id: 'camp_doesnotexist',
      resource_type: 'campaign',
    });
  });

  it('does not show another project its campaigns, by id or by name', async () => {
    const { runtime, api } = await setup();
    const created = await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('Private'));
    const other = campaignApi(runtime, await newProject(runtime));
    expect((await other.getCampaign(created.id as string)).status).toBe(404);
    expect((await other.getCampaign('Private')).status).toBe(404);
  });
});
