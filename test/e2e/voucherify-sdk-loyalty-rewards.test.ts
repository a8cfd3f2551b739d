import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject, type IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import { type OwnLocalRuntime, startLocalWithOwnQueue } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let pair: IssuedKeyPair;
let client: ReturnType<typeof VoucherifyServerSide>;

/**
 * Spending points through the official SDK against the whole local runtime: a member's rewards,
 * redeeming one, and the rollback that refunds it.
 */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-loyalty-rewards');
  pair = await createProject(testRuntime(), 'sdk loyalty rewards project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: spending loyalty points on rewards', () => {
  it('lists a member rewards (affordable only), redeems one for points and refunds them on rollback', async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK rewards club',
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    } as unknown as Parameters<typeof client.campaigns.create>[0]);
    await client.campaigns.addVoucher(campaign.id, { code: 'SDK-SPEND-1' } as never);
    await client.distributions.publications.create({ voucher: 'SDK-SPEND-1', customer: { source_id: 'sdk-spender' } } as never);
    await client.loyalties.addOrRemoveCardBalance('SDK-SPEND-1', { points: 300 }, campaign.id);
    const mug = await client.rewards.create({ name: 'Mug', type: 'MATERIAL', parameters: { product: { id: 'prod_mug' } }, stock: 2 } as never);
    const bike = await client.rewards.create({ name: 'Bike', type: 'MATERIAL', parameters: { product: { id: 'prod_bike' } } } as never);
    await client.rewards.createAssignment(mug.id, { campaign: campaign.id, parameters: { loyalty: { points: 120 } } });
    await client.rewards.createAssignment(bike.id, { campaign: campaign.id, parameters: { loyalty: { points: 5000 } } });

    const all = await client.loyalties.listMemberRewards('SDK-SPEND-1');
    expect(all).toMatchObject({ object: 'list', data_ref: 'data', total: 2 });
    expect(all.data.map((d) => d.reward.id).sort()).toEqual([mug.id, bike.id].sort());
    const affordable = await client.loyalties.listMemberRewards('SDK-SPEND-1', { affordable_only: true });
    expect(affordable.data.map((d) => d.reward.id)).toEqual([mug.id]);

    const redemption = await client.loyalties.redeemReward(campaign.id, 'SDK-SPEND-1', { reward: { id: mug.id } });
    expect(redemption).toMatchObject({
      object: 'redemption',
      result: 'SUCCESS',
      voucher: { code: 'SDK-SPEND-1', loyalty_card: { balance: 180 } },
      reward: { id: mug.id, type: 'MATERIAL' },
    });
    await expect(client.loyalties.redeemReward(campaign.id, 'SDK-SPEND-1', { reward: { id: bike.id } })).rejects.toMatchObject({
      code: 400,
      key: 'loyalty_card_points_exceeded',
    });
    await client.redemptions.rollback(redemption.id);
    const card = await client.vouchers.get('SDK-SPEND-1');
    expect(card.loyalty_card).toMatchObject({ balance: 300 });
  });

  it('pays a reward with a loyalty card through redemptions.redeemStackable (POST /v1/redemptions)', async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK stackable rewards club',
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    } as unknown as Parameters<typeof client.campaigns.create>[0]);
    await client.campaigns.addVoucher(campaign.id, { code: 'SDK-STACK-SPEND' } as never);
    await client.loyalties.addOrRemoveCardBalance('SDK-STACK-SPEND', { points: 200 }, campaign.id);
    const cap = await client.rewards.create({ name: 'Cap', type: 'MATERIAL', parameters: { product: { id: 'prod_cap' } } } as never);
    await client.rewards.createAssignment(cap.id, { campaign: campaign.id, parameters: { loyalty: { points: 75 } } });

    const reply = await client.redemptions.redeemStackable({
      redeemables: [{ object: 'voucher', id: 'SDK-STACK-SPEND', reward: { id: cap.id } }],
    } as never);
    expect(reply.redemptions).toHaveLength(1);
    expect(reply.redemptions[0]).toMatchObject({ result: 'SUCCESS', voucher: { code: 'SDK-STACK-SPEND' }, reward: { id: cap.id } });
    const card = await client.vouchers.get('SDK-STACK-SPEND');
    expect(card.loyalty_card).toMatchObject({ balance: 125 });
  });
});
