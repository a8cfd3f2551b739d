import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { rewardListReplySchema, rewardReplySchema } from '../../../lib/rewards/reward.reply.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { rewardApi, rewardBodies } from '../../support/rewards-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 7, 3, 10, 0, 0);
const MINUTE = 60_000;

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const rewards = rewardApi(runtime, pair);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  const club = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Club'));
  const create = async (body: unknown) => {
    const reply = await rewards.createReward(body);
    expect(reply.status).toBe(200);
    return reply.json.id as string;
  };
  return { clock, runtime, pair, rewards, api, campaigns, clubId: club.id as string, create };
}

describe('GET /v1/rewards', () => {
  it('lists the project’s rewards oldest first, one page at a time, with the total', async () => {
    const { api, clock, create } = await setup();
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) {
      ids.push(await create(rewardBodies.COIN(name)));
      clock.advance(MINUTE);
    }
    const first = await api.call('list-rewards', { query: 'limit=2' });
    expect(first.status).toBe(200);
    expect(rewardListReplySchema.parse(first.json)).toMatchObject({ object: 'list', data_ref: 'data', total: 3 });
    expect((first.json.data as { id: string }[]).map((r) => r.id)).toEqual(ids.slice(0, 2));
    const second = await api.call('list-rewards', { query: 'limit=2&page=2' });
    expect((second.json.data as { id: string }[]).map((r) => r.id)).toEqual(ids.slice(2));
    expect((await api.call('list-rewards', { query: 'page=3' })).json).toMatchObject({ data: [], total: 3 });
  });

  it('gives the reward of one assignment with assignment_id, and none for an unknown one', async () => {
    const { api, rewards, clubId, create } = await setup();
    await create(rewardBodies.COIN('Other'));
    const rewardId = await create(rewardBodies.MATERIAL());
    const assignment = await rewards.assign(rewardId, { campaign: clubId, parameters: { loyalty: { points: 10 } } });
    const one = await api.call('list-rewards', { query: `assignment_id=${assignment.json.id as string}` });
    expect(one.json).toMatchObject({ total: 1, data: [{ id: rewardId }] });
    expect((await api.call('list-rewards', { query: 'assignment_id=rewa_missing' })).json).toMatchObject({ total: 0, data: [] });
  });

  it('refuses a limit or page out of range', async () => {
    const { api } = await setup();
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=101']) {
      const reply = await api.call('list-rewards', { query });
      expect(reply.status, query).toBe(400);
      expect(reply.json.key, query).toBe('invalid_query_params');
    }
  });
});

