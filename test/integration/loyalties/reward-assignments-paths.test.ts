import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { rewardAssignmentListReplySchema, rewardAssignmentReplySchema, rewardReplySchema } from '../../../lib/rewards/reward.reply.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { rewardApi, rewardBodies } from '../../support/rewards-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/**
 * list-reward-assignments-1, get-reward-assignment-1 and get-reward-details (issue 37): the
 * `/v1/loyalties/{campaignId}/reward-assignments` forms, answering as the `…/rewards` forms do.
 */

const MINUTE = 60_000;

async function setup() {
  const clock = new ManualClock(Date.UTC(2026, 7, 4, 10, 0, 0));
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const rewards = rewardApi(runtime, pair);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  const clubId = (await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Club'))).id as string;
  const otherId = (await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Other'))).id as string;
  const assigned = async (body: Record<string, unknown>, campaign = clubId) => {
    const reward = (await rewards.createReward(body)).json.id as string;
    const reply = await rewards.assign(reward, { campaign, parameters: { loyalty: { points: 10 } } });
    expect(reply.status).toBe(200);
    clock.advance(MINUTE);
    return { reward, assignment: reply.json.id as string };
  };
  return { api, campaigns, clubId, otherId, assigned };
}

describe('GET /v1/loyalties/{campaignId}/reward-assignments', () => {
  it('lists the program’s assignments oldest first, paged, as …/rewards does; `assignmentId` picks one', async () => {
    const { api, otherId, assigned } = await setup();
    const a = await assigned(rewardBodies.COIN('A'));
    const b = await assigned(rewardBodies.MATERIAL('B'));
    await assigned(rewardBodies.COIN('Elsewhere'), otherId);
    const c = await assigned(rewardBodies.COIN('C'));
    const all = await api.call('list-reward-assignments-1', { params: { campaignId: 'Club' } });
    expect(all.status).toBe(200);
    const list = rewardAssignmentListReplySchema.parse(all.json);
    expect(list).toMatchObject({ object: 'list', data_ref: 'data', total: 3 });
    expect(list.data.map((x) => x.id)).toEqual([a.assignment, b.assignment, c.assignment]);
    expect(all.json).toEqual((await api.call('list-reward-assignments-2', { params: { campaignId: 'Club' } })).json);
    const page = await api.call('list-reward-assignments-1', { params: { campaignId: 'Club' }, query: 'limit=2&page=2' });
    expect(page.json).toMatchObject({ total: 3, data: [{ id: c.assignment }] });
    const one = await api.call('list-reward-assignments-1', { params: { campaignId: 'Club' }, query: `assignmentId=${b.assignment}` });
    expect(one.json).toMatchObject({ total: 1, data: [{ id: b.assignment }] });
    const elsewhere = await api.call('list-reward-assignments-1', { params: { campaignId: 'Other' }, query: `assignmentId=${b.assignment}` });
    expect(elsewhere.json).toMatchObject({ total: 0, data: [] });
  });

  it('is 404 campaign for an unknown program and for a campaign of another type', async () => {
    const { api, campaigns } = await setup();
    await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Coupons'));
    for (const ref of ['Nope', 'Coupons']) {
      const reply = await api.call('list-reward-assignments-1', { params: { campaignId: ref } });
      expect(reply.status, ref).toBe(404);
      expect(reply.json).toMatchObject({ key: 'not_found', resource_type: 'campaign' });
    }
  });
});

describe('GET /v1/loyalties/{campaignId}/reward-assignments/{assignmentId}[/reward]', () => {
  it('gets the assignment and the reward it gives', async () => {
    const { api, clubId, assigned } = await setup();
    const { reward, assignment } = await assigned(rewardBodies.MATERIAL('Comic'));
    const params = { campaignId: clubId, assignmentId: assignment };
    const got = await api.call('get-reward-assignment-1', { params });
    expect(got.status).toBe(200);
    expect(rewardAssignmentReplySchema.parse(got.json)).toMatchObject({ id: assignment, reward_id: reward, related_object_id: clubId });
    expect(got.json).toEqual((await api.call('get-reward-assignment-2', { params })).json);

    const details = await api.call('get-reward-details', { params: { campaignId: 'Club', assignmentId: assignment } });
    expect(details.status).toBe(200);
    expect(rewardReplySchema.parse(details.json)).toMatchObject({ id: reward, name: 'Comic', type: 'MATERIAL' });
    expect(details.json).toEqual((await api.call('get-reward', { params: { rewardId: reward } })).json);
  });

  it('is 404 reward_assignment for an assignment of another program or none, 404 campaign for no program', async () => {
    const { api, otherId, assigned } = await setup();
    const { assignment } = await assigned(rewardBodies.COIN('Elsewhere'), otherId);
    for (const id of ['get-reward-assignment-1', 'get-reward-details']) {
      const wrongProgram = await api.call(id, { params: { campaignId: 'Club', assignmentId: assignment } });
      expect(wrongProgram.status, id).toBe(404);
      expect(wrongProgram.json).toMatchObject({ resource_type: 'reward_assignment', resource_id: assignment });
      expect((await api.call(id, { params: { campaignId: 'Club', assignmentId: 'rewa_missing' } })).json.resource_type).toBe('reward_assignment');
      expect((await api.call(id, { params: { campaignId: 'Nope', assignmentId: assignment } })).json.resource_type).toBe('campaign');
    }
  });
});
