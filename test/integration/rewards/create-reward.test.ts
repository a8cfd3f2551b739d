import { describe, expect, it } from 'vitest';
import { setKeyPermissions } from '../../../lib/app-keys/app-key.service.js';
import { ManualClock } from '../../../lib/clock.js';
import { rewardReplySchema } from '../../../lib/rewards/reward.reply.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { rewardApi, rewardBodies } from '../../support/rewards-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 3, 1, 9, 30, 0);

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  return { runtime, pair, api: rewardApi(runtime, pair), campaigns: campaignApi(runtime, pair) };
}

describe('POST /v1/rewards', () => {
  it('creates a MATERIAL reward and replies with the full reward object, which GET returns unchanged', async () => {
    const { api } = await setup();
    const reply = await api.createReward(rewardBodies.MATERIAL());
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      id: expect.stringMatching(/^rew_[0-9A-Za-z]{24}$/),
      name: 'Comic book',
      type: 'MATERIAL',
      parameters: { product: { id: 'prod_comic', sku_id: 'sku_comic_1' } },
      stock: 2,
      redeemed: null,
      attributes: { image_url: 'https://img.example.com/comic.png', description: 'Issue 1' },
      metadata: { shelf: 'B' },
      created_at: new Date(at).toISOString(),
      updated_at: null,
      object: 'reward',
    });
    rewardReplySchema.parse(reply.json);
    const read = await api.getReward(reply.json.id as string);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(reply.json);
  });

  it('defaults a MATERIAL reward to no stock, no SKU, no attributes and empty metadata', async () => {
    const { api } = await setup();
    const reply = await api.createReward({ name: 'Mug', type: 'MATERIAL', parameters: { product: { id: 'prod_mug' } } });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ parameters: { product: { id: 'prod_mug', sku_id: null } }, stock: null, attributes: {}, metadata: {} });
    rewardReplySchema.parse(reply.json);
  });

  it("takes the JS SDK's product.sku as sku_id", async () => {
    const { api } = await setup();
    const reply = await api.createReward({ name: 'Mug', type: 'MATERIAL', parameters: { product: { id: 'prod_mug', sku: 'sku_red' } } });
    expect(reply.status).toBe(200);
    expect(reply.json.parameters).toEqual({ product: { id: 'prod_mug', sku_id: 'sku_red' } });
  });

  it('creates a COIN reward, taking the ratios as numbers or numeric strings and points_ratio 1 by default', async () => {
    const { api } = await setup();
    const numbers = await api.createReward(rewardBodies.COIN());
    expect(numbers.status).toBe(200);
    expect(numbers.json).toMatchObject({ type: 'COIN', parameters: { coin: { exchange_ratio: 900, points_ratio: 8000 } }, stock: null, attributes: {} });
    rewardReplySchema.parse(numbers.json);
    const strings = await api.createReward({ name: 'Coins', type: 'COIN', parameters: { coin: { exchange_ratio: '0.5' } } });
    expect(strings.status).toBe(200);
    expect(strings.json.parameters).toEqual({ coin: { exchange_ratio: 0.5, points_ratio: 1 } });
  });

  it('creates CAMPAIGN rewards from gift and loyalty campaigns with a balance, naming the campaign type', async () => {
    const { api, campaigns } = await setup();
    const gift = await newCampaign(campaigns, campaignBodies.GIFT_VOUCHERS('Gift cards'));
    const loyalty = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Club'));
    const giftReward = await api.createReward(rewardBodies.CAMPAIGN(gift.id as string, 3000));
    expect(giftReward.status).toBe(200);
    expect(giftReward.json.parameters).toEqual({ campaign: { id: gift.id, balance: 3000, type: 'GIFT_VOUCHERS' } });
    rewardReplySchema.parse(giftReward.json);
    // A campaign may also be named by its name; the reward keeps its id.
    const pointsReward = await api.createReward(rewardBodies.CAMPAIGN('Club', 100));
    expect(pointsReward.status).toBe(200);
    expect(pointsReward.json.parameters).toEqual({ campaign: { id: loyalty.id, balance: 100, type: 'LOYALTY_PROGRAM' } });
  });

  it('creates a discount-coupon CAMPAIGN reward without a balance and refuses one with a balance (invalid_balance)', async () => {
    const { api, campaigns } = await setup();
    const coupons = await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Coupons'));
    const ok = await api.createReward(rewardBodies.CAMPAIGN(coupons.id as string));
    expect(ok.status).toBe(200);
    expect(ok.json.parameters).toEqual({ campaign: { id: coupons.id, type: 'DISCOUNT_COUPONS' } });
    const refused = await api.createReward(rewardBodies.CAMPAIGN(coupons.id as string, 100));
    expect(refused.status).toBe(400);
    expect(refused.json.key).toBe('invalid_balance');
  });

  it.each([[undefined], [0], [-5]])('refuses a gift or loyalty CAMPAIGN reward with balance %j (invalid_balance)', async (balance) => {
    const { api, campaigns } = await setup();
    const gift = await newCampaign(campaigns, campaignBodies.GIFT_VOUCHERS('Gift'));
    const loyalty = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Loyal'));
    for (const campaign of [gift, loyalty]) {
      const reply = await api.createReward(rewardBodies.CAMPAIGN(campaign.id as string, balance));
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({
        key: 'invalid_balance',
        message: "Property 'parameters.campaign.balance' is invalid",
        details: `Property 'parameters.campaign.balance' must be greater than zero for campaign type: ${campaign.campaign_type as string}`,
      });
    }
  });

  it('refuses a CAMPAIGN reward from an unknown campaign with 404 campaign', async () => {
    const { api } = await setup();
    const reply = await api.createReward(rewardBodies.CAMPAIGN('camp_missing', 10));
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ key: 'not_found', resource_type: 'campaign', resource_id: 'camp_missing' });
  });

  it('refuses a CAMPAIGN reward from a referral program or a promotion with 400 invalid_campaign', async () => {
    const { api, campaigns } = await setup();
    for (const body of [campaignBodies.REFERRAL_PROGRAM('Refer'), campaignBodies.PROMOTION('Promo')]) {
      const campaign = await newCampaign(campaigns, body);
      const reply = await api.createReward(rewardBodies.CAMPAIGN(campaign.id as string, 10));
      expect(reply.status).toBe(400);
      expect(reply.json.key).toBe('invalid_campaign');
    }
  });

  it('infers the type from parameters when it is not sent, and refuses a type that does not match them', async () => {
    const { api } = await setup();
    const inferred = await api.createReward({ name: 'Coins', parameters: { coin: { exchange_ratio: 1 } } });
    expect(inferred.status).toBe(200);
    expect(inferred.json.type).toBe('COIN');
    const mismatch = await api.createReward({ name: 'Odd', type: 'COIN', parameters: { product: { id: 'prod_1' } } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.key).toBe('invalid_payload');
    const none = await api.createReward({ name: 'Nothing', parameters: {} });
    expect(none.status).toBe(400);
    expect(none.json.details).toContain('.type');
  });

  it.each([
    ['no name', { type: 'COIN', parameters: { coin: { exchange_ratio: 1 } } }, '.name'],
    ['negative stock', { name: 'x', type: 'MATERIAL', parameters: { product: { id: 'p' } }, stock: -1 }, '.stock'],
    ['a zero exchange ratio', { name: 'x', type: 'COIN', parameters: { coin: { exchange_ratio: 0 } } }, '.parameters.coin.exchange_ratio'],
    ['a fractional points ratio', { name: 'x', type: 'COIN', parameters: { coin: { exchange_ratio: 1, points_ratio: 1.5 } } }, '.parameters.coin.points_ratio'],
    ['a product without id', { name: 'x', type: 'MATERIAL', parameters: { product: {} } }, '.parameters.product.id'],
    [
      'an image_url that is not a URL',
      { name: 'x', type: 'MATERIAL', parameters: { product: { id: 'p' } }, attributes: { image_url: 'nope' } },
      '.attributes.image_url',
    ],
    ['an unknown type', { name: 'x', type: 'VOUCHER', parameters: { coin: { exchange_ratio: 1 } } }, '.type'],
    [
      'a metadata number the table cannot store',
      { name: 'x', type: 'COIN', parameters: { coin: { exchange_ratio: 1 } }, metadata: { n: 2 ** 60 } },
      '.metadata.n',
    ],
  ])('refuses %s with 400 invalid_payload naming the property', async (_what, body, property) => {
    const { api } = await setup();
    const reply = await api.createReward(body);
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('invalid_payload');
    expect(reply.json.details).toContain(property);
  });

  it('needs the rewards scope (or api): a key limited to vouchers gets 403', async () => {
    const { runtime, pair, api } = await setup();
    await setKeyPermissions(runtime, pair.app_id, ['vouchers']);
    const denied = await api.createReward(rewardBodies.COIN());
    expect(denied.status).toBe(403);
    expect(denied.json.key).toBe('missing_required_permission');
    await setKeyPermissions(runtime, pair.app_id, ['rewards']);
    expect((await api.createReward(rewardBodies.COIN())).status).toBe(200);
  });
});

describe('GET /v1/rewards/{rewardId}', () => {
  it('answers 404 for an unknown reward, and for a reward of another project', async () => {
    const { runtime, api } = await setup();
    const missing = await api.getReward('rew_missing');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({
      code: 404,
      key: 'not_found',
      message: 'Resource not found',
      details: 'Cannot find reward with id rew_missing',
      resource_id: 'rew_missing',
      resource_type: 'reward',
    });
    const other = rewardApi(runtime, await newProject(runtime));
    const theirs = await other.createReward(rewardBodies.COIN());
    expect((await api.getReward(theirs.json.id as string)).status).toBe(404);
  });
});
