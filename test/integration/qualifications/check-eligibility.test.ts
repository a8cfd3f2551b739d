import { describe, expect, it } from 'vitest';
import type { qualificationReplySchema } from '../../../lib/qualifications/qualification.reply.js';
import type { Voucher } from '../../../lib/vouchers/voucher.js';
import type * as z from '../../../lib/zod.js';
import { transact } from '../../../lib/db/transact.js';
import type { Runtime } from '../../../lib/runtime.js';
import { countVouchersItem, getVoucherByCode, insertVouchers, removeVoucher } from '../../../lib/vouchers/voucher.repo.js';
import { apiClient } from '../../support/api-client.js';
import { readRounds } from '../../support/read-rounds.js';
import { RecordingJobQueue } from '../../support/api.js';
import { at, countingReads, publicationSetup, putVoucher, standaloneVoucher } from '../publications/support.js';

type Reply = z.output<typeof qualificationReplySchema>;
type Json = Record<string, unknown>;

const minute = 60_000;
const iso = (offsetMinutes: number) => new Date(at + offsetMinutes * minute).toISOString();
const cart = { amount: 10_000, items: [{ product_id: 'prod_shoe', quantity: 2, price: 5000 }] };

async function setup() {
  const s = publicationSetup();
  const { api, runtime, projectId, clock } = await s;
  const qualify = async (json: Json) => (await api.call('check-eligibility', { json })) as unknown as { status: number; json: Reply & Json };
  const customer = async (sourceId: string) => {
    const reply = await api.call('create-customer', { json: { source_id: sourceId } });
    if (reply.status !== 200) throw new Error(JSON.stringify(reply.json));
    return (reply.json as { id: string }).id;
  };
  /** A voucher written straight into the table (held by `holderId` when given), created `minutes` after the start. */
  const held = (code: string, holderId: string | null, minutes: number, fields: Partial<Voucher> = {}) =>
    putVoucher(runtime, standaloneVoucher(projectId, code, { holderId, createdAt: iso(minutes), ...fields }));
  const campaign = async (json: Json) => {
    const reply = await api.call('create-campaign', { json });
    if (reply.status !== 200) throw new Error(JSON.stringify(reply.json));
    return reply.json as { id: string; name: string; promotion?: { tiers: { id: string; created_at: string }[] } };
  };
  /** A STANDALONE (generic code) campaign with one code, written as the voucher entity lays it out. */
  const generic = async (name: string, code: string, minutes: number, fields: Partial<Voucher> = {}) => {
    const c = await campaign({
      name,
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STANDALONE',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
    });
    await held(code, null, minutes, { campaignId: c.id, campaignName: name, discount: { type: 'AMOUNT', amountOff: 100 }, ...fields });
    return c;
  };
  /** A promotion created an hour later than the clock's time: its tiers are newer than the vouchers above. */
  const promotion = async (name: string, tiers: Json[]) => {
    clock.advance(60 * minute);
    return campaign({ name, campaign_type: 'PROMOTION', promotion: { tiers } });
  };
  return { ...(await s), qualify, customer, held, generic, promotion, campaign };
}

const ids = (r: { json: Reply }) => r.json.redeemables.data.map((d) => d.id);

