import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { rewardAssignment, rewardAssignmentPair, voucher as voucherEntity } from '../../../lib/db/entities.js';
import { ManualClock } from '../../../lib/clock.js';
import { memberRewardListReplySchema, rewardRedemptionReplySchema } from '../../../lib/redemptions/redemption.reply.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { rewardApi } from '../../support/rewards-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 1, 10, 12, 0, 0); // 2026-02-10

/**
 * A loyalty program "Club" with card CARD-1 published to customer c1 and holding `points`
 * (non-expiring unless `expiring`), a discount campaign "Coupons", and helpers.
 */
async function setup(points = 1000) {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  const rewards = rewardApi(runtime, pair);
  const program = await newCampaign(campaigns, {
    name: 'Club',
    campaign_type: 'LOYALTY_PROGRAM',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  });
  const card = (await campaigns.addVoucher('Club', { code: 'CARD-1' })).json;
  const published = await api.call('create-publication', { json: { voucher: 'CARD-1', customer: { source_id: 'c1' } } });
  expect(published.status).toBe(200);
  if (points > 0) expect((await loyalty.updateBalance('Club', 'CARD-1', { points, expiration_type: 'NON_EXPIRING' })).status).toBe(200);
  const coupons = await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Coupons'));
  /** A reward assigned to Club at `price` points. */
  const priced = async (body: Record<string, unknown>, price: number): Promise<string> => {
    const reward = await rewards.createReward(body);
    expect(reward.status).toBe(200);
    const id = reward.json.id as string;
    expect((await rewards.assign(id, { campaign: program.id, parameters: { loyalty: { points: price } } })).status).toBe(200);
    return id;
  };
  const material = (stock: number | null = null) => ({ name: 'Mug', type: 'MATERIAL', parameters: { product: { id: 'prod_mug' } }, stock });
  const redeem = (rewardId: string, member = 'CARD-1', headers: Record<string, string> = {}) =>
    api.call('redeem-reward', { params: { memberId: member }, json: { reward: { id: rewardId } }, headers: { ...keyPairHeaders(pair), ...headers } });
  const cardOf = async () => (await campaigns.getVoucher('CARD-1')).json.loyalty_card as Record<string, unknown>;
  return { clock, runtime, pair, api, campaigns, loyalty, rewards, program, card, coupons, priced, material, redeem, cardOf };
}

