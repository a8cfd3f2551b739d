import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { getCustomerIdBySourceId } from '../../../lib/customers/customer.repo.js';
import { listConversionsOfCode } from '../../../lib/referrals/referral.repo.js';
import { getHeldVoucher } from '../../../lib/vouchers/voucher-holder.repo.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 4, 12, 9, 0, 0);

type Reward = { type: 'LOYALTY_CARD' | 'GIFT_VOUCHER'; amount: number };

const club = {
  name: 'Club',
  campaign_type: 'LOYALTY_PROGRAM',
  voucher: {
    type: 'LOYALTY_CARD',
    loyalty_card: { points: 0, expiration_rules: { period_type: 'MONTH', period_value: 2, rounding_type: 'END_OF_MONTH' } },
    code_config: { prefix: 'CLUB-', pattern: '####' },
  },
};
const gifts = { name: 'Gifts', campaign_type: 'GIFT_VOUCHERS', voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000 }, code_config: { prefix: 'GIFT-' } } };

/**
 * A project with event `user_subscribed`, the loyalty program `Club` (cards start at 0 points,
 * points expire at the end of the month two months on), the gift campaign `Gifts` (cards start
 * with 1000), a referral program `Friends` converting on `user_subscribed` whose referee reward
 * comes from one of them, and referral codes REF-1..REF-n shared by the customer `rita`.
 */
async function setup(reward: Reward, codes = 1) {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const projectId = pair.project_id;
  const events = eventApi(runtime, pair);
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  expect((await events.createSchema(schemaBody('user_subscribed', { plan: 'string?' }))).status).toBe(200);
  const clubCampaign = await newCampaign(campaigns, club);
  const giftCampaign = await newCampaign(campaigns, gifts);
  const parent = reward.type === 'LOYALTY_CARD' ? clubCampaign : giftCampaign;
  const friends = await newCampaign(campaigns, {
    ...campaignBodies.REFERRAL_PROGRAM('Friends'),
    referral_program: {
      conversion_event_type: 'custom_event',
      custom_event: { name: 'user_subscribed' },
      referee_reward: { related_object_parent: { id: parent.id }, ...reward },
    },
  });
  for (let i = 1; i <= codes; i += 1) expect((await campaigns.addVoucher('Friends', { code: `REF-${i}` })).status).toBe(200);
  await events.trackEvent({ event: 'user_subscribed', customer: { source_id: 'rita' } });
  const subscribed = (sourceId: string, code = 'REF-1', extra: Record<string, unknown> = {}) => ({
    event: 'user_subscribed',
    customer: { source_id: sourceId },
    referral: { code, referrer_id: 'rita' },
    ...extra,
  });
  const customerId = async (sourceId: string) => (await getCustomerIdBySourceId(runtime, projectId, sourceId)) ?? '';
  /** The voucher the customer holds in the reward's parent campaign, as GET /v1/vouchers replies it. */
  const heldVoucher = async (sourceId: string) => {
    const held = await getHeldVoucher(runtime, projectId, await customerId(sourceId), parent.id as string);
    if (!held.voucher) return null;
    const reply = await campaigns.getVoucher(held.voucher.code);
    expect(reply.status).toBe(200);
    return reply.json;
  };
  const vouchersCount = async () => (await campaigns.getCampaign(parent.id as string)).json.vouchers_count;
  const conversions = async (code = 'REF-1') => (await listConversionsOfCode(runtime, projectId, friends.id as string, code)).length;
  return { runtime, projectId, events, campaigns, loyalty, parent, friends, subscribed, customerId, heldVoucher, vouchersCount, conversions };
}

