import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { getRewardAssignmentOfPair } from '../../../lib/rewards/reward.repo.js';
import { rewardAssignmentListReplySchema, rewardAssignmentReplySchema } from '../../../lib/rewards/reward.reply.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { rewardApi, rewardBodies } from '../../support/rewards-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 7, 4, 10, 0, 0);
const MINUTE = 60_000;

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const rewards = rewardApi(runtime, pair);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  const club = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Club'));
  const clubId = club.id as string;
  const reward = async (name = 'Prize') => {
    const reply = await rewards.createReward(rewardBodies.COIN(name));
    expect(reply.status).toBe(200);
    return reply.json.id as string;
  };
  const assign = async (rewardId: string, campaign = clubId, points = 10) => {
    const reply = await rewards.assign(rewardId, { campaign, parameters: { loyalty: { points } } });
    expect(reply.status).toBe(200);
    return reply.json.id as string;
  };
  return { clock, runtime, pair, api, campaigns, clubId, reward, assign };
}

describe('GET /v1/rewards/{rewardId}/assignments', () => {
  it('lists a reward’s assignments oldest first, paged, with the total; 404 for an unknown reward', async () => {
    const { api, campaigns, clock, reward, assign } = await setup();
    const id = await reward();
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) {
      const club = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM(name));
      ids.push(await assign(id, club.id as string));
      clock.advance(MINUTE);
    }
    const page = await api.call('list-reward-assignments', { params: { rewardId: id }, query: 'limit=2&page=2' });
    expect(page.status).toBe(200);
    expect(rewardAssignmentListReplySchema.parse(page.json)).toMatchObject({ total: 3, data: [{ id: ids[2] }] });
    const all = rewardAssignmentListReplySchema.parse((await api.call('list-reward-assignments', { params: { rewardId: id } })).json);
    expect(all.data.map((a) => a.id)).toEqual(ids);
    const unknown = await api.call('list-reward-assignments', { params: { rewardId: 'rew_missing' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json.resource_type).toBe('reward');
    expect((await api.call('list-reward-assignments', { params: { rewardId: id }, query: 'limit=500' })).status).toBe(400);
  });
});

describe('GET, PUT and DELETE /v1/rewards/{rewardId}/assignments/{assignmentId}', () => {
  it('gets an assignment; 404 reward_assignment for an unknown one or one of another reward', async () => {
    const { api, reward, assign } = await setup();
    const id = await reward();
    const other = await reward('Other');
    const assignment = await assign(id);
    const got = await api.call('get-reward-assignment', { params: { rewardId: id, assignmentId: assignment } });
    expect(rewardAssignmentReplySchema.parse(got.json)).toMatchObject({ id: assignment, reward_id: id, parameters: { loyalty: { points: 10 } } });
    const elsewhere = await api.call('get-reward-assignment', { params: { rewardId: other, assignmentId: assignment } });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.json).toMatchObject({ resource_type: 'reward_assignment', resource_id: assignment });
    expect((await api.call('get-reward-assignment', { params: { rewardId: 'rew_missing', assignmentId: assignment } })).json.resource_type).toBe('reward');
  });

  it('changes the price in points and stamps updated_at; refuses a bad price and auto_redeem true', async () => {
    const { api, clock, runtime, pair, clubId, reward, assign } = await setup();
    const id = await reward();
    const assignment = await assign(id);
    clock.advance(MINUTE);
    const reply = await api.call('update-reward-assignment', {
      params: { rewardId: id, assignmentId: assignment },
      json: { parameters: { loyalty: { points: 25, auto_redeem: false } } },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ parameters: { loyalty: { points: 25 } }, updated_at: new Date(at + MINUTE).toISOString() });
    expect((await api.call('get-reward-assignment', { params: { rewardId: id, assignmentId: assignment } })).json).toEqual(reply.json);
    // The (reward, program) copy a redemption reads carries the new price too.
    expect((await getRewardAssignmentOfPair(runtime, pair.project_id, id, clubId))?.points).toBe(25);
    for (const loyalty of [{ points: 0 }, { points: 1.5 }, { points: 5, auto_redeem: true }]) {
      const bad = await api.call('update-reward-assignment', { params: { rewardId: id, assignmentId: assignment }, json: { parameters: { loyalty } } });
      expect(bad.status, JSON.stringify(loyalty)).toBe(400);
    }
  });

  it('deletes an assignment: it is found neither by id nor by its reward and program, and the reward can be assigned there again', async () => {
    const { api, runtime, pair, clubId, reward, assign } = await setup();
    const id = await reward();
    const assignment = await assign(id);
    expect((await api.call('delete-reward-assignment', { params: { rewardId: id, assignmentId: assignment } })).status).toBe(204);
    expect((await api.call('get-reward-assignment', { params: { rewardId: id, assignmentId: assignment } })).status).toBe(404);
    expect(await getRewardAssignmentOfPair(runtime, pair.project_id, id, clubId)).toBeNull();
    expect((await api.call('list-reward-assignments', { params: { rewardId: id } })).json).toMatchObject({ total: 0 });
    const again = await api.call('delete-reward-assignment', { params: { rewardId: id, assignmentId: assignment } });
    expect(again.status).toBe(404);
    expect(again.json.resource_type).toBe('reward_assignment');
    expect(await assign(id)).not.toBe(assignment);
  });

  it('deletes an assignment once when 10 deletes race', async () => {
    const { api, reward, assign } = await setup();
    const id = await reward();
    const assignment = await assign(id);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => api.call('delete-reward-assignment', { params: { rewardId: id, assignmentId: assignment } })),
    );
    expect(replies.filter((r) => r.status === 204)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 404)).toHaveLength(9);
    // The reward's count went down once: it can be deleted now.
    expect((await api.call('delete-reward', { params: { rewardId: id } })).status).toBe(204);
  });
});

