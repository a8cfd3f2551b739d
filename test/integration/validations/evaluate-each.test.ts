import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import type { StackedRedeemableInput, StackedRequest } from '../../../lib/validations/validation.schema.js';
import { evaluateEach, evaluateRedeemables } from '../../../lib/validations/validation.service.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/*
 * evaluateEach (lib/validations/validation.service.ts), the engine entry point the qualifications
 * use: one read of many redeemables, then each request evaluated from it, must give exactly what
 * evaluateRedeemables gives for the same request read on its own. A project with every kind of
 * verdict (applicable, each rule violation, inactive, expired, unknown, item discounts narrowed
 * by applicable_to, counters, tiers, a gift card) is evaluated both ways under several contexts.
 */

type Json = Record<string, unknown>;
const at = Date.UTC(2026, 6, 6, 13, 0, 0);

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const ok = async (id: string, opts: Parameters<typeof api.call>[1]) => {
    const reply = await api.call(id, opts);
    if (reply.status >= 300) throw new Error(`${id}: ${reply.status} ${JSON.stringify(reply.json)}`);
    return reply.json as Json;
  };
  const amount = { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } };
  const percentItems = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10, effect: 'APPLY_TO_ITEMS' } };
  const voucher = (code: string, json: Json = amount) => ok('create-voucher', { params: { code }, json });
  const rule = (json: Json) => ok('create-validation-rules', { json: { name: 'rule', ...json } });
  const assign = (ruleId: unknown, type: string, id: unknown) =>
    ok('create-validation-rule-assignment', { params: { validationRuleId: String(ruleId) }, json: { related_object_type: type, related_object_id: id } });

  await voucher('PLAIN');
  await voucher('OFF', { ...amount, active: false });
  await voucher('OLD', { ...amount, expiration_date: '2026-01-01T00:00:00Z' });
  await voucher('GIFT', { type: 'GIFT_VOUCHER', gift: { amount: 3000 } });
  const big = await voucher('BIG');
  await assign(
    (await rule({ rules: { 1: { name: 'order.amount', conditions: { $more_than_or_equal: [5000] }, error: { message: 'Spend 50' } } } })).id,
    'voucher',
    big.id,
  );
  const gold = await voucher('GOLD');
  await assign((await rule({ rules: { 1: { name: 'customer.metadata', property: 'tier', conditions: { $is: ['gold'] } } } })).id, 'voucher', gold.id);
  const once = await voucher('ONCE');
  await assign((await rule({ rules: { 1: { name: 'redemption.count.per_customer', conditions: { $less_than_or_equal: [1] } } } })).id, 'voucher', once.id);
  const shoes = await voucher('SHOES', percentItems);
  await assign((await rule({ rules: {}, applicable_to: { included: [{ object: 'product', id: 'prod_shoe' }], excluded: [] } })).id, 'voucher', shoes.id);
  await voucher('ITEMS', percentItems);
  const campaign = await ok('create-campaign', {
    json: { name: 'Capped', type: 'AUTO_UPDATE', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } },
  });
  for (const code of ['CAMP-1', 'CAMP-2'])
    await ok('add-voucher-with-specific-code-to-campaign', { params: { campaignId: String(campaign.id), code }, json: {} });
  await assign((await rule({ rules: { 1: { name: 'campaign.redemptions.count', conditions: { $less_than_or_equal: [1] } } } })).id, 'campaign', campaign.id);
  const promotion = await ok('create-campaign', {
    json: {
      name: 'Promo',
      campaign_type: 'PROMOTION',
      promotion: {
        tiers: [
          { name: 'Big carts', action: { discount: { type: 'AMOUNT', amount_off: 1000 } } },
          { name: 'Items', action: { discount: { type: 'PERCENT', percent_off: 5, effect: 'APPLY_TO_ITEMS' } } },
          { name: 'Asleep', active: false, action: { discount: { type: 'AMOUNT', amount_off: 300 } } },
        ],
      },
    },
  });
  const tiers = (promotion.promotion as { tiers: { id: string }[] }).tiers.map((t) => t.id);
  await assign((await rule({ rules: { 1: { name: 'order.amount', conditions: { $more_than: [10000] } } } })).id, 'promotion_tier', tiers[0]);
  await ok('create-customer', { json: { source_id: 'gold-member', metadata: { tier: 'gold' } } });
  // One redemption of ONCE and CAMP-1 by the gold member: the counters rules read are not zero.
  for (const code of ['ONCE', 'CAMP-1'])
    await ok('redeem-stacked-discounts', {
      json: { redeemables: [{ object: 'voucher', id: code }], order: { amount: 6000 }, customer: { source_id: 'gold-member' } },
    });

  const redeemables: StackedRedeemableInput[] = [
    ...['PLAIN', 'OFF', 'OLD', 'GIFT', 'BIG', 'GOLD', 'ONCE', 'SHOES', 'ITEMS', 'CAMP-1', 'CAMP-2', 'NOPE'].map((id) => ({ object: 'voucher' as const, id })),
    ...[...tiers, 'promo_unknown'].map((id) => ({ object: 'promotion_tier' as const, id })),
  ];
  const deps = { ddb: runtime.ddb, tableName: runtime.tableName, ids: runtime.ids, readHints: runtime.readHints };
  return { runtime, clock, projectId: pair.project_id, deps, redeemables };
}

