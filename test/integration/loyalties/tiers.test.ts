import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import { expirePoints } from '../../../lib/loyalties/points-expiry.job.js';
import { loyaltyTierListReplySchema, loyaltyTierReplySchema } from '../../../lib/loyalties/tier.reply.js';
import { getVoucherByCode } from '../../../lib/vouchers/voucher.repo.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { rewardApi } from '../../support/rewards-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 1, 10, 12, 0, 0);
const DAY = 86_400_000;

/** Program "Club" with card CARD-1 held by c1, a FIXED 100 rule on the custom event `purchase`, and a reward priced 500. */
async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  const events = eventApi(runtime, pair);
  const rewards = rewardApi(runtime, pair);
  const program = await newCampaign(campaigns, {
    name: 'Club',
    campaign_type: 'LOYALTY_PROGRAM',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  });
  await campaigns.addVoucher('Club', { code: 'CARD-1' });
  expect((await api.call('create-publication', { json: { voucher: 'CARD-1', customer: { source_id: 'c1' } } })).status).toBe(200);
  expect((await events.createSchema(schemaBody('purchase'))).status).toBe(200);
  const rules = await loyalty.createEarningRules('Club', [{ event: 'purchase', loyalty: { type: 'FIXED', points: 100 } }]);
  expect(rules.status).toBe(200);
  const ruleId = (rules.json as unknown as { id: string }[])[0]?.id as string;
  const reward = await rewards.createReward({ name: 'Mug', type: 'MATERIAL', parameters: { product: { id: 'prod_mug' } } });
  const rewardId = reward.json.id as string;
  const assigned = await rewards.assign(rewardId, { campaign: program.id, parameters: { loyalty: { points: 500 } } });
  const assignmentId = assigned.json.id as string;
  const createTiers = (json: unknown, campaignId = 'Club') => api.call('create-in-bulk-loyalty-tiers', { params: { campaignId }, json });
  const purchase = () => events.trackEvent({ event: 'purchase', customer: { source_id: 'c1' }, loyalty: { code: 'CARD-1' } });
  const memberTiers = async () => {
    const reply = await api.call('list-member-loyalty-tier', { params: { memberId: 'CARD-1' } });
    expect(reply.status).toBe(200);
    return loyaltyTierListReplySchema.parse(reply.json);
  };
  const stored = async () => (await getVoucherByCode(runtime, pair.project_id, 'CARD-1'))?.loyaltyCard;
  const accruals = async () => {
    const card = await getVoucherByCode(runtime, pair.project_id, 'CARD-1');
    return (await listCardTransactions(runtime, pair.project_id, card?.id as string)).filter((t) => t.type === 'POINTS_ACCRUAL');
  };
  return { clock, runtime, pair, api, campaigns, loyalty, program, ruleId, rewardId, assignmentId, createTiers, purchase, memberTiers, stored, accruals };
}

