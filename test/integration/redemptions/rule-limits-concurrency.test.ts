import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { campaignRedemptionCount } from '../../../lib/db/entities.js';
import { EXACT_CAMPAIGN_SHARD } from '../../../lib/validations/redeemable-rules.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/*
 * Issue 41 item 7: every count limit a validation rule states holds exactly under concurrency.
 * 30 redemptions are fired at once (real DynamoDB Local, through the API's handlers) against a
 * limit of 5: exactly 5 are written, the other 25 get the 400 the rule gives when it is evaluated
 * normally (redemption_rules_violated with the rule's message), and the stored count is 5.
 */

const at = Date.UTC(2026, 6, 6, 13, 0, 0);
type Json = Record<string, unknown>;

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const ok = async (id: string, opts: Parameters<typeof api.call>[1]) => {
    const reply = await api.call(id, opts);
    if (reply.status >= 300) throw new Error(`${id}: ${reply.status} ${JSON.stringify(reply.json)}`);
    return reply.json as Json;
  };
  const rule = (json: Json) => ok('create-validation-rules', { json: { name: 'limit', ...json } });
  const assign = (ruleId: string, type: string, id: unknown) =>
    ok('create-validation-rule-assignment', { params: { validationRuleId: ruleId }, json: { related_object_type: type, related_object_id: id } });
  /** A campaign of limitless codes (their uses are counted on shards, as a hot campaign's are). */
  const campaign = async (name: string, codes: string[]) => {
    const c = await ok('create-campaign', {
      json: { name, type: 'AUTO_UPDATE', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } },
    });
    for (const code of codes) await ok('add-voucher-with-specific-code-to-campaign', { params: { campaignId: c.id as string, code }, json: {} });
    return c.id as string;
  };
  const redeem = async (json: Json) => {
    const reply = await api.call('redeem-stacked-discounts', { json });
    return { status: reply.status, json: reply.json as Json };
  };
  /** The campaign's stored redemption count: every shard, the exact one included, summed. */
  const storedCount = async (campaignId: string) => {
    const res = await runtime.ddb.send(
      new QueryCommand({
        TableName: runtime.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': campaignRedemptionCount.key.partition(pair.project_id, campaignId) },
        ConsistentRead: true,
      }),
    );
    const shards = (res.Items ?? []) as { SK: string; count: number }[];
    return { total: shards.reduce((sum, s) => sum + s.count, 0), exact: shards.find((s) => s.SK === String(EXACT_CAMPAIGN_SHARD)) };
  };
  return { runtime, pair, api, ok, rule, assign, campaign, redeem, storedCount };
}

const cart = (i: number) => ({ source_id: `ord-${i}`, amount: 1000, items: [{ product_id: 'prod_shoe', quantity: 1, price: 1000 }] });
const one = (code: string) => [{ object: 'voucher', id: code }];
const parallel = <T>(n: number, f: (i: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: n }, (_, i) => f(i)));
const keysOf = (replies: { status: number; json: Json }[]) => replies.filter((r) => r.status !== 200).map((r) => `${r.status} ${String(r.json.key)}`);