describe('POST /v1/qualifications (check-eligibility)', () => {
  it('ALL: offers the customer’s usable vouchers, generic codes (of a STANDALONE campaign or of none) and active tiers, each with its discount and the order after it alone', async () => {
    const { qualify, customer, held, generic, promotion } = await setup();
    const ann = await customer('ann');
    const ben = await customer('ben');
    await held('ANN-500', ann, 1);
    await held('ANN-OFF', ann, 2, { active: false });
    await held('ANN-LATER', ann, 3, { startDate: iso(60 * 24 * 30) });
    await held('BEN-500', ben, 4);
    await held('NOBODY', null, 5);
    await generic('Generic', 'WELCOME', 6);
    const promo = await promotion('Promo', [
      { name: 'On', banner: 'Save 2', action: { discount: { type: 'AMOUNT', amount_off: 200 } } },
      { name: 'Off', active: false, action: { discount: { type: 'AMOUNT', amount_off: 300 } } },
    ]);
    const [on] = promo.promotion?.tiers ?? [];

    const reply = await qualify({ customer: { source_id: 'ann' }, order: cart, options: { limit: 50 } });
    expect(reply.status).toBe(200);
    expect(ids(reply)).toEqual([on?.id, 'WELCOME', 'NOBODY', 'ANN-500']);
    const [tier, welcome, nobody, mine] = reply.json.redeemables.data;
    expect(tier).toMatchObject({ object: 'promotion_tier', name: 'On', banner: 'Save 2', campaign_id: promo.id, campaign_name: 'Promo' });
    expect(tier?.result).toEqual({ discount: { type: 'AMOUNT', amount_off: 200 } });
    expect(welcome).toMatchObject({ object: 'voucher', campaign_name: 'Generic', created_at: iso(6) });
    expect(nobody).toMatchObject({ object: 'voucher', created_at: iso(5), result: { discount: { type: 'AMOUNT', amount_off: 500 } } });
    expect(mine?.result).toEqual({ discount: { type: 'AMOUNT', amount_off: 500 } });
    expect(mine?.order).toMatchObject({ amount: 10_000, total_discount_amount: 500, total_amount: 9500, total_applied_discount_amount: 500 });
    expect(reply.json.redeemables).toMatchObject({ object: 'list', data_ref: 'data', total: 4, has_more: false });
    expect(reply.json.order).toMatchObject({ amount: 10_000, total_amount: 10_000, total_discount_amount: 0 });
    expect(reply.json.stacking_rules.redeemables_limit).toBe(30);
    expect(reply.json.tracking_id).toMatch(/^track_/);
  });

  it('CUSTOMER_WALLET: only the vouchers the customer holds', async () => {
    const { qualify, customer, held, generic, promotion } = await setup();
    const ann = await customer('ann');
    await held('ANN-1', ann, 1);
    await held('ANN-2', ann, 2, { discount: { type: 'PERCENT', percentOff: 10 } });
    await generic('Generic', 'WELCOME', 3);
    await promotion('Promo', [{ name: 'T', action: { discount: { type: 'AMOUNT', amount_off: 200 } } }]);
    const reply = await qualify({ scenario: 'CUSTOMER_WALLET', customer: { id: ann }, order: cart, options: { limit: 10 } });
    expect(ids(reply)).toEqual(['ANN-2', 'ANN-1']);
    expect(reply.json.redeemables.data[0]?.order?.total_discount_amount).toBe(1000);
  });

  it('PRODUCTS and PRODUCTS_DISCOUNT offer item discounts anyone can use; the _BY_CUSTOMER forms add the wallet’s', async () => {
    const { qualify, customer, held, promotion } = await setup();
    const ann = await customer('ann');
    await held('ANN-ORDER', ann, 1);
    await held('ANN-ITEMS', ann, 2, { discount: { type: 'AMOUNT', amountOff: 100, effect: 'APPLY_TO_ITEMS' } });
    const promo = await promotion('Promo', [
      { name: 'Order', action: { discount: { type: 'AMOUNT', amount_off: 200 } } },
      { name: 'Items', action: { discount: { type: 'PERCENT', percent_off: 10, effect: 'APPLY_TO_ITEMS' } } },
    ]);
    const itemsTier = promo.promotion?.tiers[1]?.id;
    for (const scenario of ['PRODUCTS', 'PRODUCTS_DISCOUNT']) {
      expect(ids(await qualify({ scenario, customer: { id: ann }, order: cart, options: { limit: 10 } }))).toEqual([itemsTier]);
    }
    for (const scenario of ['PRODUCTS_BY_CUSTOMER', 'PRODUCTS_DISCOUNT_BY_CUSTOMER']) {
      expect(ids(await qualify({ scenario, customer: { id: ann }, order: cart, options: { limit: 10 } }))).toEqual([itemsTier, 'ANN-ITEMS']);
    }
  });

  it('AUDIENCE_ONLY: judges the customer without the order, so an item discount qualifies on an empty cart', async () => {
    const { qualify, customer, held, promotion } = await setup();
    const ann = await customer('ann');
    await held('ANN-ITEMS', ann, 1, { discount: { type: 'AMOUNT', amountOff: 100, effect: 'APPLY_TO_ITEMS' } });
    await held('ANN-OFF', ann, 2, { active: false });
    const promo = await promotion('Promo', [{ name: 'Items', action: { discount: { type: 'PERCENT', percent_off: 10, effect: 'APPLY_TO_ITEMS' } } }]);
    const tier = promo.promotion?.tiers[0]?.id;
    expect(ids(await qualify({ customer: { id: ann }, options: { limit: 10 } }))).toEqual([]);
    const audience = await qualify({ scenario: 'AUDIENCE_ONLY', customer: { id: ann }, order: { amount: 1000 }, options: { limit: 10 } });
    expect(ids(audience)).toEqual([tier, 'ANN-ITEMS']);
    expect(audience.json.redeemables.data[0]?.order).toBeUndefined();
  });

  it('pages by creation time: 50 at most, has_more and more_starting_after, no redeemable twice, none left out', async () => {
    const { qualify, customer, held } = await setup();
    const ann = await customer('ann');
    for (let i = 0; i < 12; i += 1) await held(`W-${String(i).padStart(2, '0')}`, ann, i);
    // Two in the same millisecond at a page boundary stay together.
    await held('W-08b', ann, 8);
    const seen: string[] = [];
    let cursor: string | undefined;
    const pages: number[] = [];
    for (let n = 0; n < 10; n += 1) {
      const reply = await qualify({ scenario: 'CUSTOMER_WALLET', customer: { id: ann }, options: { limit: 4, ...(cursor ? { starting_after: cursor } : {}) } });
      expect(reply.status).toBe(200);
      seen.push(...ids(reply));
      pages.push(reply.json.redeemables.total);
      if (!reply.json.redeemables.has_more) {
        expect(reply.json.redeemables.more_starting_after).toBeUndefined();
        break;
      }
      cursor = reply.json.redeemables.more_starting_after;
      expect(cursor).toBe(reply.json.redeemables.data.at(-1)?.created_at);
    }
    expect(seen).toEqual(['W-11', 'W-10', 'W-09', 'W-08b', 'W-08', 'W-07', 'W-06', 'W-05', 'W-04', 'W-03', 'W-02', 'W-01', 'W-00']);
    expect(pages).toEqual([3, 4, 4, 2]);
    const fiftyOne = await qualify({ customer: { id: ann }, options: { limit: 51 } });
    expect(fiftyOne.status).toBe(400);
    expect((await qualify({ scenario: 'CUSTOMER_WALLET', customer: { id: ann } })).json.redeemables).toMatchObject({ total: 5, has_more: true });
  });

  it('sorts a page by the discount with BEST_DEAL and LEAST_DEAL', async () => {
    const { qualify, customer, held } = await setup();
    const ann = await customer('ann');
    await held('SMALL', ann, 1, { discount: { type: 'AMOUNT', amountOff: 100 } });
    await held('BIG', ann, 2, { discount: { type: 'AMOUNT', amountOff: 900 } });
    await held('MID', ann, 3, { discount: { type: 'AMOUNT', amountOff: 500 } });
    const order = { amount: 10_000 };
    const by = async (sorting_rule: string) => ids(await qualify({ customer: { id: ann }, order, options: { sorting_rule, limit: 10 } }));
    expect(await by('DEFAULT')).toEqual(['MID', 'BIG', 'SMALL']);
    expect(await by('BEST_DEAL')).toEqual(['BIG', 'MID', 'SMALL']);
    expect(await by('LEAST_DEAL')).toEqual(['SMALL', 'MID', 'BIG']);
  });

  it('filters by resource type, campaign and code', async () => {
    const { qualify, customer, held, generic, promotion } = await setup();
    const ann = await customer('ann');
    await held('ANN-1', ann, 1);
    const g = await generic('Generic', 'WELCOME', 2);
    await promotion('Promo', [{ name: 'T', action: { discount: { type: 'AMOUNT', amount_off: 200 } } }]);
    const q = async (filters: Json) => ids(await qualify({ customer: { id: ann }, order: cart, options: { limit: 10, filters } }));
    expect(await q({ resource_type: { conditions: { $in: ['voucher'] } } })).toEqual(['WELCOME', 'ANN-1']);
    expect(await q({ campaign_id: { conditions: { $is: [g.id] } } })).toEqual(['WELCOME']);
    expect(await q({ code: { conditions: { $not_in: ['WELCOME'] } }, resource_type: { conditions: { $is: ['voucher'] } } })).toEqual(['ANN-1']);
    expect(await q({ junction: 'or', code: { conditions: { $in: ['ANN-1'] } }, campaign_id: { conditions: { $in: [g.id] } } })).toEqual(['WELCOME', 'ANN-1']);
  });

  it('a customer with no wallet, an unknown customer and no customer get the offers anyone can use, and nobody is created', async () => {
    const { qualify, customer, generic, promotion, api } = await setup();
    await customer('empty');
    await generic('Generic', 'WELCOME', 1);
    const promo = await promotion('Promo', [{ name: 'T', action: { discount: { type: 'AMOUNT', amount_off: 200 } } }]);
    const offers = [promo.promotion?.tiers[0]?.id, 'WELCOME'];
    expect(ids(await qualify({ customer: { source_id: 'empty' }, order: cart }))).toEqual(offers);
    expect(ids(await qualify({ customer: { source_id: 'stranger' }, order: cart }))).toEqual(offers);
    expect(ids(await qualify({ customer: { id: 'cust_unknown' }, order: cart }))).toEqual(offers);
    expect(ids(await qualify({ order: cart }))).toEqual(offers);
    expect(ids(await qualify({ scenario: 'CUSTOMER_WALLET', customer: { source_id: 'stranger' }, order: cart }))).toEqual([]);
    expect((await api.call('get-customer', { params: { customerId: 'stranger' } })).status).toBe(404);
  });

  it('with expand validation_rules, lists each redeemable’s own rule assignments; without, none', async () => {
    const { api, qualify, customer, held, promotion } = await setup();
    const ann = await customer('ann');
    await held('ANN-1', ann, 1);
    const promo = await promotion('Promo', [{ name: 'Big', action: { discount: { type: 'AMOUNT', amount_off: 200 } } }]);
    const tierId = promo.promotion?.tiers[0]?.id as string;
    const rule = await api.call('create-validation-rules', {
      json: { name: 'Big carts', rules: { 1: { name: 'order.amount', conditions: { $more_than: [1000] } }, logic: '1' } },
    });
    const assigned = await api.call('create-validation-rule-assignment', {
      params: { validationRuleId: rule.json.id as string },
      json: { related_object_type: 'promotion_tier', related_object_id: tierId },
    });
    expect(assigned.status, JSON.stringify(assigned.json)).toBe(200);

    const expanded = await qualify({ customer: { id: ann }, order: cart, options: { expand: ['validation_rules', 'category'] } });
    expect(expanded.status).toBe(200);
    expect(ids(expanded)).toEqual([tierId, 'ANN-1']);
    const [tier, voucher] = expanded.json.redeemables.data;
    expect(tier?.validation_rules_assignments).toEqual({
      object: 'list',
      data_ref: 'data',
      data: [
        {
          id: assigned.json.id,
          rule_id: rule.json.id,
          related_object_id: tierId,
          related_object_type: 'promotion_tier',
          created_at: assigned.json.created_at,
          object: 'validation_rules_assignment',
        },
      ],
      total: 1,
    });
    expect(voucher?.validation_rules_assignments).toEqual({ object: 'list', data_ref: 'data', data: [], total: 0 });

    const plain = await qualify({ customer: { id: ann }, order: cart });
    expect(plain.json.redeemables.data.map((d) => 'validation_rules_assignments' in d)).toEqual([false, false]);
  });

  it('refuses PROMOTION_STACKS and an unknown order id with the spec error object', async () => {
    const { qualify } = await setup();
    const stacks = await qualify({ scenario: 'PROMOTION_STACKS' });
    expect(stacks.status).toBe(400);
    expect(stacks.json).toMatchObject({ code: 400, key: 'invalid_payload' });
    const order = await qualify({ order: { id: 'ord_nope' } });
    expect(order.status).toBe(404);
    expect(order.json).toMatchObject({ key: 'not_found', resource_type: 'order' });
  });

  it('reads the wallet with one Query and every candidate without a read of its own, whatever the wallet holds', async () => {
    const { qualify, customer, held, runtime, campaignWith, publish } = await setup();
    const ann = await customer('ann');
    await campaignWith('Picks', ['PICK-1']);
    expect((await publish({ campaign: { name: 'Picks' }, customer: { id: ann } })).status).toBe(200);
    for (let i = 0; i < 40; i += 1) await held(`W-${i}`, ann, i);
    const calls: string[] = [];
    runtime.ddb.middlewareStack.add(
      (next) => async (args) => {
        calls.push(String((args as { input: { TableName?: string; RequestItems?: unknown } }).input.RequestItems ? 'BatchGet' : 'other'));
        return next(args);
      },
      { step: 'initialize', name: 'countQualificationCalls' },
    );
    const reads = countingReads(runtime);
    const reply = await qualify({ scenario: 'CUSTOMER_WALLET', customer: { id: ann }, order: cart, options: { limit: 50 } });
    expect(reply.json.redeemables.total).toBe(41);
    expect(ids(reply).slice(0, 2)).toEqual(['W-39', 'W-38']);
    expect(ids(reply)).toContain('PICK-1');
    // The context's BatchGet, the wallet's Query, the campaigns' BatchGet (plus the request's auth reads).
    expect(reads.queries.filter((pk) => pk.includes('#HOLDER#'))).toHaveLength(1);
    expect(calls.filter((c) => c === 'BatchGet').length).toBeLessThanOrEqual(3);
    expect(calls.length).toBeLessThanOrEqual(8);
  });
  it('in a project with validation rules, reads the wallet’s assignments with its campaigns in one BatchGet, and each rule once', async () => {
    const { qualify, customer, api, campaignWith, publish, runtime } = await setup();
    const ann = await customer('ann');
    const codes = Array.from({ length: 12 }, (_, i) => `RULED-${i}`);
    const picks = await campaignWith('Ruled', codes);
    for (let i = 0; i < codes.length; i += 1) expect((await publish({ campaign: { name: 'Ruled' }, customer: { id: ann } })).status).toBe(200);
    const rule = async (json: Json) => (await api.call('create-validation-rules', { json: { name: 'rule', ...json } })).json as { id: string };
    const assign = (ruleId: string, type: string, id: string) =>
      api.call('create-validation-rule-assignment', { params: { validationRuleId: ruleId }, json: { related_object_type: type, related_object_id: id } });
    const big = await rule({ rules: { 1: { name: 'order.amount', conditions: { $more_than_or_equal: [5000] } } } });
    expect((await assign(big.id, 'campaign', String(picks.id))).status).toBe(200);
    const voucher = (await api.call('get-voucher', { params: { code: 'RULED-3' } })).json as { id: string };
    const huge = await rule({ rules: { 1: { name: 'order.amount', conditions: { $more_than_or_equal: [50_000] } } } });
    expect((await assign(huge.id, 'voucher', voucher.id)).status).toBe(200);
    const batches: string[][] = [];
    runtime.ddb.middlewareStack.add(
      (next) => async (args) => {
        const keys = (args.input as { RequestItems?: Record<string, { Keys: { PK: string }[] }> }).RequestItems;
        if (keys) batches.push(Object.values(keys).flatMap((r) => r.Keys.map((k) => String(k.PK))));
        return next(args);
      },
      { step: 'initialize', name: 'recordQualificationBatches' },
    );
    const reply = await qualify({ scenario: 'CUSTOMER_WALLET', customer: { id: ann }, order: cart, options: { limit: 50 } });
    // The campaign's rule lets them all qualify on this cart but RULED-3, whose own rule does not.
    expect(reply.json.redeemables.total).toBe(11);
    expect(ids(reply)).not.toContain('RULED-3');
    const withAssignments = batches.filter((b) => b.some((pk) => pk.includes('#ASSIGNED#')));
    expect(withAssignments).toHaveLength(1);
    expect(withAssignments[0]?.some((pk) => pk.includes('#CAMPAIGN#'))).toBe(true);
    // Round 1 (context and hinted campaigns), round 2 (campaigns with the assignments), the rules.
    expect(batches.length).toBeLessThanOrEqual(3);
    const small = await qualify({ scenario: 'CUSTOMER_WALLET', customer: { id: ann }, order: { amount: 1000 }, options: { limit: 50 } });
    expect(small.json.redeemables.total).toBe(0);
  });

  it('sends its reads beside the credentials’ read once this container admitted them: one round trip in all', async () => {
    const { qualify, customer, held, promotion, runtime } = await setup();
    const ann = await customer('ann');
    await held('ANN-1', ann, 1);
    await promotion('Promo', [{ name: 'On', action: { discount: { type: 'AMOUNT', amount_off: 200 } } }]);
    const first = await qualify({ customer: { id: ann }, order: cart });
    await qualify({ customer: { id: ann }, order: cart });
    const rounds = readRounds(runtime);
    const warm = await qualify({ customer: { id: ann }, order: cart });
    expect(ids(warm)).toEqual(ids(first));
    expect(ids(warm)).toHaveLength(2);
    // The key's GetItem, the wallet's Query and the BatchGetItem of the rest (lib/auth/credential-hints.ts).
    expect(rounds.take().map((round) => [...round].sort())).toEqual([['BatchGet', 'Get', 'Query']]);
  });

  describe('what a container learnt of the project’s offers (qualification-hints.ts)', () => {
    /** Every Query and BatchGetItem the runtime's client sends, by partition (Query) or as a batch. */
    const recordCalls = (runtime: Runtime) => {
      const calls: string[] = [];
      runtime.ddb.middlewareStack.add(
        (next) => async (args) => {
          const input = args.input as { KeyConditionExpression?: string; ExpressionAttributeValues?: Record<string, unknown>; RequestItems?: unknown };
          if (input.RequestItems) calls.push('BatchGet');
          else if (input.KeyConditionExpression) calls.push(`Query ${String(input.ExpressionAttributeValues?.[':pk'])}`);
          return next(args);
        },
        { step: 'initialize', name: 'recordOfferCalls' },
      );
      return { calls, clear: () => void calls.splice(0) };
    };
    /** A STANDALONE (generic code) campaign with no code yet. */
    const emptyGeneric = (name: string) => ({
      name,
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STANDALONE',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
    });
    const offerQueries = (calls: readonly string[]) => calls.filter((c) => c.startsWith('Query') && !c.includes('#HOLDER#'));

    it('once learnt, reads the offers in the round’s one BatchGet, with no Query of the campaign list or of the codes', async () => {
      const { qualify, customer, held, generic, promotion, runtime } = await setup();
      const ann = await customer('ann');
      await held('ANN-1', ann, 1);
      await generic('Generic', 'WELCOME', 2);
      await promotion('Promo', [{ name: 'On', action: { discount: { type: 'AMOUNT', amount_off: 200 } } }]);
      const rec = recordCalls(runtime);
      const first = await qualify({ customer: { id: ann }, order: cart });
      expect(offerQueries(rec.calls).length).toBeGreaterThan(0);
      expect(ids(first)).toHaveLength(3);
      await qualify({ customer: { id: ann }, order: cart });
      rec.clear();
      const warm = await qualify({ customer: { id: ann }, order: cart });
      expect(ids(warm)).toEqual(ids(first));
      // The generic code was written straight into the table, without the campaign's counters: its campaign's codes are queried each time.
      expect(offerQueries(rec.calls)).toEqual([expect.stringContaining('#VOUCHERS')]);
      expect(rec.calls.filter((c) => c === 'BatchGet')).toHaveLength(1);
    });

    it('sees a campaign created since (the counter moved), and drops one deleted since', async () => {
      const { qualify, promotion, headers, runtime } = await setup();
      const a = await promotion('A', [{ name: 'A1', action: { discount: { type: 'AMOUNT', amount_off: 100 } } }]);
      for (let i = 0; i < 2; i += 1) expect(ids(await qualify({ order: cart }))).toEqual([a.promotion?.tiers[0]?.id]);
      const rec = recordCalls(runtime);
      expect(offerQueries(rec.calls)).toEqual([]);
      const b = await promotion('B', [{ name: 'B1', action: { discount: { type: 'AMOUNT', amount_off: 100 } } }]);
      rec.clear();
      expect(ids(await qualify({ order: cart }))).toEqual([b.promotion?.tiers[0]?.id, a.promotion?.tiers[0]?.id]);
      // The campaign list once (the hour the clock moved also aged out the list of vouchers of no campaign: queried too).
      expect(offerQueries(rec.calls).filter((c) => c.endsWith('#CAMPAIGNS'))).toHaveLength(1);
      rec.clear();
      expect(ids(await qualify({ order: cart }))).toHaveLength(2);
      expect(offerQueries(rec.calls)).toEqual([]);
      const withJobs = apiClient({ runtime, jobs: new RecordingJobQueue() }, headers);
      expect((await withJobs.call('delete-campaign', { params: { campaignId: a.id } })).status).toBe(202);
      expect(ids(await qualify({ order: cart }))).toEqual([b.promotion?.tiers[0]?.id]);
    });

    it('sees a generic code added to or removed from a learnt campaign through its counters', async () => {
      const { qualify, campaign, runtime, projectId } = await setup();
      const g = await campaign(emptyGeneric('G'));
      const code = (c: string, minutes: number) =>
        standaloneVoucher(projectId, c, { campaignId: g.id, campaignName: 'G', createdAt: iso(minutes), id: `v_${c}00000000000000000` });
      for (let i = 0; i < 3; i += 1) expect(ids(await qualify({ order: cart }))).toEqual([]);
      const rec = recordCalls(runtime);
      expect(await insertVouchers(runtime, projectId, g.id, [code('G1', 1)])).toEqual({ kind: 'ok' });
      expect(ids(await qualify({ order: cart }))).toEqual(['G1']);
      expect(offerQueries(rec.calls)).toHaveLength(1);
      await qualify({ order: cart });
      rec.clear();
      expect(ids(await qualify({ order: cart }))).toEqual(['G1']);
      expect(offerQueries(rec.calls)).toEqual([]);
      expect(await insertVouchers(runtime, projectId, g.id, [code('G2', 2)])).toEqual({ kind: 'ok' });
      expect(ids(await qualify({ order: cart }))).toEqual(['G2', 'G1']);
      const g1 = (await getVoucherByCode(runtime, projectId, 'G1')) as Voucher;
      expect(await removeVoucher(runtime, g1, null, iso(3))).toBe('ok');
      expect(ids(await qualify({ order: cart }))).toEqual(['G2']);
    });

    it('offers a generic code made through POST /v1/vouchers/{code} into a STANDALONE campaign, and one deleted through DELETE no more', async () => {
      const { api, qualify, campaign, runtime } = await setup();
      const g = await campaign(emptyGeneric('G'));
      for (let i = 0; i < 2; i += 1) expect(ids(await qualify({ order: cart }))).toEqual([]);
      const made = await api.call('create-voucher', { params: { code: 'WELCOME' }, json: { campaign_id: g.id } });
      expect(made.status, JSON.stringify(made.json)).toBe(200);
      const first = await qualify({ order: cart });
      expect(ids(first)).toEqual(['WELCOME']);
      expect(first.json.redeemables.data[0]).toMatchObject({
        object: 'voucher',
        campaign_id: g.id,
        campaign_name: 'G',
        result: { discount: { type: 'AMOUNT', amount_off: 100 } },
      });
      await qualify({ order: cart });
      // The endpoint raised the campaign's counters in the insert's transaction: once learnt, no Query of its codes.
      const rec = recordCalls(runtime);
      expect(ids(await qualify({ order: cart }))).toEqual(['WELCOME']);
      expect(offerQueries(rec.calls)).toEqual([]);
      expect((await api.call('create-voucher', { params: { code: 'HELLO' }, json: { campaign: 'G' } })).status).toBe(200);
      expect(ids(await qualify({ order: cart })).sort()).toEqual(['HELLO', 'WELCOME']);
      expect((await api.call('delete-voucher', { params: { code: 'WELCOME' }, query: 'force=true' })).status).toBe(204);
      expect(ids(await qualify({ order: cart }))).toEqual(['HELLO']);
    });

    it('offers generic codes of no campaign made through POST /v1/vouchers[/{code}] at once, in the warm round, and no more once deleted; a one-off code only to its holder', async () => {
      const { api, qualify, customer, publish, runtime, clock } = await setup();
      const ann = await customer('ann');
      const amount = (amount_off: number) => ({ discount: { type: 'AMOUNT', amount_off } });
      for (let i = 0; i < 2; i += 1) expect(ids(await qualify({ customer: { id: ann }, order: cart }))).toEqual([]);
      const made = await api.call('create-voucher', { params: { code: 'SOLO-WELCOME' }, json: { type: 'DISCOUNT_VOUCHER', ...amount(300) } });
      expect(made.status, JSON.stringify(made.json)).toBe(200);
      // The insert moved the project's marker of vouchers of no campaign: the next request sees the code.
      const first = await qualify({ customer: { id: ann }, order: cart });
      expect(ids(first)).toEqual(['SOLO-WELCOME']);
      expect(first.json.redeemables.data[0]).toMatchObject({ object: 'voucher', result: { discount: { type: 'AMOUNT', amount_off: 300 } } });
      clock.advance(minute);
      const once = await api.call('create-voucher', { params: { code: 'SOLO-ONCE' }, json: { ...amount(700), redemption: { quantity: 1 } } });
      expect(once.status, JSON.stringify(once.json)).toBe(200);
      clock.advance(minute);
      const random = await api.call('generate-random-code', { json: { ...amount(100), redemption: { quantity: 3 } } });
      expect(random.status, JSON.stringify(random.json)).toBe(200);
      const randomCode = random.json.code as string;
      // A one-off code nobody holds is the shop's to hand out: not offered to anyone.
      expect(ids(await qualify({ customer: { id: ann }, order: cart }))).toEqual([randomCode, 'SOLO-WELCOME']);
      expect((await publish({ voucher: 'SOLO-ONCE', customer: { id: ann } })).status).toBe(200);
      expect(ids(await qualify({ customer: { id: ann }, order: cart }))).toEqual([randomCode, 'SOLO-ONCE', 'SOLO-WELCOME']);
      expect(ids(await qualify({ order: cart }))).toEqual([randomCode, 'SOLO-WELCOME']);
      // Warm: the key's Get, the wallet's Query and one BatchGet (the marker and the learnt codes in it); no Query of the codes.
      await qualify({ customer: { id: ann }, order: cart });
      const rec = recordCalls(runtime);
      const rounds = readRounds(runtime);
      expect(ids(await qualify({ customer: { id: ann }, order: cart }))).toEqual([randomCode, 'SOLO-ONCE', 'SOLO-WELCOME']);
      expect(rounds.take().map((round) => [...round].sort())).toEqual([['BatchGet', 'Get', 'Query']]);
      expect(offerQueries(rec.calls)).toEqual([]);
      expect((await api.call('delete-voucher', { params: { code: 'SOLO-WELCOME' }, query: 'force=true' })).status).toBe(204);
      expect(ids(await qualify({ customer: { id: ann }, order: cart }))).toEqual([randomCode, 'SOLO-ONCE']);
    });

    it('sees a code inserted while an older, unlearnt one was deleted: the count is the same, vouchersInserted is not', async () => {
      const { qualify, campaign, runtime, projectId } = await setup();
      const g = await campaign(emptyGeneric('G'));
      const code = (n: number) =>
        standaloneVoucher(projectId, `G${n}`, { campaignId: g.id, campaignName: 'G', createdAt: iso(n), id: `v_G${n}0000000000000000` });
      expect(await insertVouchers(runtime, projectId, g.id, [1, 2, 3, 4, 5, 6].map(code))).toEqual({ kind: 'ok' });
      // The newest five are learnt; G1 is the campaign's sixth code, outside them.
      for (let i = 0; i < 3; i += 1) expect(ids(await qualify({ order: cart }))).toEqual(['G6', 'G5', 'G4', 'G3', 'G2']);
      const g1 = (await getVoucherByCode(runtime, projectId, 'G1')) as Voucher;
      expect(await removeVoucher(runtime, g1, null, iso(7))).toBe('ok');
      expect(await insertVouchers(runtime, projectId, g.id, [code(8)])).toEqual({ kind: 'ok' });
      expect(ids(await qualify({ order: cart }))).toEqual(['G8', 'G6', 'G5', 'G4', 'G3']);
    });

    it('does not learn codes the campaign’s count says the index has not caught up with', async () => {
      const { qualify, campaign, runtime, projectId } = await setup();
      const g = await campaign(emptyGeneric('G'));
      await putVoucher(runtime, standaloneVoucher(projectId, 'SEEN', { campaignId: g.id, campaignName: 'G', createdAt: iso(1) }));
      // The campaign counts two vouchers; the index shows one: as if the other's insert had not reached it yet.
      await transact(runtime, [countVouchersItem(runtime, projectId, g.id, 2)]);
      for (let i = 0; i < 2; i += 1) await qualify({ order: cart });
      const rec = recordCalls(runtime);
      expect(ids(await qualify({ order: cart }))).toEqual(['SEEN']);
      expect(offerQueries(rec.calls)).toEqual([expect.stringContaining('#VOUCHERS')]);
    });
  });
});