describe('POST /v1/events converting a referral: the referee reward (referral_program.referee_reward)', () => {
  it('publishes a new loyalty card of the parent program to a referee without one, holding the reward points in a bucket expiring by the program rules', async () => {
    const { events, loyalty, parent, subscribed, customerId, heldVoucher, vouchersCount } = await setup({ type: 'LOYALTY_CARD', amount: 150 });
    expect(await vouchersCount()).toBe(0);
    expect((await events.trackEvent(subscribed('ann'))).status).toBe(200);
    const card = await heldVoucher('ann');
    expect(card).toMatchObject({
      campaign_id: parent.id,
      type: 'LOYALTY_CARD',
      holder_id: await customerId('ann'),
      referrer_id: await customerId('rita'),
      loyalty_card: { points: 150, balance: 150, next_expiration_date: '2026-07-31', next_expiration_points: 150 },
      publish: { count: 1 },
    });
    expect(card?.code).toMatch(/^CLUB-[0-9a-zA-Z]{4}$/);
    expect(await vouchersCount()).toBe(1);
    const buckets = (await loyalty.listPointsExpiration('Club', card?.code as string)).json.data as Record<string, unknown>[];
    expect(buckets).toEqual([expect.objectContaining({ voucher_id: card?.id, bucket: { total_points: 150 }, status: 'ACTIVE', expires_at: '2026-07-31' })]);
  });

  it('adds the points to the card the referee already holds in the parent program, publishing no other', async () => {
    const { events, loyalty, subscribed, heldVoucher, vouchersCount } = await setup({ type: 'LOYALTY_CARD', amount: 150 }, 2);
    await events.trackEvent(subscribed('ann', 'REF-1'));
    const first = await heldVoucher('ann');
    expect((await loyalty.updateBalance('Club', first?.code as string, { points: 5, expiration_type: 'NON_EXPIRING' })).status).toBe(200);
    expect((await events.trackEvent(subscribed('ann', 'REF-2'))).status).toBe(200);
    const card = await heldVoucher('ann');
    expect(card?.id).toBe(first?.id);
    expect(card?.loyalty_card).toMatchObject({ points: 305, balance: 305 });
    expect(await vouchersCount()).toBe(1);
  });

  it("puts the reward and the event's own earning into one change when both land on the referee's card", async () => {
    const { events, loyalty, subscribed, heldVoucher } = await setup({ type: 'LOYALTY_CARD', amount: 150 }, 2);
    await events.trackEvent(subscribed('ann', 'REF-1'));
    const code = (await heldVoucher('ann'))?.code as string;
    expect((await loyalty.createEarningRules('Club', [{ event: 'user_subscribed', loyalty: { type: 'FIXED', points: 7 } }])).status).toBe(200);
    const reply = await events.trackEvent(subscribed('ann', 'REF-2', { loyalty: { code } }));
    expect(reply.status).toBe(200);
    expect((await heldVoucher('ann'))?.loyalty_card).toMatchObject({ points: 307, balance: 307 });
    expect((await loyalty.listPointsExpiration('Club', code)).json.total).toBe(3);
  });

  it('publishes a gift voucher of the parent campaign with its starting credits plus the reward, then adds the reward to it', async () => {
    const { events, subscribed, customerId, heldVoucher, vouchersCount } = await setup({ type: 'GIFT_VOUCHER', amount: 2500 }, 2);
    expect((await events.trackEvent(subscribed('ben', 'REF-1'))).status).toBe(200);
    const gift = await heldVoucher('ben');
    expect(gift).toMatchObject({ type: 'GIFT_VOUCHER', holder_id: await customerId('ben'), gift: { amount: 3500, balance: 3500, subtracted_amount: 0 } });
    expect(gift?.code).toMatch(/^GIFT-/);
    expect((await events.trackEvent(subscribed('ben', 'REF-2'))).status).toBe(200);
    const after = await heldVoucher('ben');
    expect(after?.id).toBe(gift?.id);
    expect(after?.gift).toMatchObject({ amount: 6000, balance: 6000 });
    expect(await vouchersCount()).toBe(1);
  });

  it('gives no second reward for an event that converts nothing (the referee already converted the code)', async () => {
    const { events, subscribed, heldVoucher, vouchersCount, conversions } = await setup({ type: 'LOYALTY_CARD', amount: 150 });
    expect((await events.trackEvent(subscribed('cleo'))).status).toBe(200);
    expect((await events.trackEvent(subscribed('cleo'))).status).toBe(200);
    expect((await events.trackEvent(subscribed('cleo', 'REF-1', { metadata: { plan: 'pro' } }))).status).toBe(200);
    expect(await conversions()).toBe(1);
    expect((await heldVoucher('cleo'))?.loyalty_card).toMatchObject({ points: 150, balance: 150 });
    expect(await vouchersCount()).toBe(1);
  });

  it('rewards once when the same event is sent 20 times at once with one Idempotency-Key', async () => {
    const { events, subscribed, heldVoucher, vouchersCount, conversions } = await setup({ type: 'GIFT_VOUCHER', amount: 2500 });
    const replies = await Promise.all(Array.from({ length: 20 }, () => events.trackEvent(subscribed('dan'), 'dan-key')));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await conversions()).toBe(1);
    expect((await heldVoucher('dan'))?.gift).toMatchObject({ amount: 3500, balance: 3500 });
    expect(await vouchersCount()).toBe(1);
  });

  it('publishes at most one card to a referee converting five codes at once, and rewards every conversion on it', async () => {
    const { runtime, projectId, parent, events, loyalty, subscribed, customerId, heldVoucher, vouchersCount, conversions } = await setup(
      { type: 'LOYALTY_CARD', amount: 150 },
      5,
    );
    await events.trackEvent({ event: 'user_subscribed', customer: { source_id: 'eve' } });
    const codes = ['REF-1', 'REF-2', 'REF-3', 'REF-4', 'REF-5'];
    const replies = await Promise.all(codes.map((code) => events.trackEvent(subscribed('eve', code))));
    expect(replies.map((r) => r.status)).toEqual(Array(5).fill(200));
    for (const code of codes) expect(await conversions(code)).toBe(1);
    expect(await vouchersCount()).toBe(1);
    const card = await heldVoucher('eve');
    expect(card?.loyalty_card).toMatchObject({ points: 750, balance: 750 });
    expect((await loyalty.listPointsExpiration('Club', card?.code as string)).json.total).toBe(5);
    expect((await getHeldVoucher(runtime, projectId, await customerId('eve'), parent.id as string)).staleVoucherId).toBeNull();
  });

  it('publishes a new card when the one the referee held was deleted', async () => {
    const { campaigns, events, subscribed, heldVoucher, vouchersCount } = await setup({ type: 'LOYALTY_CARD', amount: 150 }, 2);
    await events.trackEvent(subscribed('fay', 'REF-1'));
    const first = await heldVoucher('fay');
    expect((await campaigns.deleteVoucher(first?.code as string, 'force=true')).status).toBe(204);
    expect(await vouchersCount()).toBe(0);
    expect((await events.trackEvent(subscribed('fay', 'REF-2'))).status).toBe(200);
    const second = await heldVoucher('fay');
    expect(second?.id).not.toBe(first?.id);
    expect(second?.loyalty_card).toMatchObject({ points: 150, balance: 150 });
    expect(await vouchersCount()).toBe(1);
  });

  it("draws another code when the parent's next code is taken, and refuses the event with 400 code_space_exhausted when none is left", async () => {
    const runtime = testRuntime({ clock: new ManualClock(at) });
    const pair = await newProject(runtime);
    const events = eventApi(runtime, pair);
    const campaigns = campaignApi(runtime, pair);
    await events.createSchema(schemaBody('user_subscribed'));
    const tiny = await newCampaign(campaigns, { ...club, voucher: { ...club.voucher, code_config: { pattern: '#', charset: 'AB' } } });
    expect((await campaigns.addVoucher('Club', { code: 'A' })).status).toBe(200);
    const friends = await newCampaign(campaigns, {
      ...campaignBodies.REFERRAL_PROGRAM('Friends'),
      referral_program: {
        conversion_event_type: 'custom_event',
        custom_event: { name: 'user_subscribed' },
        referee_reward: { related_object_parent: { id: tiny.id }, type: 'LOYALTY_CARD', amount: 10 },
      },
    });
    await campaigns.addVoucher('Friends', { code: 'REF-1' });
    await events.trackEvent({ event: 'user_subscribed', customer: { source_id: 'rita' } });
    const convert = (sourceId: string) =>
      events.trackEvent({ event: 'user_subscribed', customer: { source_id: sourceId }, referral: { code: 'REF-1', referrer_id: 'rita' } });
    expect((await convert('gus')).status).toBe(200);
    expect((await campaigns.getVoucher('B')).json).toMatchObject({ loyalty_card: { points: 10 } });
    const full = await convert('hal');
    expect(full.status).toBe(400);
    expect(full.json.key).toBe('code_space_exhausted');
    expect(await listConversionsOfCode(runtime, pair.project_id, friends.id as string, 'REF-1')).toHaveLength(1);
    expect((await campaigns.getCampaign('Club')).json.vouchers_count).toBe(2);
  });
});