const items = [
  { product_id: 'prod_shoe', quantity: 2, price: 3000 },
  { product_id: 'prod_hat', quantity: 1, price: 2000 },
];
const contexts: Omit<StackedRequest, 'redeemables'>[] = [
  { order: { amount: 20_000, items }, customer: { source_id: 'gold-member' } },
  { order: { amount: 4000 }, customer: { source_id: 'gold-member', metadata: { tier: 'silver' } } },
  { order: { items: [{ product_id: 'prod_hat', quantity: 1, price: 2000 }] }, customer: { source_id: 'somebody-new' } },
  { order: { amount: 12_000, items } },
  { customer: { source_id: 'gold-member' } },
  {},
];

describe('evaluateEach: one read, then each request evaluated from it', () => {
  it('gives every redeemable alone exactly the evaluation evaluateRedeemables gives it, in every context', async () => {
    const { clock, projectId, deps, redeemables } = await setup();
    const seen = new Set<string>();
    for (const context of contexts) {
      const shared = await evaluateEach(deps, projectId, context, redeemables, clock);
      expect(shared.evaluate(context, [])).toEqual(await evaluateRedeemables(deps, projectId, { ...context, redeemables: [] }, clock));
      for (const r of redeemables) {
        const alone = await evaluateRedeemables(deps, projectId, { ...context, redeemables: [r] }, clock);
        expect([r.id, shared.evaluate(context, [r])]).toEqual([r.id, alone]);
        const e = alone.redeemables[0];
        seen.add(`${e?.status}:${e?.errorKey ?? ''}`);
      }
    }
    // The table covers each kind of verdict, so the equality above is not vacuous.
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        'APPLICABLE:',
        'INAPPLICABLE:resource_not_found',
        'INAPPLICABLE:voucher_disabled',
        'INAPPLICABLE:voucher_expired',
        'INAPPLICABLE:order_rules_violated',
        'INAPPLICABLE:customer_rules_violated',
        'INAPPLICABLE:redemption_rules_violated',
        'INAPPLICABLE:promotion_inactive',
        'INAPPLICABLE:missing_order_items',
      ]),
    );
  });

  it('property: any few of the redeemables, in any order, evaluated together from the shared read equal a read of their own', async () => {
    const { clock, projectId, deps, redeemables } = await setup();
    const shared = await Promise.all(contexts.map((c) => evaluateEach(deps, projectId, c, redeemables, clock)));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: contexts.length - 1 }),
        fc.uniqueArray(fc.constantFrom(...redeemables), { minLength: 1, maxLength: 5, selector: (r) => r.id }),
        async (i, chosen) => {
          const context = contexts[i] ?? {};
          const alone = await evaluateRedeemables(deps, projectId, { ...context, redeemables: chosen }, clock);
          expect(shared[i]?.evaluate(context, chosen)).toEqual(alone);
        },
      ),
      { numRuns: 40 },
    );
  });
});
