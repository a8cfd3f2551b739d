import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;

/**
 * get-campaign-summary's figures, counted by the flows that move them (docs/decisions.md "Campaign
 * summary counters"), driven through the API against DynamoDB Local.
 */
async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const api = apiClient({ runtime }, headers);
  const campaign = async (
    name: string,
    voucher: Json = { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } },
    campaignType = 'DISCOUNT_COUPONS',
  ) => {
    const reply = await api.call('create-campaign', { json: { name, campaign_type: campaignType, voucher } });
    if (reply.status !== 200) throw new Error(`campaign ${name}: ${JSON.stringify(reply.json)}`);
    return (reply.json as Json).id as string;
  };
  const code = async (campaignId: string) => {
    const reply = await api.call('add-vouchers-to-campaign', { params: { campaignId }, json: {} });
    if (reply.status !== 200) throw new Error(`voucher: ${JSON.stringify(reply.json)}`);
    return (reply.json as Json).code as string;
  };
  const redeem = (codes: string[], amount = 4000, extra: Json = {}) =>
    api.call('redeem-stacked-discounts', {
      json: { redeemables: codes.map((id) => ({ object: 'voucher', id })), order: { amount }, ...extra },
    });
  const summary = async (campaignId: string) => {
    const reply = await api.call('get-campaign-summary', { params: { campaignId } });
    expect(reply.status).toBe(200);
    return reply.json as Json;
  };
  return { runtime, api, headers, campaign, code, redeem, summary };
}

describe('campaign summary figures, counted where they move', () => {
  it('counts a redemption per redeemed code of the campaign, the order amount once and the discounts; nothing for a refused one', async () => {
    const { campaign, code, redeem, summary } = await setup();
    const id = await campaign('Redeemed');
    const other = await campaign('Other', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 300 } });
    const [a, b, c] = [await code(id), await code(id), await code(other)];
    expect((await redeem([a, b, c])).status).toBe(200);
    expect((await redeem(['NO-SUCH-CODE'])).status).toBe(404);
    expect(await summary(id)).toMatchObject({ redemptions: 2, redemptions_succeeded: 2, redemptions_failed: 0, orders_amount: 4000, discounted_amount: 1000 });
    expect(await summary(other)).toMatchObject({ redemptions: 1, redemptions_succeeded: 1, orders_amount: 4000, discounted_amount: 300, rollbacks: 0 });
  });

  it('counts gift credits redeemed on a gift card campaign apart from discounts', async () => {
    const { campaign, code, redeem, summary } = await setup();
    const id = await campaign('Gifts', { type: 'GIFT_VOUCHER', gift: { amount: 5000, effect: 'APPLY_TO_ORDER' } }, 'GIFT_VOUCHERS');
    const card = await code(id);
    const reply = await redeem([card], 3000);
    expect(reply.status).toBe(200);
    expect(await summary(id)).toMatchObject({ redemptions: 1, orders_amount: 3000, amount_redeemed: 3000, amount_rolledback: 0 });
  });

  it('counts a rollback (one or stacked) with its order amount and discount given back, and never a second time', async () => {
    const { api, campaign, code, redeem, summary } = await setup();
    const id = await campaign('Rolled');
    const [a, b] = [await code(id), await code(id)];
    const first = (await redeem([a, b])).json as { parent_redemption: { id: string }; redemptions: { id: string }[] };
    const single = (await redeem([await code(id)], 2000)).json as { redemptions: { id: string }[] };
    expect((await api.call('rollback-stacked-redemptions', { params: { redemptionId: first.parent_redemption.id } })).status).toBe(200);
    expect((await api.call('rollback-stacked-redemptions', { params: { redemptionId: first.parent_redemption.id } })).status).toBe(400);
    const childId = single.redemptions[0]?.id as string;
    expect((await api.call('rollback-redemption', { params: { redemptionId: childId } })).status).toBe(200);
    expect((await api.call('rollback-redemption', { params: { redemptionId: childId } })).status).toBe(400);
    expect(await summary(id)).toMatchObject({
      redemptions: 3,
      orders_amount: 6000,
      discounted_amount: 1500,
      rollbacks: 3,
      rollbacks_succeeded: 3,
      rollbacks_failed: 0,
      orders_rolledback_amount: 6000,
      rolledback_discounted_amount: 1500,
    });
  });

  it('counts a retried redemption once (same Idempotency-Key)', async () => {
    const { api, headers, campaign, code, summary } = await setup();
    const id = await campaign('Retried');
    const json = { redeemables: [{ object: 'voucher', id: await code(id) }], order: { amount: 1000 } };
    for (let i = 0; i < 3; i += 1) {
      expect((await api.call('redeem-stacked-discounts', { json, headers: { ...headers, 'idempotency-key': 'once' } })).status).toBe(200);
    }
    expect(await summary(id)).toMatchObject({ redemptions: 1, orders_amount: 1000 });
  });

  it('counts exactly N for N parallel redemptions of one campaign', async () => {
    const { campaign, code, redeem, summary } = await setup();
    const id = await campaign('Busy');
    const codes = await Promise.all(Array.from({ length: 20 }, () => code(id)));
    const replies = await Promise.all(codes.map((c) => redeem([c], 1000)));
    const won = replies.filter((r) => r.status === 200).length;
    expect(won).toBe(20);
    expect(await summary(id)).toMatchObject({ redemptions: 20, redemptions_succeeded: 20, orders_amount: 20_000, discounted_amount: 10_000 });
  });
});