describe('count limits of validation rules under concurrency (30 parallel redemptions, limit 5)', () => {
  it('campaign.redemptions.count ≤ 5: exactly 5 of 30 parallel redemptions by 30 customers succeed, 25 get 400 redemption_rules_violated, the stored count is 5', async () => {
    const { api, rule, assign, campaign, redeem, storedCount } = await setup();
    const campaignId = await campaign('First five', ['FIVE']);
    const r = await rule({ rules: { 1: { name: 'campaign.redemptions.count', conditions: { $less_than_or_equal: [5] }, error: { message: 'Sold out' } } } });
    await assign(r.id as string, 'campaign', campaignId);

    const replies = await parallel(30, (i) => redeem({ redeemables: one('FIVE'), order: cart(i), customer: { source_id: `c-${i}` } }));
    expect(replies.filter((x) => x.status === 200)).toHaveLength(5);
    expect(keysOf(replies)).toEqual(Array(25).fill('400 redemption_rules_violated'));
    for (const x of replies.filter((y) => y.status !== 200)) expect(x.json).toMatchObject({ resource_id: 'FIVE', error: { message: 'Sold out' } });
    expect((await storedCount(campaignId)).total).toBe(5);
    // The refusal is the one a validation gives for the rule.
    const validation = await api.call('validate-stacked-discounts', { json: { redeemables: one('FIVE'), order: cart(99), customer: { source_id: 'c-99' } } });
    expect(validation.json).toMatchObject({
      valid: false,
      redeemables: [{ status: 'INAPPLICABLE', result: { error: { key: 'redemption_rules_violated', error: { message: 'Sold out' } } } }],
    });
  });

  it('a rollback gives its count back: after the 5th, one rollback frees exactly one place for 10 parallel redemptions', async () => {
    const { api, rule, assign, campaign, redeem, storedCount } = await setup();
    const campaignId = await campaign('Five at a time', ['FREED-1', 'FREED-2']);
    const r = await rule({ rules: { 1: { name: 'campaign.redemptions.count', conditions: { $less_than: [6] } } } });
    await assign(r.id as string, 'campaign', campaignId);
    const first = await parallel(8, (i) => redeem({ redeemables: one(`FREED-${(i % 2) + 1}`), order: cart(i) }));
    expect(first.filter((x) => x.status === 200)).toHaveLength(5);
    const won = first.find((x) => x.status === 200)?.json.parent_redemption as Json;
    const rolled = await api.call('rollback-stacked-redemptions', { params: { redemptionId: won.id as string }, json: {} });
    expect(rolled.status).toBe(200);
    // Taken off the exact shard, where the rule's redemptions count (a rule's lower bound is exact only so).
    expect(await storedCount(campaignId)).toMatchObject({ total: 4, exact: { count: 4 } });

    const second = await parallel(10, (i) => redeem({ redeemables: one(`FREED-${(i % 2) + 1}`), order: cart(100 + i) }));
    expect(second.filter((x) => x.status === 200)).toHaveLength(1);
    expect(keysOf(second)).toEqual(Array(9).fill('400 redemption_rules_violated'));
    expect((await storedCount(campaignId)).total).toBe(5);
  });

  it('a rule assigned to a campaign already counted on random shards: 3 before it, then ≤ 5 lets exactly 2 of 10 parallel redemptions through', async () => {
    const { rule, assign, campaign, redeem, storedCount } = await setup();
    const campaignId = await campaign('Late limit', ['LATE']);
    for (let i = 0; i < 3; i += 1) expect((await redeem({ redeemables: one('LATE'), order: cart(i) })).status).toBe(200);
    expect(await storedCount(campaignId)).toMatchObject({ total: 3, exact: undefined });
    const r = await rule({ rules: { 1: { name: 'campaign.redemptions.count', conditions: { $less_than_or_equal: [5] } } } });
    await assign(r.id as string, 'campaign', campaignId);

    const replies = await parallel(10, (i) => redeem({ redeemables: one('LATE'), order: cart(10 + i) }));
    expect(replies.filter((x) => x.status === 200)).toHaveLength(2);
    expect(keysOf(replies)).toEqual(Array(8).fill('400 redemption_rules_violated'));
    expect(await storedCount(campaignId)).toMatchObject({ total: 5, exact: { count: 2 } });
  });

  it('redemption.count.per_customer ≤ 5: exactly 5 of 30 parallel redemptions by one customer succeed; the customer has redeemed 5', async () => {
    const { ok, rule, assign, redeem } = await setup();
    const v = await ok('create-voucher', { params: { code: 'MINE5' }, json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } });
    const r = await rule({ rules: { 1: { name: 'redemption.count.per_customer', conditions: { $less_than_or_equal: [5] } } } });
    await assign(r.id as string, 'voucher', v.id);
    await ok('create-customer', { json: { source_id: 'eve' } });

    const replies = await parallel(30, (i) => redeem({ redeemables: one('MINE5'), order: cart(i), customer: { source_id: 'eve' } }));
    expect(replies.filter((x) => x.status === 200)).toHaveLength(5);
    expect(keysOf(replies)).toEqual(Array(25).fill('400 redemption_rules_violated'));
    expect(await ok('get-customer', { params: { customerId: 'eve' } })).toMatchObject({ summary: { redemptions: { total_redeemed: 5 } } });
  });

  it('redemption.count.per_campaign ≤ 5: exactly 5 of 30 parallel redemptions by one customer across 3 codes of the campaign succeed', async () => {
    const { ok, rule, assign, campaign, redeem } = await setup();
    const campaignId = await campaign('Five each', ['PC5-1', 'PC5-2', 'PC5-3']);
    const r = await rule({ rules: { 1: { name: 'redemption.count.per_campaign', conditions: { $less_than_or_equal: [5] } } } });
    await assign(r.id as string, 'campaign', campaignId);
    await ok('create-customer', { json: { source_id: 'fay' } });

    const replies = await parallel(30, (i) => redeem({ redeemables: one(`PC5-${(i % 3) + 1}`), order: cart(i), customer: { source_id: 'fay' } }));
    expect(replies.filter((x) => x.status === 200)).toHaveLength(5);
    expect(keysOf(replies)).toEqual(Array(25).fill('400 redemption_rules_violated'));
    expect(await ok('get-customer', { params: { customerId: 'fay' } })).toMatchObject({ summary: { redemptions: { total_redeemed: 5 } } });
  });

  it('a campaign no bounded rule reads keeps its random shards (the exact counter is not written), and counts every redemption', async () => {
    const { campaign, redeem, storedCount } = await setup();
    const campaignId = await campaign('No limit', ['FREE']);
    const replies = await parallel(10, (i) => redeem({ redeemables: one('FREE'), order: cart(i) }));
    expect(replies.map((x) => x.status)).toEqual(Array(10).fill(200));
    const stored = await storedCount(campaignId);
    expect(stored.total).toBe(10);
    expect(stored.exact).toBeUndefined();
  });
});
