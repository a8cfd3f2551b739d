import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { rewardApi } from '../../support/rewards-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/** An order within every bound of the request schema (500 lines, 1,000-character ids) but over what one stored record may hold. */
const hugeOrder = {
  items: Array.from({ length: 500 }, (_, i) => ({ product_id: `${i}-${'p'.repeat(990)}`, sku_id: `${i}-${'s'.repeat(990)}`, quantity: 1, price: 100 })),
};

describe('a reward redemption too large to store (issue 41 item 5)', () => {
  it('answers 400 invalid_payload and takes no points, instead of a DynamoDB 500', async () => {
    const runtime = testRuntime({ clock: new ManualClock(Date.UTC(2026, 1, 10)) });
    const pair = await newProject(runtime);
    const api = apiClient({ runtime }, keyPairHeaders(pair));
    const campaigns = campaignApi(runtime, pair);
    const program = await newCampaign(campaigns, {
      name: 'Club',
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    });
    await campaigns.addVoucher('Club', { code: 'CARD-1' });
    expect((await api.call('create-publication', { json: { voucher: 'CARD-1', customer: { source_id: 'c1' } } })).status).toBe(200);
    expect((await loyaltyApi(runtime, pair).updateBalance('Club', 'CARD-1', { points: 500, expiration_type: 'NON_EXPIRING' })).status).toBe(200);
    const rewards = rewardApi(runtime, pair);
    // Pay with points: the only reward whose redemption stores the order it is given.
    const reward = await rewards.createReward({ name: 'Coins', type: 'COIN', parameters: { coin: { exchange_ratio: 1, points_ratio: 1 } } });
    expect((await rewards.assign(reward.json.id as string, { campaign: program.id, parameters: { loyalty: { points: 1 } } })).status).toBe(200);

    const reply = await api.call('redeem-reward', { params: { memberId: 'CARD-1' }, json: { reward: { id: reward.json.id, points: 10 }, order: hugeOrder } });
    expect({ status: reply.status, key: reply.json.key }).toEqual({ status: 400, key: 'invalid_payload' });
    expect(String(reply.json.details)).toMatch(/cannot be stored/);
    const card = (await campaigns.getVoucher('CARD-1')).json.loyalty_card as { balance: number };
    expect(card.balance).toBe(500);
  }, 60_000);
});
