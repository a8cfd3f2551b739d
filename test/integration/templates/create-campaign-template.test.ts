import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { makeHandler } from '../../../functions/templates/create-campaign-template.js';
import { createCampaignTemplateRoute } from '../../../lib/api/routes.js';
import { ManualClock } from '../../../lib/clock.js';
import { keys } from '../../../lib/db/keys.js';
import { callRoute, campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 4, 1);

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const handler = makeHandler({ runtime });
  const create = (json: unknown) => callRoute(handler, createCampaignTemplateRoute, { path: '/v1/templates/campaigns', json, headers: keyPairHeaders(pair) });
  return { runtime, pair, api: campaignApi(runtime, pair), create };
}

describe('POST /v1/templates/campaigns', () => {
  it('makes a template from a discount campaign and replies with the campaign template object', async () => {
    const { api, create } = await setup();
    const campaign = await newCampaign(api);
    const reply = await create({ name: 'Halloween', description: 'Reuse every October', campaign_id: campaign.id });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      id: expect.stringMatching(/^camp_tpl_[0-9A-Za-z]+$/),
      name: 'Halloween',
      description: 'Reuse every October',
      campaign_type: 'DISCOUNT_COUPONS',
      created_at: new Date(at).toISOString(),
      object: 'campaign_template',
    });
  });

  it('makes a GIFT_VOUCHERS template from a gift campaign, and keeps a snapshot of its configuration', async () => {
    const { runtime, pair, api, create } = await setup();
    const campaign = await newCampaign(api, { ...campaignBodies.GIFT_VOUCHERS('Gifts'), metadata: { season: 'winter' } });
    const reply = await create({ name: 'Gift template', campaign_id: campaign.id, promotion_tier_id: null });
    expect(reply.json).toMatchObject({ campaign_type: 'GIFT_VOUCHERS' });
    expect(reply.json).not.toHaveProperty('description');
    const stored = await runtime.ddb.send(
      new GetCommand({ TableName: runtime.tableName, Key: keys.campaignTemplate(pair.project_id, reply.json.id as string) }),
    );
    expect(stored.Item).toMatchObject({
      source: { kind: 'campaign', id: campaign.id },
      snapshot: { campaignType: 'GIFT_VOUCHERS', voucher: { type: 'GIFT_VOUCHER', gift: { amount: 5000 } }, metadata: { season: 'winter' } },
    });
  });

  it('makes a DISCOUNT_COUPONS template from a promotion tier, with the tier discount as the voucher discount', async () => {
    const { runtime, pair, api, create } = await setup();
    const promotion = await newCampaign(api, campaignBodies.PROMOTION('Promo'));
    const tier = (promotion.promotion as { tiers: { id: string }[] }).tiers[1];
    const reply = await create({ name: 'From tier', promotion_tier_id: tier?.id });
    expect(reply.status).toBe(200);
    expect(reply.json.campaign_type).toBe('DISCOUNT_COUPONS');
    const stored = await runtime.ddb.send(
      new GetCommand({ TableName: runtime.tableName, Key: keys.campaignTemplate(pair.project_id, reply.json.id as string) }),
    );
    expect(stored.Item?.snapshot).toMatchObject({ voucher: { discount: { type: 'AMOUNT', amountOff: 3000 } }, metadata: { level: 'B' } });
  });

  it.each(['LOYALTY_PROGRAM', 'REFERRAL_PROGRAM', 'PROMOTION'] as const)(
    'refuses a %s campaign with 400 campaign_type_is_not_supported_by_campaign_template',
    async (type) => {
      const { api, create } = await setup();
      const campaign = await newCampaign(api, campaignBodies[type](type));
      const reply = await create({ name: 'T', campaign_id: campaign.id });
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({
        key: 'campaign_type_is_not_supported_by_campaign_template',
        message: 'Campaign of the given type is not supported by campaign template',
      });
    },
  );

  it('refuses both sources, or neither, with 400 invalid_payload saying which rule was broken', async () => {
    const { api, create } = await setup();
    const campaign = await newCampaign(api);
    const both = await create({ name: 'T', campaign_id: campaign.id, promotion_tier_id: 'promo_x' });
    expect(both.status).toBe(400);
    expect(both.json).toMatchObject({ key: 'invalid_payload', details: 'campaign_id and promotion_tier_id must not be sent together: pass one of them' });
    for (const body of [{ name: 'T' }, { name: 'T', campaign_id: null, promotion_tier_id: null }]) {
      const neither = await create(body);
      expect(neither.status).toBe(400);
      expect(neither.json).toMatchObject({ key: 'invalid_payload', details: 'Either campaign_id or promotion_tier_id is required' });
    }
    const noName = await create({ campaign_id: campaign.id });
    expect(noName.status).toBe(400);
    expect(noName.json.details).toContain('.name');
    // A key the body does not document is ignored (issue 33).
    expect((await create({ name: 'T2', campaign_id: campaign.id, extra: 1 })).status).toBe(200);
  });

  it('answers 404 for an unknown campaign or promotion tier', async () => {
    const { create } = await setup();
    const campaign = await create({ name: 'T', campaign_id: 'camp_unknown' });
    expect(campaign.status).toBe(404);
    expect(campaign.json).toMatchObject({ key: 'not_found', resource_id: 'camp_unknown', resource_type: 'campaign' });
    const tier = await create({ name: 'T', promotion_tier_id: 'promo_unknown' });
    expect(tier.status).toBe(404);
    expect(tier.json).toMatchObject({ key: 'not_found', resource_id: 'promo_unknown', resource_type: 'promotion_tier' });
  });

  it('refuses a duplicate name with 409, also when 10 requests race for it', async () => {
    const { api, create } = await setup();
    const campaign = await newCampaign(api);
    expect((await create({ name: 'Once', campaign_id: campaign.id })).status).toBe(200);
    const again = await create({ name: 'Once', campaign_id: campaign.id });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ key: 'duplicate_found', resource_id: 'Once', resource_type: 'campaign_template' });
    const race = await Promise.all(Array.from({ length: 10 }, () => create({ name: 'Race', campaign_id: campaign.id })));
    expect(race.filter((r) => r.status === 200)).toHaveLength(1);
    expect(race.filter((r) => r.status === 409)).toHaveLength(9);
  });
});
