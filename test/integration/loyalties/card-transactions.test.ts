import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 1, 10, 12, 0, 0);

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  const campaign = await newCampaign(campaigns, {
    name: 'Club',
    campaign_type: 'LOYALTY_PROGRAM',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  });
  const card = (await campaigns.addVoucher('Club', { code: 'CARD-1' })).json;
  const transactions = () => listCardTransactions(runtime, pair.project_id, card.id as string);
  return { clock, loyalty, campaign, card, transactions };
}

describe('POST /v1/loyalties/{campaignId}/members/{memberId}/balance: the card transaction', () => {
  it('keeps the reason and source_id of each balance change, oldest first, with the points, total and balance after it', async () => {
    const { clock, loyalty, campaign, card, transactions } = await setup();
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: 50, reason: 'Welcome bonus', source_id: 'crm-17' })).status).toBe(200);
    clock.advance(60_000);
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: -20, reason: 'Correction' })).status).toBe(200);
    const createdAt = new Date(at).toISOString();
    expect(await transactions()).toEqual([
      expect.objectContaining({
        campaignId: campaign.id,
        voucherId: card.id,
        type: 'POINTS_ADDITION',
        source: 'API',
        reason: 'Welcome bonus',
        sourceId: 'crm-17',
        points: 50,
        total: 50,
        balance: 50,
        createdAt,
      }),
      expect.objectContaining({
        type: 'POINTS_REMOVAL',
        reason: 'Correction',
        sourceId: null,
        points: -20,
        total: 50,
        balance: 30,
        createdAt: new Date(at + 60_000).toISOString(),
      }),
    ]);
    expect((await transactions()).every((t) => t.id.startsWith('vtx_'))).toBe(true);
  });

  it('records nothing for a change that is refused', async () => {
    const { loyalty, transactions } = await setup();
    const reply = await loyalty.updateBalance('Club', 'CARD-1', { points: -5, reason: 'Too much' });
    expect(reply.status).toBe(400);
    expect(await transactions()).toEqual([]);
  });

  it('records one transaction per change when ten changes race for the card', async () => {
    const { loyalty, transactions } = await setup();
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => loyalty.updateBalance('Club', 'CARD-1', { points: 1, source_id: `s-${i}` })));
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const recorded = await transactions();
    expect(recorded.map((t) => t.sourceId).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `s-${i}`).sort());
    expect(recorded.map((t) => t.balance).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