describe('campaign summary: vouchers created', () => {
  it('counts the vouchers a campaign is created with and those added later, with new gift credits and card points', async () => {
    const { api, summary } = await setup();
    const create = async (json: Json) => {
      const reply = await api.call('create-campaign', { json });
      expect(reply.status).toBe(200);
      return (reply.json as Json).id as string;
    };
    const coupons = await create({
      name: 'Made',
      campaign_type: 'DISCOUNT_COUPONS',
      vouchers_count: 1,
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
    });
    expect((await api.call('add-vouchers-to-campaign', { params: { campaignId: coupons }, json: { code: 'MADE-ONE' } })).status).toBe(200);
    expect((await api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId: coupons, code: 'MADE-TWO' }, json: {} })).status).toBe(200);
    expect((await api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId: coupons, code: 'MADE-TWO' }, json: {} })).status).toBe(409);
    expect(await summary(coupons)).toMatchObject({ vouchers_created: 3, vouchers_deleted: 0 });
    const gifts = await create({ name: 'Cards', campaign_type: 'GIFT_VOUCHERS', vouchers_count: 1, voucher: { type: 'GIFT_VOUCHER', gift: { amount: 2500 } } });
    expect(await summary(gifts)).toMatchObject({ vouchers_created: 1, created_vouchers_amount: 2500 });
    const loyalty = await create({
      name: 'Club',
      campaign_type: 'LOYALTY_PROGRAM',
      vouchers_count: 1,
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 40 } },
    });
    expect(await summary(loyalty)).toMatchObject({ vouchers_created: 1, created_vouchers_points: 40 });
  });

  it('counts a deleted voucher once (to the bin or for good), with the gift balance it held, and nothing for a delete that finds none', async () => {
    const { api, summary } = await setup();
    const made = await api.call('create-campaign', {
      json: { name: 'Gone', campaign_type: 'GIFT_VOUCHERS', vouchers_count: 1, voucher: { type: 'GIFT_VOUCHER', gift: { amount: 2500 } } },
    });
    const id = (made.json as Json).id as string;
    for (const code of ['GONE-1', 'GONE-2']) {
      expect((await api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId: id, code }, json: {} })).status).toBe(200);
    }
    expect((await api.call('delete-voucher', { params: { code: 'GONE-1' } })).status).toBe(204);
    expect((await api.call('delete-voucher', { params: { code: 'GONE-1' } })).status).toBe(404);
    expect((await api.call('delete-voucher', { params: { code: 'GONE-2' }, query: 'force=true' })).status).toBe(204);
    expect(await summary(id)).toMatchObject({ vouchers_created: 3, vouchers_deleted: 2, created_vouchers_amount: 7500, amount_deleted: 5000 });
  });
});
