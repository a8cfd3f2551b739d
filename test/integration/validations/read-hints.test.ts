import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../lib/runtime.js';
import { readForValidation, type ValidationWants } from '../../../lib/validations/validation.repo.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;

/** Counts the BatchGetItem round trips the runtime's client sends. */
function countBatchGets(runtime: Runtime): { count: () => number } {
  let n = 0;
  const send = runtime.ddb.send.bind(runtime.ddb);
  runtime.ddb.send = ((command: { constructor: { name: string } }, ...rest: unknown[]) => {
    if (command.constructor.name === 'BatchGetCommand') n += 1;
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof runtime.ddb.send;
  return {
    count: () => {
      const seen = n;
      n = 0;
      return seen;
    },
  };
}

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const ok = async (operationId: string, options: Json) => {
    const reply = (await api.call(operationId, options)) as unknown as { status: number; json: Json };
    if (reply.status !== 200 && reply.status !== 201) throw new Error(`${operationId}: ${reply.status} ${JSON.stringify(reply.json)}`);
    return reply.json;
  };
  const discount = { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 300 } };
  const sale = (await ok('create-campaign', { json: { name: 'Sale', campaign_type: 'DISCOUNT_COUPONS', voucher: discount } })).id as string;
  const other = (await ok('create-campaign', { json: { name: 'Other', campaign_type: 'DISCOUNT_COUPONS', voucher: discount } })).id as string;
  for (const code of ['SALE-1', 'SALE-2', 'SALE-3']) await ok('create-voucher', { params: { code }, json: { campaign_id: sale } });
  await ok('create-voucher', { params: { code: 'OTHER-1' }, json: { campaign_id: other } });
  const promo = await ok('create-campaign', {
    json: { name: 'Promo', campaign_type: 'PROMOTION', promotion: { tiers: [{ name: 'Tier', action: { discount: { type: 'AMOUNT', amount_off: 100 } } }] } },
  });
  const tierId = ((promo.promotion as { tiers: { id: string }[] }).tiers[0] as { id: string }).id;
  const orderId = (await ok('create-order', { json: { source_id: 'ord-1', amount: 1000 } })).id as string;
  const customerId = (await ok('create-customer', { json: { source_id: 'cus-1', name: 'Ann' } })).id as string;
  const batches = countBatchGets(runtime);
  batches.count();
  return { runtime, api, ok, projectId: pair.project_id, sale, other, tierId, orderId, customerId, batches };
}

const wants = (codes: string[], extra: Partial<ValidationWants> = {}): ValidationWants => ({ codes, tierIds: [], order: null, customer: null, ...extra });

