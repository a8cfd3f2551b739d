import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { rewardApi } from '../../support/rewards-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 7, 4, 9, 0, 0);
type Event = { id: string; type: string; created_at: string; data: { data: Record<string, unknown> } };

/** CARD-1 of Club is published to `ann`, gets 500 points, loses 20, pays a reward with 100 and the reward's redemption is rolled back: one second apart. */
async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  const rewards = rewardApi(runtime, pair);
  const ok = async (id: string, opts: Parameters<typeof api.call>[1]) => {
    clock.advance(1000);
    const reply = await api.call(id, opts);
    if (reply.status >= 300) throw new Error(`${id}: ${reply.status} ${JSON.stringify(reply.json)}`);
    return reply.json as Record<string, unknown>;
  };
  const program = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Club'));
  const other = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Other'));
  await campaigns.addVoucher('Club', { code: 'CARD-1' });
  await campaigns.addVoucher('Club', { code: 'CARD-2' });
  const reward = await rewards.createReward({ name: 'Mug', type: 'MATERIAL', parameters: { product: { id: 'prod_mug' } } });
  await rewards.assign(reward.json.id as string, { campaign: program.id, parameters: { loyalty: { points: 100 } } });
  await ok('create-publication', { json: { customer: { source_id: 'ann' }, voucher: 'CARD-1' } });
  await ok('update-loyalty-card-balance', { params: { memberId: 'CARD-1' }, json: { points: 500 } });
  await ok('update-loyalty-card-balance', { params: { memberId: 'CARD-1' }, json: { points: -20 } });
  const redeemed = await ok('redeem-reward', { params: { memberId: 'CARD-1' }, json: { reward: { id: reward.json.id } } });
  await ok('rollback-redemption', { params: { redemptionId: redeemed.id as string } });
  // Another card's changes are not this card's activity.
  await ok('update-loyalty-card-balance', { params: { memberId: 'CARD-2' }, json: { points: 7 } });
  return { api, program, other };
}

describe('GET /v1/loyalties/members/{memberId}/activity and /v1/loyalties/{campaignId}/members/{memberId}/activity', () => {
  it('lists what happened to the card newest first, in both path forms, and pages through it', async () => {
    const { api, program } = await setup();
    const first = await api.call('list-member-activity', { params: { memberId: 'CARD-1' } });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const types = (first.json.data as Event[]).map((e) => e.type);
    // A rollback's refund and its record share a moment; the points a reward took are told by its redemption.
    expect(types).toEqual([
      'customer.voucher.loyalty_card.points_added',
      'customer.redemption.rollback.succeeded',
      'customer.redemption.succeeded',
      'customer.loyalty.updated',
      'customer.voucher.loyalty_card.points_added',
      'customer.publication.succeeded',
    ]);
    const byProgram = await api.call('list-member-activity-1', { params: { campaignId: program.id as string, memberId: 'CARD-1' } });
    expect(byProgram.json.data).toEqual(first.json.data);
    const seen: string[] = [];
    let after = '';
    for (let round = 0; round < 10; round++) {
      const page = await api.call('list-member-activity', {
        params: { memberId: 'CARD-1' },
        query: `limit=2&order=created_at${after ? `&starting_after_id=${after}` : ''}`,
      });
      seen.push(...(page.json.data as Event[]).map((e) => e.type));
      if (!page.json.has_more) break;
      after = page.json.more_starting_after as string;
    }
    expect(seen).toEqual([...types].reverse());
  });

  it('answers 404 for an unknown card, or a card of another program', async () => {
    const { api, other } = await setup();
    const missing = await api.call('list-member-activity', { params: { memberId: 'NOPE' } });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ key: 'not_found', resource_type: 'voucher' });
    const elsewhere = await api.call('list-member-activity-1', { params: { campaignId: other.id as string, memberId: 'CARD-1' } });
    expect(elsewhere.status).toBe(404);
  });
});