describe('loyalty tiers', () => {
  it('creates tiers, lists them in creation order and gets one, in the shape of the reference', async () => {
    const { api, createTiers, ruleId, assignmentId, program } = await setup();
    const created = await createTiers([
      { name: 'Silver', points: { from: 1, to: 299 }, metadata: { color: 'grey' } },
      {
        name: 'Gold',
        points: { from: 300 },
        earning_rules: { [ruleId]: { type: 'MULTIPLY', multiplier: 2 } },
        rewards: { [assignmentId]: { type: 'CUSTOM', points: 50 } },
      },
    ]);
    expect(created.status).toBe(200);
    const [silver, gold] = (created.body as unknown[]).map((t) => loyaltyTierReplySchema.parse(t));
    expect(silver).toMatchObject({
      name: 'Silver',
      campaign_id: program.id,
      points: { from: 1, to: 299 },
      config: { points: { from: 1, to: 299 } },
      object: 'loyalty_tier',
    });
    expect(gold?.points).toEqual({ from: 300 });
    expect(gold?.id).toMatch(/^ltr_/);
    const list = loyaltyTierListReplySchema.parse((await api.call('list-loyalty-tiers', { params: { campaignId: 'Club' } })).json);
    expect(list.total).toBe(2);
    expect(list.data.map((t) => t.name)).toEqual(['Silver', 'Gold']);
    const got = await api.call('get-loyalty-tier', { params: { campaignId: program.id as string, loyaltyTierId: gold?.id as string } });
    expect(got.json).toEqual(gold);
    const missing = await api.call('get-loyalty-tier', { params: { campaignId: 'Club', loyaltyTierId: 'ltr_nope' } });
    expect(missing.status).toBe(404);
    expect(missing.json.resource_type).toBe('loyalty_tier');
  });

  it('refuses overlapping ranges, a range upside down, and mappings of rules or rewards the program does not have; nothing is written', async () => {
    const { api, createTiers } = await setup();
    expect((await createTiers([{ name: 'A', points: { from: 0, to: 100 } }])).status).toBe(200);
    const overlap = await createTiers([{ name: 'B', points: { from: 100, to: 200 } }]);
    expect(overlap.status).toBe(400);
    expect(overlap.json.key).toBe('invalid_payload');
    expect((await createTiers([{ name: 'C', points: { from: 500, to: 400 } }])).json.key).toBe('invalid_payload');
    const rule = await createTiers([{ name: 'D', points: { from: 1000 }, earning_rules: { ern_nope: { type: 'MULTIPLY', multiplier: 2 } } }]);
    expect([rule.status, rule.json.resource_type]).toEqual([404, 'earning_rule']);
    const reward = await createTiers([{ name: 'E', points: { from: 1000 }, rewards: { rewa_nope: { type: 'CUSTOM', points: 1 } } }]);
    expect([reward.status, reward.json.resource_type]).toEqual([404, 'reward']);
    const mapping = await createTiers([{ name: 'F', points: { from: 1000 }, earning_rules: { x: { type: 'DIVIDE', by: 2 } } }]);
    expect(mapping.status).toBe(400);
    expect((await api.call('list-loyalty-tiers', { params: { campaignId: 'Club' } })).json.total).toBe(1);
  });

  it("moves the member to the tier its balance reaches, and earns by the tier's multiplier from then on", async () => {
    const { createTiers, ruleId, purchase, memberTiers, stored, accruals } = await setup();
    const made = await createTiers([{ name: 'Gold', points: { from: 200 }, earning_rules: { [ruleId]: { type: 'MULTIPLY', multiplier: 3 } } }]);
    const goldId = (made.body as { id: string }[])[0]?.id;
    expect((await memberTiers()).data).toEqual([]);
    await purchase();
    await purchase();
    expect((await stored())?.balance).toBe(200);
    const [tier] = (await memberTiers()).data;
    expect(tier).toMatchObject({ id: goldId, expiration: { tier_id: goldId, created_at: new Date(at).toISOString() } });
    await purchase();
    expect((await stored())?.balance).toBe(500);
    expect((await accruals()).map((t) => t.points).sort()).toEqual([100, 100, 300]);
    expect((await stored())?.tier?.id).toBe(goldId);
  });

  it('charges a member the reward price of its tier, and drops the member out of the tier when the spend takes its balance below', async () => {
    const { api, createTiers, loyalty, rewardId, assignmentId, memberTiers, stored } = await setup();
    await createTiers([{ name: 'Gold', points: { from: 300 }, rewards: { [assignmentId]: { type: 'CUSTOM', points: 250 } } }]);
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: 400 })).status).toBe(200);
    expect((await stored())?.tier).not.toBeNull();
    const rewards = await api.call('list-loyalty-tier-rewards', { params: { campaignId: 'Club', loyaltyTierId: (await stored())?.tier?.id as string } });
    expect(rewards.json.data).toMatchObject([{ assignment: { id: assignmentId, parameters: { loyalty: { points: 250 } } }, object: 'loyalty_tier_reward' }]);
    const offered = await api.call('list-member-rewards', { params: { memberId: 'CARD-1' }, query: 'affordable_only=true' });
    expect(offered.json.data).toMatchObject([{ assignment: { parameters: { loyalty: { points: 250 } } } }]);
    const redeemed = await api.call('redeem-reward', { params: { memberId: 'CARD-1' }, json: { reward: { id: rewardId } } });
    expect(redeemed.status).toBe(200);
    expect(redeemed.json.amount).toBe(250);
    expect((await stored())?.balance).toBe(150);
    expect((await stored())?.tier).toBeNull();
    expect((await memberTiers()).data).toEqual([]);
  });

  it("earns a paid order's points at the multiplier of the member's tier", async () => {
    const { api, createTiers, loyalty, stored, accruals } = await setup();
    const rules = await loyalty.createEarningRules('Club', [{ event: 'order.paid', loyalty: { type: 'FIXED', points: 10 } }]);
    const orderRuleId = (rules.json as unknown as { id: string }[])[0]?.id as string;
    await createTiers([{ name: 'Gold', points: { from: 300 }, earning_rules: { [orderRuleId]: { type: 'MULTIPLY', multiplier: 2.5 } } }]);
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: 300 })).status).toBe(200);
    const order = await api.call('create-order', { json: { amount: 1000, status: 'PAID', customer: { source_id: 'c1' } } });
    expect(order.status).toBe(200);
    expect((await stored())?.balance).toBe(325);
    expect((await accruals()).map((t) => t.points)).toEqual([25]);
  });

  it("takes the member out of its tier in the expiry worker's write-off of the points that held it there", async () => {
    const { clock, runtime, pair, createTiers, loyalty, stored, memberTiers } = await setup();
    await createTiers([{ name: 'Gold', points: { from: 300 } }]);
    const tomorrow = new Date(at + DAY).toISOString().slice(0, 10);
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: 300, expiration_date: tomorrow })).status).toBe(200);
    expect((await stored())?.tier).not.toBeNull();
    clock.advance(2 * DAY);
    await expirePoints(runtime, { projectId: pair.project_id });
    expect(await stored()).toMatchObject({ balance: 0, expiredPoints: 300, tier: null, tierChanges: 2 });
    expect((await memberTiers()).data).toEqual([]);
  });

  it("lists the program's earning rules as the tier's members earn by them", async () => {
    const { api, createTiers, ruleId } = await setup();
    const made = await createTiers([{ name: 'Gold', points: { from: 300 }, earning_rules: { [ruleId]: { type: 'MULTIPLY', multiplier: 1.5 } } }]);
    const tierId = (made.body as { id: string }[])[0]?.id as string;
    const reply = await api.call('list-loyalty-tier-earning-rules', { params: { campaignId: 'Club', loyaltyTierId: tierId } });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ total: 1, data: [{ id: ruleId, loyalty: { type: 'FIXED', points: 150 } }] });
  });

  it('gives parallel earnings that cross the threshold one tier change, each earning at the multiplier of the tier it committed in', async () => {
    const { createTiers, ruleId, purchase, stored, accruals } = await setup();
    await createTiers([{ name: 'Gold', points: { from: 300 }, earning_rules: { [ruleId]: { type: 'MULTIPLY', multiplier: 2 } } }]);
    const replies = await Promise.all(Array.from({ length: 6 }, () => purchase()));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const card = await stored();
    // 3 × 100 to reach 300, then 3 × 200 in Gold.
    expect(card?.balance).toBe(900);
    expect(card?.tierChanges).toBe(1);
    const byCommit = (await accruals()).sort((a, b) => a.balance - b.balance);
    expect(byCommit.map((t) => t.points)).toEqual([100, 100, 100, 200, 200, 200]);
    for (const t of byCommit) expect(t.points).toBe(t.balance - t.points >= 300 ? 200 : 100);
  });
});

