import { describe, expect, it } from 'vitest';
import { getCampaign } from '../../../lib/campaigns/campaign.service.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { readRounds } from '../../support/read-rounds.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

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

  it('reads a campaign named by id and its rule assignments in one round, by name in three, with a category one round more', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const api = campaignApi(runtime, pair);
    const call = apiClient({ runtime }, keyPairHeaders(pair));
    const plain = await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('Plain'));
    const filed = await newCampaign(api, { ...campaignBodies.DISCOUNT_COUPONS('Filed'), category: 'Seasonal' });
    const rule = (
      await call.call('create-validation-rules', {
        json: { name: 'Big carts', rules: { 1: { name: 'order.amount', conditions: { $more_than: [1000] } }, logic: '1' } },
      })
    ).json;
    const assignedIds: string[] = [];
    for (const c of [plain, filed]) {
      const made = await call.call('create-validation-rule-assignment', {
        params: { validationRuleId: rule.id as string },
        json: { related_object_type: 'campaign', related_object_id: c.id },
      });
      assignedIds.push(made.json.id as string);
    }
    const rounds = readRounds(runtime);
    const shape = () => rounds.take().map((r) => [...r].sort());

    const byId = await getCampaign(runtime, pair.project_id, plain.id as string);
    expect(shape()).toEqual([['Get', 'Get', 'Get']]);
    expect(byId.assignments.map((a) => a.id)).toEqual([assignedIds[0]]);

    const withCategory = await getCampaign(runtime, pair.project_id, filed.id as string);
    expect(shape()).toEqual([['Get', 'Get', 'Get'], ['Get']]);
    expect(withCategory.campaign.category?.name).toBe('Seasonal');
    expect(withCategory.assignments.map((a) => a.id)).toEqual([assignedIds[1]]);

    const byName = await getCampaign(runtime, pair.project_id, 'Filed');
    expect(shape()).toEqual([['Get'], ['Get'], ['Get', 'Get']]);
    expect(byName.campaign.id).toBe(filed.id);
    expect(byName.assignments.map((a) => a.id)).toEqual([assignedIds[1]]);

    expect((await api.getCampaign('Filed')).json).toMatchObject({ id: filed.id, validation_rules_assignments: { total: 1, data: [{ id: assignedIds[1] }] } });
  });
});