describe('POST /v1/campaigns: checking referral_program.referee_reward', () => {
  async function creation() {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const campaigns = campaignApi(runtime, pair);
    const loyaltyId = (await newCampaign(campaigns, club)).id as string;
    const giftId = (await newCampaign(campaigns, gifts)).id as string;
    await newCampaign(campaigns, { ...club, name: 'Solo', type: 'STANDALONE' });
    const create = (referee_reward: unknown) =>
      campaigns.createCampaign({ ...campaignBodies.REFERRAL_PROGRAM('Friends'), referral_program: { conversion_event_type: 'redemption', referee_reward } });
    return { campaigns, loyaltyId, giftId, create };
  }

  it('stores the reward with the parent campaign named by id and name, whichever was sent', async () => {
    const { campaigns, loyaltyId, create } = await creation();
    const reply = await create({ related_object_parent: { name: 'Club' }, type: 'LOYALTY_CARD', amount: 20 });
    expect(reply.status).toBe(200);
    const expected = { related_object_parent: { id: loyaltyId, name: 'Club', object: 'CAMPAIGN' }, type: 'LOYALTY_CARD', amount: 20 };
    expect(reply.json.referral_program).toEqual({ conversion_event_type: 'redemption', referee_reward: expected });
    expect((await campaigns.getCampaign('Friends')).json.referral_program).toEqual(reply.json.referral_program);
  });

  it.each([
    ['an amount of 0', (_l: string) => ({ related_object_parent: { id: _l }, type: 'LOYALTY_CARD', amount: 0 })],
    ['a negative amount', (l: string) => ({ related_object_parent: { id: l }, type: 'LOYALTY_CARD', amount: -5 })],
    ['a fractional amount', (l: string) => ({ related_object_parent: { id: l }, type: 'LOYALTY_CARD', amount: 1.5 })],
    ['no type', (l: string) => ({ related_object_parent: { id: l }, amount: 5 })],
    ['another type', (l: string) => ({ related_object_parent: { id: l }, type: 'DISCOUNT_VOUCHER', amount: 5 })],
    ['no parent', () => ({ type: 'LOYALTY_CARD', amount: 5 })],
    ['a parent with neither id nor name', () => ({ related_object_parent: { object: 'CAMPAIGN' }, type: 'LOYALTY_CARD', amount: 5 })],
    ['an id and a name of different campaigns', (l: string) => ({ related_object_parent: { id: l, name: 'Gifts' }, type: 'LOYALTY_CARD', amount: 5 })],
  ])('refuses %s with 400 invalid_payload, creating nothing', async (_what, reward) => {
    const { campaigns, loyaltyId, create } = await creation();
    const reply = await create(reward(loyaltyId));
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('invalid_payload');
    expect((await campaigns.getCampaign('Friends')).status).toBe(404);
  });

  it('refuses a parent that does not exist with 404 campaign', async () => {
    const { campaigns, create } = await creation();
    for (const parent of [{ id: 'camp_missing' }, { name: 'Nope' }]) {
      const reply = await create({ related_object_parent: parent, type: 'LOYALTY_CARD', amount: 5 });
      expect(reply.status).toBe(404);
      expect(reply.json).toMatchObject({ resource_type: 'campaign', resource_id: parent.id ?? parent.name });
    }
    expect((await campaigns.getCampaign('Friends')).status).toBe(404);
  });

  it('refuses a parent of the wrong type, or a STANDALONE one, with 400 invalid_campaign', async () => {
    const { campaigns, loyaltyId, giftId, create } = await creation();
    for (const reward of [
      { related_object_parent: { id: giftId }, type: 'LOYALTY_CARD', amount: 5 },
      { related_object_parent: { id: loyaltyId }, type: 'GIFT_VOUCHER', amount: 5 },
      { related_object_parent: { name: 'Solo' }, type: 'LOYALTY_CARD', amount: 5 },
    ]) {
      const reply = await create(reward);
      expect(reply.status).toBe(400);
      expect(reply.json.key).toBe('invalid_campaign');
    }
    expect((await campaigns.getCampaign('Friends')).status).toBe(404);
  });
});