describe('POST /v1/loyalties/{campaignId}/qualifications (estimate-points)', () => {
  it("estimates an order's points by the program's order.paid rules and the customer's tier, writing nothing", async () => {
    const { api, createTiers, loyalty, stored, accruals, program } = await setup();
    const rules = await loyalty.createEarningRules('Club', [
      { event: 'order.paid', loyalty: { type: 'FIXED', points: 10 } },
      { event: 'order.paid', loyalty: { type: 'PROPORTIONAL', calculation_type: 'ORDER_AMOUNT', order: { amount: { every: 100, points: 1 } } } },
    ]);
    const fixedId = (rules.json as unknown as { id: string }[])[0]?.id as string;
    await createTiers([{ name: 'Gold', points: { from: 300 }, earning_rules: { [fixedId]: { type: 'MULTIPLY', multiplier: 2 } } }]);
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: 300 })).status).toBe(200);
    const estimate = (json: unknown) => api.call('estimate-points', { params: { campaignId: 'Club' }, json });
    const gold = await estimate({ customer: { source_id: 'c1' }, order: { amount: 1000 } });
    expect(gold.status).toBe(200);
    expect(gold.json).toEqual({ campaign: { id: program.id, name: 'Club', object: 'campaign' }, points_estimation: 30 });
    expect((await estimate({ customer: { source_id: 'nobody' }, order: { amount: 1000 } })).json.points_estimation).toBe(20);
    expect((await api.call('create-order', { json: { source_id: 'web-1', amount: 500 } })).status).toBe(200);
    expect((await estimate({ customer: { source_id: 'c1' }, order: { source_id: 'web-1' } })).json.points_estimation).toBe(25);
    expect((await estimate({ order: { id: 'ord_missing' } })).status).toBe(404);
    expect((await stored())?.balance).toBe(300);
    expect(await accruals()).toEqual([]);
  });
});
