import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { rewardAssignmentReplySchema } from '../../../lib/rewards/reward.reply.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { rewardApi, rewardBodies } from '../../support/rewards-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 7, 1, 10, 0, 0);

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const api = rewardApi(runtime, pair);
  const campaigns = campaignApi(runtime, pair);
  const loyalty = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Club'));
  const reward = await api.createReward(rewardBodies.MATERIAL());
  expect(reward.status).toBe(200);
  return { runtime, pair, api, campaigns, loyaltyId: loyalty.id as string, rewardId: reward.json.id as string };
}

const cost = (campaign: string, points: unknown = 39) => ({ campaign, parameters: { loyalty: { points } } });

describe('POST /v1/rewards/{rewardId}/assignments', () => {
  it('assigns a reward to a loyalty program and replies with the reward assignment object', async () => {
    const { api, loyaltyId, rewardId } = await setup();
    const reply = await api.assign(rewardId, cost(loyaltyId));
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      id: expect.stringMatching(/^rewa_[0-9A-Za-z]{24}$/),
      reward_id: rewardId,
      related_object_id: loyaltyId,
      related_object_type: 'campaign',
      parameters: { loyalty: { points: 39 } },
      created_at: new Date(at).toISOString(),
      updated_at: null,
      object: 'reward_assignment',
    });
    rewardAssignmentReplySchema.parse(reply.json);
  });

  it('accepts auto_redeem false or null (there is no automatic redemption) and refuses true and validation rules', async () => {
    const { api, campaigns, loyaltyId, rewardId } = await setup();
    expect((await api.assign(rewardId, { campaign: loyaltyId, parameters: { loyalty: { points: 5, auto_redeem: false } } })).status).toBe(200);
    const second = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Second club'));
    expect((await api.assign(rewardId, { campaign: second.id, parameters: { loyalty: { points: 5, auto_redeem: null } } })).status).toBe(200);
    const third = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Third club'));
    const auto = await api.assign(rewardId, { campaign: third.id, parameters: { loyalty: { points: 5, auto_redeem: true } } });
    expect(auto.status).toBe(400);
    expect(auto.json.details).toContain('.parameters.loyalty.auto_redeem must be false or null');
    const rules = await api.assign(rewardId, { ...cost(third.id as string), validation_rules: ['val_1'] });
    expect(rules.status).toBe(400);
    expect(rules.json.details).toContain('.validation_rules must be empty');
  });

  it('accepts the campaign by name and replies with its id', async () => {
    const { api, loyaltyId, rewardId } = await setup();
    const reply = await api.assign(rewardId, cost('Club'));
    expect(reply.status).toBe(200);
    expect(reply.json.related_object_id).toBe(loyaltyId);
  });

  it('assigns one reward to several loyalty programs, and several rewards to one program', async () => {
    const { api, campaigns, loyaltyId, rewardId } = await setup();
    const second = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Second club'));
    const otherReward = await api.createReward(rewardBodies.COIN());
    expect((await api.assign(rewardId, cost(loyaltyId))).status).toBe(200);
    expect((await api.assign(rewardId, cost(second.id as string))).status).toBe(200);
    expect((await api.assign(otherReward.json.id as string, cost(loyaltyId))).status).toBe(200);
  });

  it('refuses the same reward on the same campaign twice with 409 duplicate_found naming the first assignment', async () => {
    const { api, loyaltyId, rewardId } = await setup();
    const first = await api.assign(rewardId, cost(loyaltyId, 10));
    // By name this time: still the same campaign.
    const again = await api.assign(rewardId, cost('Club', 20));
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({
      code: 409,
      key: 'duplicate_found',
      message: 'Duplicated resource found',
      details: `Duplicated reward_assignment exists with id ${first.json.id as string}`,
      resource_id: first.json.id,
      resource_type: 'reward_assignment',
    });
  });

  it('gives exactly one 200 when 20 requests assign the same reward to the same campaign at once', async () => {
    const { api, loyaltyId, rewardId } = await setup();
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => api.assign(rewardId, cost(loyaltyId, i + 1))));
    const winners = replies.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    const losers = replies.filter((r) => r.status === 409);
    expect(losers).toHaveLength(19);
    for (const loser of losers) expect(loser.json.resource_id).toBe(winners[0]?.json.id);
  });

  it('answers 404 reward for an unknown reward, before looking at the campaign', async () => {
    const { api } = await setup();
    const reply = await api.assign('rew_missing', cost('camp_missing'));
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({
      key: 'not_found',
      details: 'Cannot find reward with id rew_missing',
      resource_id: 'rew_missing',
      resource_type: 'reward',
    });
  });

  it('answers 404 campaign for an unknown campaign', async () => {
    const { api, rewardId } = await setup();
    const reply = await api.assign(rewardId, cost('camp_missing'));
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ key: 'not_found', resource_id: 'camp_missing', resource_type: 'campaign' });
  });

  it('refuses a campaign that is not a loyalty program with 400 invalid_campaign', async () => {
    const { api, campaigns, rewardId } = await setup();
    for (const body of [
      campaignBodies.DISCOUNT_COUPONS('Coupons'),
      campaignBodies.GIFT_VOUCHERS('Gifts'),
      campaignBodies.REFERRAL_PROGRAM('Refs'),
      campaignBodies.PROMOTION('Promo'),
    ]) {
      const campaign = await newCampaign(campaigns, body);
      const reply = await api.assign(rewardId, cost(campaign.id as string));
      expect(reply.status, body.campaign_type).toBe(400);
      expect(reply.json.key).toBe('invalid_campaign');
      expect(reply.json.details).toContain(body.campaign_type);
    }
  });

  it("does not see another project's reward or campaign", async () => {
    const { runtime, api, loyaltyId, rewardId } = await setup();
    const otherPair = await newProject(runtime);
    const other = rewardApi(runtime, otherPair);
    expect((await other.assign(rewardId, cost(loyaltyId))).json.resource_type).toBe('reward');
    const theirReward = await other.createReward(rewardBodies.COIN());
    expect((await other.assign(theirReward.json.id as string, cost(loyaltyId))).json.resource_type).toBe('campaign');
    expect((await api.assign(rewardId, cost(loyaltyId))).status).toBe(200);
  });

  it.each([
    ['no campaign', { parameters: { loyalty: { points: 1 } } }, '.campaign'],
    ['no parameters', { campaign: 'Club' }, '.parameters'],
    ['no parameters.loyalty', { campaign: 'Club', parameters: {} }, '.parameters.loyalty'],
    ['no points', { campaign: 'Club', parameters: { loyalty: {} } }, '.parameters.loyalty.points'],
    ['zero points', cost('Club', 0), '.parameters.loyalty.points'],
    ['negative points', cost('Club', -3), '.parameters.loyalty.points'],
    ['fractional points', cost('Club', 1.5), '.parameters.loyalty.points'],
    ['points as a string', cost('Club', '10'), '.parameters.loyalty.points'],
  ])('refuses %s with 400 invalid_payload naming the property', async (_what, body, property) => {
    const { api, rewardId } = await setup();
    const reply = await api.assign(rewardId, body);
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('invalid_payload');
    expect(reply.json.details).toContain(property);
  });
});
