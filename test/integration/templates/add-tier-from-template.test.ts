import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { MAX_PROMOTION_TIERS } from '../../../lib/campaigns/campaign.js';
import { apiClient } from '../../support/api-client.js';
import { campaignBodies } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 4, 1);

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const source = await api.call('create-campaign', {
    json: {
      name: 'Source',
      campaign_type: 'DISCOUNT_COUPONS',
      start_date: '2026-06-01T00:00:00.000Z',
      metadata: { kind: 'coupon' },
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 300, effect: 'APPLY_TO_ORDER' } },
    },
  });
  const template = await api.call('create-campaign-template', { json: { name: 'Coupon', campaign_id: source.json.id } });
  expect(template.status).toBe(200);
  const promotion = await api.call('create-campaign', { json: campaignBodies.PROMOTION('Promo') });
  expect(promotion.status).toBe(200);
  const templateId = template.json.id as string;
  const addTier = (json: unknown, id = templateId) => api.call('add-tier-from-template', { params: { campaignTemplateId: id }, json });
  return { runtime, api, templateId, promotion: promotion.json, addTier };
}

type Tier = { id: string; name: string; hierarchy: number };

describe('POST /v1/templates/campaigns/{campaignTemplateId}/tier-setup', () => {
  it("adds a tier with the template's discount, validity and metadata after the promotion's tiers; the campaign shows it", async () => {
    const { api, promotion, addTier } = await setup();
    const before = (promotion.promotion as { tiers: Tier[] }).tiers;
    const reply = await addTier({ campaign_id: promotion.id, name: 'From template', banner: 'Save 3' });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      created_resources: [],
      object: 'promotion_tier_setup',
      promotion_tier: {
        id: expect.stringMatching(/^promo_/),
        name: 'From template',
        banner: 'Save 3',
        action: { discount: { type: 'AMOUNT', amount_off: 300, effect: 'APPLY_TO_ORDER' } },
        metadata: { kind: 'coupon' },
        hierarchy: Math.max(...before.map((t) => t.hierarchy)) + 1,
        start_date: '2026-06-01T00:00:00.000Z',
        campaign_id: promotion.id,
        active: true,
        object: 'promotion_tier',
      },
    });
    const tier = reply.json.promotion_tier as Tier;
    const campaign = await api.call('get-campaign', { params: { campaignId: 'Promo' } });
    const tiers = (campaign.json.promotion as { tiers: Tier[]; total: number }).tiers;
    expect(tiers.map((t) => t.id)).toEqual([...before.map((t) => t.id), tier.id]);
    expect(tiers.at(-1)).toEqual(reply.json.promotion_tier);
    // The tier is found by id like the others (its pointer was written): a template can be made from it.
    const again = await api.call('create-campaign-template', { json: { name: 'From new tier', promotion_tier_id: tier.id } });
    expect(again.status).toBe(200);
  });

  it('overrides what the request sends (by campaign name): hierarchy, active, metadata, dates (null clears)', async () => {
    const { addTier } = await setup();
    const reply = await addTier({ campaign_id: 'Promo', name: 'T', hierarchy: 7, active: false, metadata: { a: 1 }, start_date: null });
    expect(reply.status).toBe(200);
    expect(reply.json.promotion_tier).toMatchObject({ hierarchy: 7, active: false, metadata: { a: 1 } });
    expect(reply.json.promotion_tier).not.toHaveProperty('start_date');
  });

  it('adds every one of 10 concurrent tiers exactly once, with distinct default hierarchies', async () => {
    const { api, promotion, addTier } = await setup();
    const before = (promotion.promotion as { tiers: Tier[] }).tiers;
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => addTier({ campaign_id: promotion.id, name: `T${i}` })));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const tiers = ((await api.call('get-campaign', { params: { campaignId: 'Promo' } })).json.promotion as { tiers: Tier[] }).tiers;
    expect(tiers).toHaveLength(before.length + 10);
    expect(new Set(tiers.map((t) => t.hierarchy)).size).toBe(tiers.length);
    expect(new Set(tiers.map((t) => t.name))).toEqual(new Set([...before.map((t) => t.name), ...Array.from({ length: 10 }, (_, i) => `T${i}`)]));
  });

  it('refuses a campaign that is not a promotion, a full promotion, and a gift template with 400', async () => {
    const { api, addTier } = await setup();
    const coupons = await addTier({ campaign_id: 'Source', name: 'T' });
    expect(coupons.status).toBe(400);
    expect(coupons.json).toMatchObject({
      key: 'invalid_campaign',
      details: 'Campaign Source is DISCOUNT_COUPONS: promotion tiers are added to PROMOTION campaigns',
    });
    const fullTiers = Array.from({ length: MAX_PROMOTION_TIERS }, (_, i) => ({ name: `F${i}`, action: { discount: { type: 'PERCENT', percent_off: 5 } } }));
    expect((await api.call('create-campaign', { json: { name: 'Full', campaign_type: 'PROMOTION', promotion: { tiers: fullTiers } } })).status).toBe(200);
    const full = await addTier({ campaign_id: 'Full', name: 'One more' });
    expect(full.status).toBe(400);
    expect(full.json).toMatchObject({ key: 'invalid_campaign', details: `A promotion has at most ${MAX_PROMOTION_TIERS} tiers` });
    const gifts = await api.call('create-campaign', { json: campaignBodies.GIFT_VOUCHERS('Gifts') });
    const giftTemplate = await api.call('create-campaign-template', { json: { name: 'Gift', campaign_id: gifts.json.id } });
    const gift = await addTier({ campaign_id: 'Promo', name: 'T' }, giftTemplate.json.id as string);
    expect(gift.status).toBe(400);
    expect(gift.json.key).toBe('invalid_payload');
  });

  it('answers 404 for an unknown template or campaign, 400 for a body without campaign_id or name or with a category', async () => {
    const { addTier } = await setup();
    const template = await addTier({ campaign_id: 'Promo', name: 'T' }, 'camp_tpl_unknown');
    expect(template.status).toBe(404);
    expect(template.json).toMatchObject({ resource_type: 'campaign_template', resource_id: 'camp_tpl_unknown' });
    const campaign = await addTier({ campaign_id: 'camp_unknown', name: 'T' });
    expect(campaign.status).toBe(404);
    expect(campaign.json).toMatchObject({ resource_type: 'campaign', resource_id: 'camp_unknown' });
    for (const json of [{ name: 'T' }, { campaign_id: 'Promo' }, { campaign_id: 'Promo', name: 'T', category: 'X' }]) {
      const bad = await addTier(json);
      expect(bad.status).toBe(400);
      expect(bad.json.key).toBe('invalid_payload');
    }
  });
});