describe('PUT /v1/rewards/{rewardId}', () => {
  it('updates a material reward’s name, stock, attributes and metadata and stamps updated_at', async () => {
    const { api, clock, create } = await setup();
    const id = await create(rewardBodies.MATERIAL());
    clock.advance(MINUTE);
    const reply = await api.call('update-reward', {
      params: { rewardId: id },
      json: {
        name: 'Comic book, signed',
        stock: 5,
        attributes: { description: 'Signed' },
        metadata: { shelf: 'C' },
        parameters: { product: { id: 'prod_2' } },
      },
    });
    expect(reply.status).toBe(200);
    expect(rewardReplySchema.parse(reply.json)).toMatchObject({
      id,
      name: 'Comic book, signed',
      type: 'MATERIAL',
      stock: 5,
      attributes: { image_url: 'https://img.example.com/comic.png', description: 'Signed' },
      metadata: { shelf: 'C' },
      parameters: { product: { id: 'prod_2', sku_id: null } },
      updated_at: new Date(at + MINUTE).toISOString(),
    });
    expect((await api.call('get-reward', { params: { rewardId: id } })).json).toEqual(reply.json);
  });

  it('updates a coin reward’s ratios and a campaign reward’s balance, checked as on creation', async () => {
    const { api, campaigns, create } = await setup();
    const coin = await create(rewardBodies.COIN());
    const coinReply = await api.call('update-reward', { params: { rewardId: coin }, json: { parameters: { coin: { exchange_ratio: '0.5' } } } });
    expect(coinReply.json.parameters).toEqual({ coin: { exchange_ratio: 0.5, points_ratio: 8000 } });
    const gift = await newCampaign(campaigns, campaignBodies.GIFT_VOUCHERS('Gifts'));
    const giftReward = await create(rewardBodies.CAMPAIGN(gift.id as string, 100));
    const more = await api.call('update-reward', { params: { rewardId: giftReward }, json: { parameters: { campaign: { id: gift.id, balance: 250 } } } });
    expect(more.json.parameters).toEqual({ campaign: { id: gift.id, balance: 250, type: 'GIFT_VOUCHERS' } });
    const zero = await api.call('update-reward', { params: { rewardId: giftReward }, json: { parameters: { campaign: { id: gift.id, balance: 0 } } } });
    expect(zero.status).toBe(400);
    expect(zero.json.key).toBe('invalid_balance');
    const missing = await api.call('update-reward', {
      params: { rewardId: giftReward },
      json: { parameters: { campaign: { id: 'camp_missing', balance: 5 } } },
    });
    expect(missing.status).toBe(404);
    expect(missing.json.resource_type).toBe('campaign');
  });

  it('refuses parameters of another type and stock on a non-material reward, keeps the type; 404 for an unknown reward', async () => {
    const { api, create } = await setup();
    const coin = await create(rewardBodies.COIN());
    const other = await api.call('update-reward', { params: { rewardId: coin }, json: { parameters: { product: { id: 'prod_1' } } } });
    expect(other.status).toBe(400);
    expect(other.json.key).toBe('invalid_payload');
    expect((await api.call('update-reward', { params: { rewardId: coin }, json: { stock: 3 } })).status).toBe(400);
    // `type` is not in the update body: ignored like any key the schema does not take, so the type stays (issue 33).
    const typed = await api.call('update-reward', { params: { rewardId: coin }, json: { type: 'MATERIAL' } });
    expect(typed.status).toBe(200);
    expect(typed.json.type).toBe('COIN');
    const unknown = await api.call('update-reward', { params: { rewardId: 'rew_missing' }, json: { name: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'reward', resource_id: 'rew_missing' });
  });
});

describe('DELETE /v1/rewards/{rewardId}', () => {
  it('deletes an unassigned reward: gone from get and list; a second delete answers 404', async () => {
    const { api, create } = await setup();
    const id = await create(rewardBodies.COIN());
    expect((await api.call('delete-reward', { params: { rewardId: id } })).status).toBe(204);
    expect((await api.call('get-reward', { params: { rewardId: id } })).status).toBe(404);
    expect((await api.call('list-rewards')).json).toMatchObject({ total: 0, data: [] });
    const again = await api.call('delete-reward', { params: { rewardId: id } });
    expect(again.status).toBe(404);
    expect(again.json.resource_type).toBe('reward');
  });

  it('refuses to delete an assigned reward with 400 resource_in_use naming the assignment, and deletes it once the assignment is gone', async () => {
    const { api, rewards, clubId, create } = await setup();
    const id = await create(rewardBodies.MATERIAL());
    const assignment = (await rewards.assign(id, { campaign: clubId, parameters: { loyalty: { points: 10 } } })).json.id as string;
    const refused = await api.call('delete-reward', { params: { rewardId: id } });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ key: 'resource_in_use', resource_type: 'reward', resource_id: id });
    expect(refused.json.details).toContain(assignment);
    expect((await api.call('delete-reward-assignment', { params: { rewardId: id, assignmentId: assignment } })).status).toBe(204);
    expect((await api.call('delete-reward', { params: { rewardId: id } })).status).toBe(204);
  });

  it('never both deletes a reward and assigns it when the two race', async () => {
    const { api, rewards, campaigns, create } = await setup();
    const id = await create(rewardBodies.COIN());
    const clubs = await Promise.all(['R1', 'R2', 'R3', 'R4', 'R5'].map((name) => newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM(name))));
    const [deleted, ...assigned] = await Promise.all([
      api.call('delete-reward', { params: { rewardId: id } }),
      ...clubs.map((c) => rewards.assign(id, { campaign: c.id, parameters: { loyalty: { points: 5 } } })),
    ]);
    const won = assigned.filter((r) => r.status === 200).length;
    if (deleted?.status === 204) {
      expect(won).toBe(0);
      expect((await api.call('list-reward-assignments', { params: { rewardId: id } })).status).toBe(404);
    } else {
      expect(deleted?.status).toBe(400);
      expect(won).toBeGreaterThan(0);
    }
    for (const reply of assigned) expect([200, 404]).toContain(reply.status);
  });
});