describe('POST /v1/loyalties/members/{memberId}/redemption', () => {
  it('pays a MATERIAL reward with the card points and records the redemption, the product and the card transaction', async () => {
    const { api, priced, material, redeem, cardOf, card, program } = await setup(250);
    const rewardId = await priced(material(), 100);
    const reply = await redeem(rewardId);
    expect(reply.status).toBe(200);
    const body = rewardRedemptionReplySchema.parse(reply.json);
    expect(body).toMatchObject({
      object: 'redemption',
      result: 'SUCCESS',
      status: 'SUCCEEDED',
      amount: 100,
      related_object_type: 'voucher',
      related_object_id: card.id,
      loyalty_card: { points: 100 },
      voucher: { code: 'CARD-1', loyalty_card: { balance: 150 } },
      reward: { id: rewardId, type: 'MATERIAL', product: { id: 'prod_mug', object: 'product' }, voucher: null, customer: { source_id: 'c1' } },
    });
    expect(await cardOf()).toMatchObject({ balance: 150, points: 250, subtracted_points: 100 });
    const listed = await api.call('list-redemptions', { query: `campaign=${program.id}` });
    expect((listed.json.redemptions as Record<string, unknown>[]).map((r) => r.id)).toContain(body.id);
    const transactions = await api.call('list-voucher-transactions', { params: { code: 'CARD-1' } });
    expect(transactions.status).toBe(200);
    expect((transactions.json.data as Record<string, unknown>[]).map((t) => [t.type, (t.details as { balance: { points: number } }).balance.points])).toEqual(
      expect.arrayContaining([['POINTS_REDEMPTION', -100]]),
    );
  });

  it('redeems with the program named in the path, and refuses a card of another program as not found', async () => {
    const { api, priced, material, program, campaigns } = await setup(300);
    const rewardId = await priced(material(), 100);
    const ok = await api.call('redeem-reward-1', { params: { campaignId: program.id as string, memberId: 'CARD-1' }, json: { reward: { id: rewardId } } });
    expect(ok.status).toBe(200);
    await newCampaign(campaigns, { ...campaignBodies.LOYALTY_PROGRAM('Other') });
    const other = await api.call('redeem-reward-1', { params: { campaignId: 'Other', memberId: 'CARD-1' }, json: { reward: { id: rewardId } } });
    expect(other.status).toBe(404);
    expect(other.json).toMatchObject({ key: 'not_found', resource_type: 'voucher' });
  });

  it('publishes a voucher of a CAMPAIGN reward to the card holder', async () => {
    const { priced, redeem, coupons, cardOf } = await setup(500);
    const rewardId = await priced({ name: '10% coupon', type: 'CAMPAIGN', parameters: { campaign: { id: coupons.id } } }, 200);
    const reply = await redeem(rewardId);
    expect(reply.status).toBe(200);
    const body = rewardRedemptionReplySchema.parse(reply.json);
    expect(body.reward.voucher).toMatchObject({ campaign_id: coupons.id, holder_id: body.customer_id });
    expect(await cardOf()).toMatchObject({ balance: 300 });
  });

  it("adds a gift reward's credits to the holder's gift card, publishing one the first time", async () => {
    const { priced, redeem, campaigns, api } = await setup(500);
    const gifts = await newCampaign(campaigns, campaignBodies.GIFT_VOUCHERS('Gifts'));
    const rewardId = await priced({ name: '10 credit', type: 'CAMPAIGN', parameters: { campaign: { id: gifts.id, balance: 1000 } } }, 100);
    const first = rewardRedemptionReplySchema.parse((await redeem(rewardId)).json);
    const code = first.reward.voucher?.code as string;
    expect(first.reward.voucher).toMatchObject({ campaign_id: gifts.id, gift: { balance: 6000 } });
    const second = rewardRedemptionReplySchema.parse((await redeem(rewardId)).json);
    expect(second.reward.voucher?.code).toBe(code);
    expect((await api.call('get-voucher', { params: { code } })).json).toMatchObject({ gift: { amount: 7000, balance: 7000 } });
  });

  it("adds a loyalty reward's points to the holder's card of the other program", async () => {
    const { priced, redeem, campaigns, api } = await setup(500);
    const partners = await newCampaign(campaigns, {
      name: 'Partners',
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    });
    const rewardId = await priced({ name: '50 partner points', type: 'CAMPAIGN', parameters: { campaign: { id: partners.id, balance: 50 } } }, 100);
    const body = rewardRedemptionReplySchema.parse((await redeem(rewardId)).json);
    const code = body.reward.voucher?.code as string;
    expect((await api.call('get-voucher', { params: { code } })).json).toMatchObject({ campaign_id: partners.id, loyalty_card: { balance: 50, points: 50 } });
    const transactions = await api.call('list-voucher-transactions', { params: { code } });
    expect((transactions.json.data as Record<string, unknown>[]).map((t) => [t.type, t.source_id])).toEqual([['POINTS_ADDITION', body.id]]);
  });

  it('pays part of a new order with a COIN reward at its ratio, and the whole of it when no points are named', async () => {
    const { api, rewards, program, cardOf, pair } = await setup(1000);
    const coin = (await rewards.createReward({ name: 'Pay with points', type: 'COIN', parameters: { coin: { exchange_ratio: 1, points_ratio: 2 } } })).json
      .id as string;
    await rewards.assign(coin, { campaign: program.id, parameters: { loyalty: { points: 1 } } });
    const pay = (json: unknown) => api.call('redeem-reward', { params: { memberId: 'CARD-1' }, json, headers: keyPairHeaders(pair) });
    const part = await pay({ reward: { id: coin, points: 100 }, order: { source_id: 'coin-order-1', amount: 45_000 } });
    expect(part.status).toBe(200);
    const body = rewardRedemptionReplySchema.parse(part.json);
    expect(body).toMatchObject({ amount: 100, loyalty_card: { points: 100 }, order: { source_id: 'coin-order-1', amount: 45_000, total_amount: 40_000 } });
    expect(await cardOf()).toMatchObject({ balance: 900 });
    const stored = await api.call('get-order', { params: { orderId: body.order?.id as string } });
    expect(stored.status).toBe(200);
    const whole = await pay({ reward: { id: coin }, order: { items: [{ product_id: 'p1', quantity: 2, price: 1_500 }] } });
    expect(whole.status).toBe(200);
    expect(whole.json).toMatchObject({ amount: 60, order: { amount: 3_000, total_amount: 0 } });
    expect(await cardOf()).toMatchObject({ balance: 840 });
    const again = await pay({ reward: { id: coin, points: 10 }, order: { source_id: 'coin-order-1', amount: 100 } });
    expect(again.status).toBe(409);
    expect(await cardOf()).toMatchObject({ balance: 840 });
  });

  it('takes only the points a COIN discount uses when more are named, on both redemption routes, and refuses more than the balance (issue 41 item 1)', async () => {
    const { api, rewards, program, cardOf } = await setup(1000);
    const coin = (await rewards.createReward({ name: 'One point, one unit', type: 'COIN', parameters: { coin: { exchange_ratio: 1, points_ratio: 1 } } })).json
      .id as string;
    await rewards.assign(coin, { campaign: program.id, parameters: { loyalty: { points: 1 } } });
    const redemptionTransactions = async () =>
      ((await api.call('list-voucher-transactions', { params: { code: 'CARD-1' } })).json.data as Record<string, unknown>[])
        .filter((t) => t.type === 'POINTS_REDEMPTION')
        .map((t) => (t.details as { balance: { points: number; balance: number } }).balance);
    // An order of 10.00 at 1.00 a point needs 10 points: the other 490 named stay on the card.
    const direct = await api.call('redeem-reward', { params: { memberId: 'CARD-1' }, json: { reward: { id: coin, points: 500 }, order: { amount: 1_000 } } });
    expect(direct.status).toBe(200);
    expect(direct.json).toMatchObject({ amount: 10, loyalty_card: { points: 10 }, order: { amount: 1_000, total_amount: 0 } });
    expect(await cardOf()).toMatchObject({ balance: 990, subtracted_points: 10 });
    expect(await redemptionTransactions()).toEqual([expect.objectContaining({ points: -10, balance: 990 })]);
    const stacked = await api.call('redeem-stacked-discounts', {
      json: { redeemables: [{ object: 'voucher', id: 'CARD-1', reward: { id: coin, points: 500 } }], order: { amount: 1_000 } },
    });
    expect(stacked.status).toBe(200);
    expect((stacked.json.redemptions as Record<string, unknown>[])[0]).toMatchObject({ amount: 10, loyalty_card: { points: 10 } });
    expect(await cardOf()).toMatchObject({ balance: 980, subtracted_points: 20 });
    const records = await redemptionTransactions();
    expect(records.map((r) => [r.points, r.balance]).sort()).toEqual([
      [-10, 980],
      [-10, 990],
    ]);
    // More points named than the card holds: refused as the reference says, even though the order needs fewer.
    const beyond = await api.call('redeem-reward', { params: { memberId: 'CARD-1' }, json: { reward: { id: coin, points: 981 }, order: { amount: 1_000 } } });
    expect(beyond.status).toBe(400);
    expect(beyond.json.key).toBe('loyalty_card_points_exceeded');
    // An order of 0 has nothing to pay (issue 41 item 8).
    const nothing = await api.call('redeem-reward', { params: { memberId: 'CARD-1' }, json: { reward: { id: coin, points: 5 }, order: { amount: 0 } } });
    expect([nothing.status, nothing.json.key]).toEqual([400, 'invalid_amount']);
    expect(await cardOf()).toMatchObject({ balance: 980 });
  });

  it('answers each refusal with the reference error key and changes nothing', async () => {
    const { api, priced, material, redeem, cardOf, rewards, coupons, program } = await setup(50);
    const pricey = await priced(material(), 100);
    const missing = await api.call('redeem-reward', { params: { memberId: 'CARD-1' }, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.key).toBe('missing_reward');
    const exceeded = await redeem(pricey);
    expect(exceeded.status).toBe(400);
    expect(exceeded.json.key).toBe('loyalty_card_points_exceeded');
    const unknownCard = await redeem(pricey, 'NO-SUCH-CARD');
    expect(unknownCard.status).toBe(404);
    expect(unknownCard.json).toMatchObject({ key: 'not_found', resource_type: 'voucher' });
    const unknownReward = await redeem('rew_nope');
    expect(unknownReward.status).toBe(404);
    expect(unknownReward.json).toMatchObject({ key: 'not_found', resource_type: 'reward' });
    const unassigned = (await rewards.createReward(material())).json.id as string;
    const notAssigned = await redeem(unassigned);
    expect(notAssigned.status).toBe(404);
    expect(notAssigned.json).toMatchObject({ key: 'not_found', resource_type: 'reward' });
    const coin = (await rewards.createReward({ name: 'Coins', type: 'COIN', parameters: { coin: { exchange_ratio: 1 } } })).json.id as string;
    await rewards.assign(coin, { campaign: program.id, parameters: { loyalty: { points: 1 } } });
    const noOrder = await redeem(coin);
    expect(noOrder.status).toBe(400);
    expect(noOrder.json.key).toBe('missing_order');
    expect(coupons.id).toBeDefined();
    expect(await cardOf()).toMatchObject({ balance: 50, subtracted_points: 0 });
  });

  it('lets exactly 10 of 20 parallel redemptions of a 100-point reward through a 1,000-point card, leaving 0', async () => {
    const { priced, material, redeem, cardOf, api, program } = await setup(1000);
    const rewardId = await priced(material(), 100);
    const replies = await Promise.all(Array.from({ length: 20 }, () => redeem(rewardId)));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(replies.filter((r) => r.status !== 200).every((r) => r.status === 400 && r.json.key === 'loyalty_card_points_exceeded')).toBe(true);
    expect(await cardOf()).toMatchObject({ balance: 0, subtracted_points: 1000 });
    const listed = await api.call('list-redemptions', { query: `campaign=${program.id}&limit=100` });
    expect(listed.json.redemptions).toHaveLength(10);
  });

  it('gives out exactly the stock of a reward under 10 parallel redemptions', async () => {
    const { priced, material, redeem, cardOf, rewards } = await setup(1000);
    const rewardId = await priced(material(3), 10);
    const replies = await Promise.all(Array.from({ length: 10 }, () => redeem(rewardId)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(3);
    expect(replies.filter((r) => r.status !== 200).every((r) => r.status === 400 && r.json.key === 'quantity_exceeded')).toBe(true);
    expect(await cardOf()).toMatchObject({ balance: 970 });
    expect((await rewards.getReward(rewardId)).json).toMatchObject({ stock: 3, redeemed: 3 });
  });

  it('refunds the points when the redemption is rolled back, with a POINTS_REFUND transaction, once', async () => {
    const { api, priced, material, redeem, cardOf } = await setup(300);
    const rewardId = await priced(material(), 120);
    const redeemed = await redeem(rewardId);
    expect(await cardOf()).toMatchObject({ balance: 180 });
    const id = redeemed.json.id as string;
    const [a, b] = await Promise.all([
      api.call('rollback-redemption', { params: { redemptionId: id }, json: {} }),
      api.call('rollback-redemption', { params: { redemptionId: id }, json: {} }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    expect(await cardOf()).toMatchObject({ balance: 300, points: 420 });
    const transactions = await api.call('list-voucher-transactions', { params: { code: 'CARD-1' } });
    const types = (transactions.json.data as Record<string, unknown>[]).map((t) => t.type);
    expect(types.filter((t) => t === 'POINTS_REFUND')).toHaveLength(1);
    expect((await api.call('get-redemption', { params: { redemptionId: id } })).json.status).toBe('ROLLED_BACK');
  });

  it('replays the first reply for a retried Idempotency-Key and spends the points once', async () => {
    const { priced, material, redeem, cardOf } = await setup(300);
    const rewardId = await priced(material(), 100);
    const first = await redeem(rewardId, 'CARD-1', { 'idempotency-key': 'k-1' });
    const again = await redeem(rewardId, 'CARD-1', { 'idempotency-key': 'k-1' });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(first.json.id);
    expect(await cardOf()).toMatchObject({ balance: 200 });
  });
});

describe('POST /v1/loyalties/members/{memberId}/redemption: keys and deleted assignments', () => {
  it('spends the points once for parallel requests with one Idempotency-Key, and refuses the key with another body', async () => {
    const { priced, material, redeem, cardOf, api, pair } = await setup(300);
    const rewardId = await priced(material(), 100);
    const replies = await Promise.all(Array.from({ length: 5 }, () => redeem(rewardId, 'CARD-1', { 'idempotency-key': 'same' })));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(new Set(replies.map((r) => r.json.id)).size).toBe(1);
    expect(await cardOf()).toMatchObject({ balance: 200 });
    const other = await api.call('redeem-reward', {
      params: { memberId: 'CARD-1' },
      json: { reward: { id: rewardId }, metadata: { x: 1 } },
      headers: { ...keyPairHeaders(pair), 'idempotency-key': 'same' },
    });
    expect(other.status).toBe(422);
    expect(other.json.key).toBe('idempotency_key_reused');
  });

  it('refuses a reward whose assignment was deleted, and spends nothing', async () => {
    const { priced, material, redeem, cardOf, runtime, pair, program } = await setup(300);
    const rewardId = await priced(material(), 100);
    const a = await rewardAssignmentPair.get(runtime, rewardAssignmentPair.key(pair.project_id, rewardId, program.id as string));
    expect(a).not.toBeNull();
    await runtime.ddb.send(new DeleteCommand({ TableName: runtime.tableName, Key: rewardAssignmentPair.key(pair.project_id, rewardId, program.id as string) }));
    await runtime.ddb.send(new DeleteCommand({ TableName: runtime.tableName, Key: rewardAssignment.key(pair.project_id, a?.id as string) }));
    const reply = await redeem(rewardId);
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ key: 'not_found', resource_type: 'reward' });
    expect(await cardOf()).toMatchObject({ balance: 300 });
  });
});

describe('POST /v1/loyalties/members/{memberId}/redemption: an assignment deleted between the read and the commit', () => {
  it('fails the commit on the assignment condition and answers not_found, spending nothing', async () => {
    const { priced, material, redeem, cardOf, runtime, pair, program } = await setup(300);
    const rewardId = await priced(material(), 100);
    const key = rewardAssignmentPair.key(pair.project_id, rewardId, program.id as string);
    const send = runtime.ddb.send.bind(runtime.ddb);
    let deleted = false;
    runtime.ddb.send = (async (command: { constructor: { name: string } }) => {
      if (!deleted && command.constructor.name === 'TransactWriteCommand') {
        deleted = true;
        await send(new DeleteCommand({ TableName: runtime.tableName, Key: key }) as never);
      }
      return send(command as never);
    }) as typeof runtime.ddb.send;
    const reply = await redeem(rewardId);
    expect(deleted).toBe(true);
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ key: 'not_found', resource_type: 'reward' });
    runtime.ddb.send = send as typeof runtime.ddb.send;
    expect(await cardOf()).toMatchObject({ balance: 300 });
  });
});

describe('GET /v1/loyalties/members/{memberId}/rewards', () => {
  it("lists the program's rewards with their assignments, and with affordable_only those the balance covers", async () => {
    const { api, priced, material } = await setup(150);
    const cheap = await priced(material(), 100);
    const dear = await priced({ ...material(), name: 'Bike' }, 500);
    const all = await api.call('list-member-rewards', { params: { memberId: 'CARD-1' } });
    expect(all.status).toBe(200);
    const list = memberRewardListReplySchema.parse(all.json);
    expect(list.data.map((d) => d.reward.id).sort()).toEqual([cheap, dear].sort());
    expect(list.data.find((d) => d.reward.id === dear)).toMatchObject({
      object: 'loyalty_reward',
      assignment: { reward_id: dear, parameters: { loyalty: { points: 500 } } },
    });
    const affordable = await api.call('list-member-rewards', { params: { memberId: 'CARD-1' }, query: 'affordable_only=true' });
    expect((affordable.json.data as { reward: { id: string } }[]).map((d) => d.reward.id)).toEqual([cheap]);
    expect(affordable.json.total).toBe(1);
  });
});

describe('POST /v1/redemptions with a loyalty card and a reward (the reference’s RedeemLoyaltyCard)', () => {
  it('pays the reward through the same path: one redemption, the points taken, refunded by its rollback', async () => {
    const { api, priced, material, cardOf } = await setup(250);
    const rewardId = await priced(material(), 100);
    const reply = await api.call('redeem-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: 'CARD-1', reward: { id: rewardId } }] } });
    expect(reply.status).toBe(200);
    const redemptions = reply.json.redemptions as Record<string, unknown>[];
    expect(redemptions).toHaveLength(1);
    expect(redemptions[0]).toMatchObject({
      object: 'redemption',
      result: 'SUCCESS',
      amount: 100,
      loyalty_card: { points: 100 },
      voucher: { code: 'CARD-1' },
      reward: { id: rewardId, type: 'MATERIAL' },
    });
    expect(reply.json.parent_redemption).toBeUndefined();
    expect(await cardOf()).toMatchObject({ balance: 150 });
    const rolled = await api.call('rollback-redemption', { params: { redemptionId: redemptions[0]?.id as string }, json: {} });
    expect(rolled.status).toBe(200);
    expect(await cardOf()).toMatchObject({ balance: 250 });
  });

  it('refuses a reward it cannot pay (loyalty_card_points_exceeded), and a loyalty card with a reward stacked with other redeemables', async () => {
    const { api, priced, material } = await setup(50);
    const rewardId = await priced(material(), 100);
    const poor = await api.call('redeem-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: 'CARD-1', reward: { id: rewardId } }] } });
    expect(poor.status).toBe(400);
    expect(poor.json).toMatchObject({ key: 'loyalty_card_points_exceeded' });
    const stacked = await api.call('redeem-stacked-discounts', {
      json: {
        redeemables: [
          { object: 'voucher', id: 'CARD-1', reward: { id: rewardId } },
          { object: 'voucher', id: 'OTHER' },
        ],
      },
    });
    expect(stacked.status).toBe(400);
    expect(stacked.json).toMatchObject({ key: 'invalid_payload' });
  });

  it('replays a retried request with the same Idempotency-Key: the points are taken once, the first reply comes back', async () => {
    const { api, pair, priced, material, cardOf } = await setup(300);
    const rewardId = await priced(material(), 100);
    const send = () =>
      api.call('redeem-stacked-discounts', {
        headers: { ...keyPairHeaders(pair), 'idempotency-key': 'reward-via-redemptions-1' },
        json: { redeemables: [{ object: 'voucher', id: 'CARD-1', reward: { id: rewardId } }] },
      });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect((again.json.redemptions as { id: string }[])[0]?.id).toBe((first.json.redemptions as { id: string }[])[0]?.id);
    expect(await cardOf()).toMatchObject({ balance: 200 });
  });

  it('10 parallel reward redemptions of 100 points on a 500-point card through POST /v1/redemptions → exactly 5', async () => {
    const { api, priced, material, cardOf } = await setup(500);
    const rewardId = await priced(material(), 100);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.call('redeem-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: 'CARD-1', reward: { id: rewardId } }] } }),
      ),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(5);
    expect(await cardOf()).toMatchObject({ balance: 0 });
  });
});

describe('a reward paid with a card of a program that is disabled or deleted (issue 41 item 3)', () => {
  it('refuses it once the disable has answered: 400 campaign_not_active, no points taken, nothing stored; enabled again, it pays', async () => {
    const { api, priced, material, redeem, cardOf, program } = await setup(250);
    const rewardId = await priced(material(), 100);
    expect((await api.call('disable-campaign', { params: { campaignId: program.id as string } })).status).toBe(200);
    const replies = await Promise.all(Array.from({ length: 4 }, () => redeem(rewardId)));
    for (const reply of replies)
      expect(reply).toMatchObject({ status: 400, json: { key: 'campaign_not_active', resource_type: 'voucher', resource_id: 'CARD-1' } });
    expect(await cardOf()).toMatchObject({ balance: 250 });
    expect((await api.call('list-redemptions', { query: 'voucher=CARD-1' })).json.redemptions).toEqual([]);
    expect((await api.call('enable-campaign', { params: { campaignId: program.id as string } })).status).toBe(200);
    expect((await redeem(rewardId)).status).toBe(200);
    expect(await cardOf()).toMatchObject({ balance: 150 });
  });

  it('refuses it once the delete has answered, though the card is still stored until the deletion job runs: 404, no points taken', async () => {
    const { priced, material, redeem, runtime, pair, program } = await setup(250);
    const rewardId = await priced(material(), 100);
    const deleter = apiClient({ runtime, jobs: new RecordingJobQueue() }, keyPairHeaders(pair));
    expect((await deleter.call('delete-campaign', { params: { campaignId: program.id as string } })).status).toBe(202);
    expect((await redeem(rewardId)).json).toMatchObject({ key: 'resource_not_found', resource_id: 'CARD-1' });
    const stored = await runtime.ddb.send(new GetCommand({ TableName: runtime.tableName, Key: voucherEntity.key(pair.project_id, 'CARD-1') }));
    expect(stored.Item?.loyaltyCard).toMatchObject({ balance: 250 });
  });
});