describe('readForValidation with the container’s read hints', () => {
  it('reads in two round trips the first time and in one once the container knows where the codes, tier, order and customer lead', async () => {
    const { runtime, projectId, sale, tierId, orderId, customerId, batches } = await setup();
    const request = wants(['SALE-1'], { tierIds: [tierId], order: { sourceId: 'ord-1' }, customer: { sourceId: 'cus-1' } });

    const cold = await readForValidation(runtime, projectId, request);
    expect(batches.count()).toBe(2);
    const warm = await readForValidation(runtime, projectId, request);
    expect(batches.count()).toBe(1);

    for (const reads of [cold, warm]) {
      expect(reads.vouchers.get('SALE-1')?.campaignId).toBe(sale);
      expect([...reads.campaigns.keys()].sort()).toEqual([sale, reads.tiers.get(tierId)?.campaign.id].sort());
      expect(reads.tiers.get(tierId)?.tier.name).toBe('Tier');
      expect(reads.order?.id).toBe(orderId);
      expect(reads.customer?.id).toBe(customerId);
    }
  });

  it('reads a code it has never seen in one round trip when its campaign is one the project used recently, and only keeps the campaigns asked for', async () => {
    const { runtime, projectId, sale, batches } = await setup();
    await readForValidation(runtime, projectId, wants(['SALE-1']));
    batches.count();
    const reads = await readForValidation(runtime, projectId, wants(['SALE-2', 'SALE-3']));
    expect(batches.count()).toBe(1);
    expect([...reads.campaigns.keys()]).toEqual([sale]);
    // A code of a campaign the project has not used here costs the second round trip, and the answer is whole.
    const other = await readForValidation(runtime, projectId, wants(['OTHER-1']));
    expect(batches.count()).toBe(2);
    expect(other.vouchers.get('OTHER-1')?.campaignId).toBe(other.campaigns.keys().next().value);
    expect(other.campaigns.size).toBe(1);
  });

  it('trusts what it reads over a wrong hint: the right campaign comes back (in a second round trip) and the hint is corrected', async () => {
    const { runtime, projectId, sale, other, batches } = await setup();
    runtime.readHints.learn(projectId, { codes: new Map([['SALE-1', other]]), tiers: new Map(), order: null, customer: null });
    const reads = await readForValidation(runtime, projectId, wants(['SALE-1']));
    expect(batches.count()).toBe(2);
    expect([...reads.campaigns.keys()]).toEqual([sale]);
    expect(runtime.readHints.campaignOfCode(projectId, 'SALE-1')).toBe(sale);
    await readForValidation(runtime, projectId, wants(['SALE-1']));
    expect(batches.count()).toBe(1);
  });

  it('never serves a campaign from memory: a campaign disabled after the hints were learnt is read disabled', async () => {
    const { runtime, ok, projectId, sale, batches } = await setup();
    expect((await readForValidation(runtime, projectId, wants(['SALE-1']))).campaigns.get(sale)?.active).toBe(true);
    await ok('disable-campaign', { params: { campaignId: sale } });
    batches.count();
    const reads = await readForValidation(runtime, projectId, wants(['SALE-1']));
    expect(batches.count()).toBe(1);
    expect(reads.campaigns.get(sale)?.active).toBe(false);
  });

  it('keeps hints per project: another project’s code of the same name is not read through them', async () => {
    const first = await setup();
    await readForValidation(first.runtime, first.projectId, wants(['SALE-1']));
    const second = await newProject(first.runtime);
    first.batches.count();
    const reads = await readForValidation(first.runtime, second.project_id, wants(['SALE-1']));
    expect(reads.vouchers.size).toBe(0);
    expect(reads.campaigns.size).toBe(0);
    expect(first.batches.count()).toBe(1);
  });

  it('reads validation rules with the redeemables: one round trip when warm, and a rule assigned later is read at once', async () => {
    const { runtime, ok, projectId, sale, customerId, batches } = await setup();
    const perCustomer = await ok('create-validation-rules', {
      json: { name: 'Once', rules: { 1: { name: 'redemption.count.per_customer', conditions: { $less_than_or_equal: [1] } } } },
    });
    await ok('create-validation-rule-assignment', {
      params: { validationRuleId: perCustomer.id },
      json: { related_object_type: 'campaign', related_object_id: sale },
    });
    const request = wants(['SALE-1'], { customer: { id: customerId } });
    batches.count();
    const cold = await readForValidation(runtime, projectId, request);
    // Voucher → campaign and its assignments → the rule → the customer's counts.
    expect(batches.count()).toBe(4);
    const warm = await readForValidation(runtime, projectId, request);
    expect(batches.count()).toBe(1);
    for (const reads of [cold, warm]) {
      expect(reads.validationRules.get(sale)?.map((r) => r.id)).toEqual([perCustomer.id]);
      // The customer's count items of the code and its campaign were read (none yet: 0 each).
      expect(reads.redemptionCounts).toEqual({ [`n:${reads.vouchers.get('SALE-1')?.id}`]: 0, [`n:${sale}`]: 0 });
    }
    // A never-seen code of the same campaign: its rules come with it (no voucher has rules of its own), but the customer's
    // count of it is an item keyed by the voucher's id, which only the first round tells: two round trips; the next, one.
    expect((await readForValidation(runtime, projectId, wants(['SALE-2'], { customer: { id: customerId } }))).validationRules.get(sale)).toHaveLength(1);
    expect(batches.count()).toBe(2);
    await readForValidation(runtime, projectId, wants(['SALE-2'], { customer: { id: customerId } }));
    expect(batches.count()).toBe(1);

    // A rule put on a voucher after the hints were learnt is read (the project's counts say vouchers now have rules).
    const voucher = await ok('get-voucher', { params: { code: 'SALE-1' } });
    const big = await ok('create-validation-rules', { json: { name: 'Big', rules: { 1: { name: 'order.amount', conditions: { $more_than: [100] } } } } });
    await ok('create-validation-rule-assignment', {
      params: { validationRuleId: big.id },
      json: { related_object_type: 'voucher', related_object_id: voucher.id },
    });
    batches.count();
    const later = await readForValidation(runtime, projectId, request);
    expect(later.validationRules.get(voucher.id as string)?.map((r) => r.id)).toEqual([big.id]);
    expect(batches.count()).toBe(3);
    await readForValidation(runtime, projectId, request);
    expect(batches.count()).toBe(1);
  });

  it('asks for no assignments in a project without rules, however many redeemables', async () => {
    const { runtime, projectId, batches } = await setup();
    const reads = await readForValidation(runtime, projectId, wants(['SALE-1', 'SALE-2', 'OTHER-1']));
    expect(batches.count()).toBe(2);
    expect([...reads.validationRules.values()].every((rules) => rules.length === 0)).toBe(true);
  });

  it('asks whether the lines’ targeted products were deleted in the first round once warm, and only for ids a rule targets', async () => {
    const { runtime, api, ok, projectId, sale, batches } = await setup();
    const boot = await ok('create-product', { json: { name: 'Boot', price: 900 } });
    const rule = await ok('create-validation-rules', {
      json: { name: 'Boots', rules: {}, applicable_to: { included: [{ object: 'product', id: boot.id }], excluded: [] } },
    });
    await ok('create-validation-rule-assignment', {
      params: { validationRuleId: rule.id },
      json: { related_object_type: 'campaign', related_object_id: sale },
    });
    const line = (productId: string) => ({ productId, skuId: null, productSourceId: null, skuSourceId: null, priced: true });
    const request = wants(['SALE-1'], { lines: [line(boot.id as string), line('prod_other')] });
    batches.count();
    const cold = await readForValidation(runtime, projectId, request);
    // Voucher → campaign and its assignments → the rule → whether its targeted line's product was deleted.
    expect(batches.count()).toBe(4);
    expect(cold.catalog.gone.size).toBe(0);
    await readForValidation(runtime, projectId, request);
    expect(batches.count()).toBe(1);
    expect((await api.call('delete-product', { params: { productId: boot.id as string } })).status).toBe(204);
    batches.count();
    expect([...(await readForValidation(runtime, projectId, request)).catalog.gone]).toEqual([boot.id]);
    expect(batches.count()).toBe(1);
  });
});