describe('the loyalty-path aliases /v1/loyalties/{campaignId}/rewards', () => {
  it('assigns, lists, gets, updates and deletes a program’s reward assignments', async () => {
    const { api, clubId, reward } = await setup();
    const id = await reward();
    const made = await api.call('create-reward-assignment-1', {
      params: { campaignId: 'Club' },
      json: [{ reward: id, parameters: { loyalty: { points: 30 } } }],
    });
    expect(made.status).toBe(200);
    const assignment = rewardAssignmentReplySchema.parse(made.json);
    expect(assignment).toMatchObject({ reward_id: id, related_object_id: clubId, parameters: { loyalty: { points: 30 } } });
    const params = { campaignId: clubId, assignmentId: assignment.id };

    const list = await api.call('list-reward-assignments-2', { params: { campaignId: 'Club' } });
    expect(rewardAssignmentListReplySchema.parse(list.json)).toMatchObject({ total: 1, data: [{ id: assignment.id }] });
    const filtered = await api.call('list-reward-assignments-2', { params: { campaignId: 'Club' }, query: 'assignment_id=rewa_other' });
    expect(filtered.json).toMatchObject({ total: 0, data: [] });
    expect((await api.call('get-reward-assignment-2', { params })).json.id).toBe(assignment.id);
    const updated = await api.call('update-reward-assignment-1', { params, json: { parameters: { loyalty: { points: 35 } } } });
    expect(updated.json).toMatchObject({ parameters: { loyalty: { points: 35 } } });
    expect((await api.call('delete-reward-assignment-1', { params })).status).toBe(204);
    expect((await api.call('get-reward-assignment-2', { params })).status).toBe(404);
  });

  it('answers 409 for a reward already on the program, 404 for an unknown reward or program, and refuses two items', async () => {
    const { api, campaigns, reward, assign } = await setup();
    const id = await reward();
    const existing = await assign(id);
    const duplicate = await api.call('create-reward-assignment-1', {
      params: { campaignId: 'Club' },
      json: [{ reward: id, parameters: { loyalty: { points: 1 } } }],
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json.resource_id).toBe(existing);
    const unknownReward = await api.call('create-reward-assignment-1', {
      params: { campaignId: 'Club' },
      json: [{ reward: 'rew_missing', parameters: { loyalty: { points: 1 } } }],
    });
    expect(unknownReward.json.resource_type).toBe('reward');
    const two = [1, 2].map(() => ({ reward: id, parameters: { loyalty: { points: 1 } } }));
    expect((await api.call('create-reward-assignment-1', { params: { campaignId: 'Club' }, json: two })).status).toBe(400);
    expect((await api.call('list-reward-assignments-2', { params: { campaignId: 'Nope' } })).json.resource_type).toBe('campaign');
    await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Coupons'));
    expect((await api.call('get-reward-assignment-2', { params: { campaignId: 'Coupons', assignmentId: existing } })).status).toBe(404);
    const other = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Other club'));
    const elsewhere = await api.call('delete-reward-assignment-1', { params: { campaignId: other.id as string, assignmentId: existing } });
    expect(elsewhere.json.resource_type).toBe('reward_assignment');
  });
});
