import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { balanceReplySchema, pointsExpirationReplySchema } from '../../../lib/loyalties/loyalty.reply.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const DAY = 86_400_000;
const at = Date.UTC(2026, 1, 10, 12, 0, 0); // 2026-02-10

/** A loyalty program (cards start with `startPoints`, points expire after 3 months, end of month) and one card. */
async function setup(startPoints = 0) {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  const body = {
    name: 'Club',
    campaign_type: 'LOYALTY_PROGRAM',
    voucher: {
      type: 'LOYALTY_CARD',
      loyalty_card: { points: startPoints, expiration_rules: { period_type: 'MONTH', period_value: 3, rounding_type: 'END_OF_MONTH' } },
    },
  };
  const campaign = await newCampaign(campaigns, body);
  const card = (await campaigns.addVoucher('Club', { code: 'CARD-1' })).json;
  const cardOf = async () => (await campaigns.getVoucher('CARD-1')).json.loyalty_card as Record<string, unknown>;
  return { clock, runtime, campaigns, loyalty, campaign, card, cardOf };
}

describe('POST /v1/loyalties/{campaignId}/members/{memberId}/balance', () => {
  it('adds points in a bucket expiring by the program rules and replies with the balance object', async () => {
    const { loyalty, card, cardOf } = await setup();
    const reply = await loyalty.updateBalance('Club', 'CARD-1', { points: 40 });
    expect(reply.status).toBe(200);
    expect(balanceReplySchema.parse(reply.json)).toEqual({
      points: 40,
      total: 40,
      balance: 40,
      type: 'loyalty_card',
      object: 'balance',
      related_object: { type: 'voucher', id: card.id },
      operation_type: 'MANUAL',
    });
    expect(await cardOf()).toMatchObject({ points: 40, balance: 40, next_expiration_date: '2026-05-31', next_expiration_points: 40 });
    const list = pointsExpirationReplySchema.parse((await loyalty.listPointsExpiration('Club', card.id as string)).json);
    expect(list.total).toBe(1);
    expect(list.data[0]).toMatchObject({ voucher_id: card.id, bucket: { total_points: 40 }, status: 'ACTIVE', expires_at: '2026-05-31' });
  });

  it('honours a custom expiration date and non-expiring points, and refuses a date in the past', async () => {
    const { loyalty, cardOf } = await setup();
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: 5, expiration_type: 'CUSTOM_DATE', expiration_date: '2026-03-01' })).status).toBe(200);
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: 7, expiration_type: 'NON_EXPIRING' })).status).toBe(200);
    const past = await loyalty.updateBalance('Club', 'CARD-1', { points: 1, expiration_type: 'CUSTOM_DATE', expiration_date: '2026-02-09' });
    expect(past.status).toBe(400);
    expect(past.json.key).toBe('invalid_expiration_date');
    const list = (await loyalty.listPointsExpiration('Club', 'CARD-1')).json;
    expect((list.data as Record<string, unknown>[]).map((b) => b.expires_at ?? null)).toEqual(['2026-03-01', null]);
    expect(await cardOf()).toMatchObject({ balance: 12, next_expiration_date: '2026-03-01', next_expiration_points: 5 });
  });

  it('spends the soonest-expiring points first and keeps the next expiration true', async () => {
    const { loyalty, cardOf } = await setup();
    await loyalty.updateBalance('Club', 'CARD-1', { points: 10, expiration_date: '2026-06-30' });
    await loyalty.updateBalance('Club', 'CARD-1', { points: 4, expiration_date: '2026-03-31' });
    const spend = await loyalty.updateBalance('Club', 'CARD-1', { points: -6 });
    expect(spend.json).toMatchObject({ points: -6, total: 14, balance: 8 });
    const list = (await loyalty.listPointsExpiration('Club', 'CARD-1')).json;
    expect(list.data).toEqual([expect.objectContaining({ expires_at: '2026-06-30', bucket: { total_points: 8 } })]);
    expect(await cardOf()).toMatchObject({ points: 14, balance: 8, subtracted_points: 6, next_expiration_date: '2026-06-30', next_expiration_points: 8 });
  });

  it('refuses to spend more than the card holds, with not_enough_points, and changes nothing', async () => {
    const { loyalty, cardOf } = await setup();
    await loyalty.updateBalance('Club', 'CARD-1', { points: 3 });
    const reply = await loyalty.updateBalance('Club', 'CARD-1', { points: -4 });
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('not_enough_points');
    expect(await cardOf()).toMatchObject({ balance: 3 });
  });

  it('does not count expired buckets, and moves them to expired_points on the next change', async () => {
    const { clock, loyalty, cardOf } = await setup();
    await loyalty.updateBalance('Club', 'CARD-1', { points: 5, expiration_date: '2026-02-12' });
    await loyalty.updateBalance('Club', 'CARD-1', { points: 2, expiration_type: 'NON_EXPIRING' });
    clock.advance(2 * DAY); // 2026-02-12: the last day the 5 points count
    expect((await loyalty.listPointsExpiration('Club', 'CARD-1')).json.total).toBe(2);
    clock.advance(DAY);
    expect((await loyalty.listPointsExpiration('Club', 'CARD-1')).json.total).toBe(1);
    const tooMuch = await loyalty.updateBalance('Club', 'CARD-1', { points: -3 });
    expect(tooMuch.json.key).toBe('not_enough_points');
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: -2 })).json).toMatchObject({ balance: 0 });
    expect(await cardOf()).toMatchObject({ balance: 0, expired_points: 5, subtracted_points: 2 });
  });

  it("spends a new card's starting points after its buckets, since they never expire", async () => {
    const { loyalty, cardOf } = await setup(10);
    await loyalty.updateBalance('Club', 'CARD-1', { points: 3 });
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: -5 })).json).toMatchObject({ total: 13, balance: 8 });
    expect((await loyalty.listPointsExpiration('Club', 'CARD-1')).json.total).toBe(0);
    expect(await cardOf()).toMatchObject({ balance: 8 });
    expect((await cardOf()).next_expiration_date).toBeUndefined();
  });

  it('lets exactly 10 of 20 parallel one-point spends through a card of ten one-point buckets', async () => {
    const { loyalty, cardOf } = await setup();
    for (let i = 0; i < 10; i += 1) await loyalty.updateBalance('Club', 'CARD-1', { points: 1 });
    const replies = await Promise.all(Array.from({ length: 20 }, () => loyalty.updateBalance('Club', 'CARD-1', { points: -1 })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(10);
    expect(replies.filter((r) => r.status === 400 && r.json.key === 'not_enough_points')).toHaveLength(10);
    expect(await cardOf()).toMatchObject({ balance: 0, subtracted_points: 10 });
    expect((await loyalty.listPointsExpiration('Club', 'CARD-1')).json.total).toBe(0);
  });

  it('answers 404 for a campaign that is not a loyalty program and for a card of another campaign', async () => {
    const { campaigns, loyalty } = await setup();
    await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Coupons'));
    await campaigns.addVoucher('Coupons', { code: 'COUPON-1' });
    const notLoyalty = await loyalty.updateBalance('Coupons', 'COUPON-1', { points: 1 });
    expect(notLoyalty.status).toBe(404);
    expect(notLoyalty.json.resource_type).toBe('campaign');
    await newCampaign(campaigns, { ...campaignBodies.LOYALTY_PROGRAM('Other club') });
    await campaigns.addVoucher('Other club', { code: 'OTHER-1' });
    const wrongCard = await loyalty.updateBalance('Club', 'OTHER-1', { points: 1 });
    expect(wrongCard.status).toBe(404);
    expect(wrongCard.json.resource_type).toBe('voucher');
    expect((await loyalty.listPointsExpiration('Club', 'NOPE')).status).toBe(404);
  });

  it('refuses zero points and expiration settings on a subtraction', async () => {
    const { loyalty } = await setup();
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: 0 })).json.key).toBe('invalid_payload');
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: -1, expiration_type: 'NON_EXPIRING' })).json.key).toBe('invalid_payload');
  });
});
