import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { earningRuleReplySchema } from '../../../lib/earning-rules/earning-rule.reply.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import { earnFromPaidOrder, listOrderEarnings, takeBackOrderEarning } from '../../../lib/loyalties/order-earning.service.js';
import { replaceOrder } from '../../../lib/orders/order.repo.js';
import { getOrder } from '../../../lib/orders/order.service.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 1, 10, 12, 0, 0);

async function setup(program: { autoJoin?: boolean } = {}) {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  await newCampaign(campaigns, {
    name: 'Club',
    campaign_type: 'LOYALTY_PROGRAM',
    type: 'AUTO_UPDATE',
    ...(program.autoJoin ? { auto_join: true } : {}),
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  });
  const join = async (sourceId: string) => {
    const reply = await api.call('add-member', { params: { campaignId: 'Club' }, json: { customer: { source_id: sourceId } } });
    expect(reply.status).toBe(200);
    return reply.json as { id: string; code: string; holder_id: string };
  };
  const order = async (json: Record<string, unknown>) => {
    const reply = await api.call('create-order', { json });
    expect(reply.status).toBe(200);
    return reply.json as { id: string; status: string };
  };
  const update = (orderId: string, json: unknown) => api.call('update-order', { params: { orderId }, json });
  const card = async (code: string) =>
    (await api.call('get-member', { params: { memberId: code } })).json as { loyalty_card: { points: number; balance: number } };
  const transactions = (voucherId: string) => listCardTransactions(runtime, pair.project_id, voucherId);
  return { clock, runtime, pair, api, campaigns, loyalty, join, order, update, card, transactions };
}

const fixed = (points: number) => ({ event: 'order.paid', loyalty: { type: 'FIXED', points }, source: { banner: 'Paid order' } });
const perTenSpent = { event: 'order.paid', loyalty: { type: 'PROPORTIONAL', calculation_type: 'ORDER_AMOUNT', order: { amount: { every: 1000, points: 1 } } } };

describe('order.paid earning rules', () => {
  it('creates order.paid rules with the order calculations, without a custom_event', async () => {
    const { loyalty } = await setup();
    const items = {
      event: 'order.paid',
      loyalty: {
        type: 'PROPORTIONAL',
        calculation_type: 'ORDER_ITEMS_QUANTITY',
        order_items: { quantity: { every: 1, points: 3, object: 'product', id: 'prod_shoe' } },
      },
    };
    const reply = await loyalty.createEarningRules('Club', [fixed(5), perTenSpent, items]);
    expect(reply.status).toBe(200);
    const rules = (reply.json as unknown as unknown[]).map((r) => earningRuleReplySchema.parse(r));
    expect(rules.map((r) => r.event)).toEqual(['order.paid', 'order.paid', 'order.paid']);
    expect(rules[1]?.loyalty).toEqual(perTenSpent.loyalty);
    expect(rules[2]?.loyalty).toEqual(items.loyalty);
    expect(rules.every((r) => r.custom_event === undefined)).toBe(true);
  });

  it('refuses a calculation of the other kind of event, and a custom_event on an order.paid rule', async () => {
    const { loyalty } = await setup();
    const metadataRule = {
      event: 'order.paid',
      loyalty: { type: 'PROPORTIONAL', calculation_type: 'CUSTOM_EVENT_METADATA', custom_event: { metadata: { every: 1, points: 1, property: 'x' } } },
    };
    expect((await loyalty.createEarningRules('Club', [metadataRule])).json.key).toBe('invalid_payload');
    expect((await loyalty.createEarningRules('Club', [{ ...fixed(1), custom_event: { schema_id: 'ms_1' } }])).json.key).toBe('invalid_payload');
  });
});

describe('PUT /v1/orders/{orderId} to PAID: earning', () => {
  it("adds the rules' points to the customer's card with one POINTS_ACCRUAL per rule naming the order and the rule", async () => {
    const { loyalty, join, order, update, card, transactions } = await setup();
    await loyalty.createEarningRules('Club', [fixed(5), perTenSpent]);
    const member = await join('ann');
    const o = await order({ source_id: 'web-1', amount: 12_345, customer: { source_id: 'ann' } });
    expect((await card(member.code)).loyalty_card.balance).toBe(0);
    expect((await update(o.id, { status: 'PAID' })).status).toBe(200);
    expect((await card(member.code)).loyalty_card).toMatchObject({ points: 17, balance: 17 });
    const txs = await transactions(member.id);
    expect(txs).toHaveLength(2);
    expect(txs.every((t) => t.type === 'POINTS_ACCRUAL' && t.source === null)).toBe(true);
    expect(txs.map((t) => t.points).sort((a, b) => a - b)).toEqual([5, 12]);
    expect(txs[0]?.details).toMatchObject({
      event: { type: 'customer.order.paid' },
      order: { id: o.id, sourceId: 'web-1' },
      earningRule: { id: expect.stringMatching(/^ern_/) },
    });
    expect(txs.at(-1)?.balance).toBe(17);
  });

  it('earns when an order is created PAID, and not for another customer, an order without a customer, or a CREATED order', async () => {
    const { loyalty, join, order, card } = await setup();
    await loyalty.createEarningRules('Club', [fixed(5)]);
    const ann = await join('ann');
    await join('bob');
    await order({ amount: 100, customer: { source_id: 'bob' }, status: 'PAID' });
    await order({ amount: 100, status: 'PAID' });
    await order({ amount: 100, customer: { source_id: 'ann' } });
    expect((await card(ann.code)).loyalty_card.balance).toBe(0);
    await order({ amount: 100, customer: { source_id: 'ann' }, status: 'PAID' });
    expect((await card(ann.code)).loyalty_card.balance).toBe(5);
  });

  it('earns nothing by a disabled, deleted, not yet started or expired rule', async () => {
    const { api, loyalty, join, order, card } = await setup();
    const created = (
      await loyalty.createEarningRules('Club', [
        fixed(1),
        fixed(10),
        { ...fixed(100), start_date: '2026-03-01T00:00:00Z' },
        { ...fixed(1000), expiration_date: '2026-02-01T00:00:00Z' },
      ])
    ).json as unknown as { id: string }[];
    const [one, ten] = created;
    await api.call('disable-earning-rule', { params: { campaignId: 'Club', earningRuleId: one?.id ?? '' } });
    await api.call('delete-earning-rule', { params: { campaignId: 'Club', earningRuleId: ten?.id ?? '' } });
    const ann = await join('ann');
    await order({ amount: 100, customer: { source_id: 'ann' }, status: 'PAID' });
    expect((await card(ann.code)).loyalty_card.balance).toBe(0);
  });

  it('joins an auto_join program on the first paid order of a customer without a card, and earns on the new card', async () => {
    const { loyalty, order, api } = await setup({ autoJoin: true });
    await loyalty.createEarningRules('Club', [fixed(7)]);
    await order({ amount: 100, customer: { source_id: 'cleo' }, status: 'PAID' });
    const members = (await api.call('list-members', { params: { campaignId: 'Club' } })).json as { vouchers: { loyalty_card: { balance: number } }[] };
    expect(members.vouchers).toHaveLength(1);
    expect(members.vouchers[0]?.loyalty_card.balance).toBe(7);
  });

  it('gives nothing to a customer without a card when the program has no auto_join', async () => {
    const { loyalty, order, api } = await setup();
    await loyalty.createEarningRules('Club', [fixed(7)]);
    await order({ amount: 100, customer: { source_id: 'dan' }, status: 'PAID' });
    expect(((await api.call('list-members', { params: { campaignId: 'Club' } })).json as { vouchers: unknown[] }).vouchers).toHaveLength(0);
  });

  it.each([2, 10])('earns once when %i parallel updates set the order PAID: one accrual per rule, one earning entry', async (n) => {
    const { runtime, pair, loyalty, join, order, update, card, transactions } = await setup();
    await loyalty.createEarningRules('Club', [fixed(5), perTenSpent]);
    const member = await join('ann');
    const o = await order({ amount: 5_000, customer: { source_id: 'ann' } });
    const replies = await Promise.all(Array.from({ length: n }, () => update(o.id, { status: 'PAID' })));
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: n }, () => 200));
    expect((await card(member.code)).loyalty_card).toMatchObject({ points: 10, balance: 10 });
    const accruals = (await transactions(member.id)).filter((t) => t.type === 'POINTS_ACCRUAL');
    expect(accruals.map((t) => t.points).sort((a, b) => a - b)).toEqual([5, 5]);
    expect(await listOrderEarnings(runtime, pair.project_id, o.id)).toHaveLength(2);
  });

  it('earns once when an order goes PAID, CREATED, PAID again', async () => {
    const { loyalty, join, order, update, card } = await setup();
    await loyalty.createEarningRules('Club', [fixed(5)]);
    const member = await join('ann');
    const o = await order({ amount: 100, customer: { source_id: 'ann' } });
    await update(o.id, { status: 'PAID' });
    await update(o.id, { status: 'CREATED' });
    await update(o.id, { status: 'PAID' });
    expect((await card(member.code)).loyalty_card.balance).toBe(5);
  });
});

describe('PUT /v1/orders/{orderId} to CANCELED: take-back', () => {
  it('takes back what the order earned with a POINTS_REMOVAL per rule naming the order, related to the accrual', async () => {
    const { clock, loyalty, join, order, update, card, transactions } = await setup();
    await loyalty.createEarningRules('Club', [fixed(5), perTenSpent]);
    const member = await join('ann');
    await loyalty.updateBalance('Club', member.code, { points: 30 });
    clock.advance(1000);
    const o = await order({ source_id: 'web-9', amount: 5_000, customer: { source_id: 'ann' }, status: 'PAID' });
    expect((await card(member.code)).loyalty_card.balance).toBe(40);
    clock.advance(1000);
    expect((await update(o.id, { status: 'CANCELED' })).status).toBe(200);
    expect((await card(member.code)).loyalty_card).toMatchObject({ points: 40, balance: 30 });
    const txs = await transactions(member.id);
    const removals = txs.filter((t) => t.type === 'POINTS_REMOVAL');
    expect(removals.map((t) => t.points)).toEqual([-5, -5]);
    const accrualIds = txs.filter((t) => t.type === 'POINTS_ACCRUAL').map((t) => t.id);
    for (const r of removals) {
      expect(r.source).toBeNull();
      expect(r.details).toMatchObject({ event: { type: 'customer.order.canceled' }, order: { id: o.id, sourceId: 'web-9' } });
      expect(r.details?.earningRule?.id).toMatch(/^ern_/);
      expect(accrualIds).toContain(r.relatedTransactionId);
    }
    expect(txs.at(-1)?.balance).toBe(30);
  });

  it.each([2, 10])('takes back once under %i parallel cancellations', async (n) => {
    const { loyalty, join, order, update, card, transactions } = await setup();
    await loyalty.createEarningRules('Club', [fixed(5)]);
    const member = await join('ann');
    await loyalty.updateBalance('Club', member.code, { points: 20 });
    const o = await order({ amount: 100, customer: { source_id: 'ann' }, status: 'PAID' });
    const replies = await Promise.all(Array.from({ length: n }, () => update(o.id, { status: 'CANCELED' })));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect((await card(member.code)).loyalty_card.balance).toBe(20);
    expect((await transactions(member.id)).filter((t) => t.type === 'POINTS_REMOVAL')).toHaveLength(1);
  });

  it("earn, spend, cancel: never takes a card below zero, and records the shortfall on the entry and in the removal seen in the card's transactions", async () => {
    const { runtime, pair, api, loyalty, join, order, update, card, transactions } = await setup();
    await loyalty.createEarningRules('Club', [fixed(10)]);
    const member = await join('ann');
    const o = await order({ source_id: 'web-7', amount: 100, customer: { source_id: 'ann' }, status: 'PAID' });
    await loyalty.updateBalance('Club', member.code, { points: -7 });
    await update(o.id, { status: 'CANCELED' });
    expect((await card(member.code)).loyalty_card.balance).toBe(0);
    const removals = (await transactions(member.id)).filter((t) => t.type === 'POINTS_REMOVAL' && t.source === null);
    expect(removals.map((t) => [t.points, t.balance])).toEqual([[-3, 0]]);
    expect(await listOrderEarnings(runtime, pair.project_id, o.id)).toEqual([
      expect.objectContaining({ status: 'TAKEN_BACK', takenBackPoints: 3, shortfallPoints: 7, takeBackTransactionId: removals[0]?.id }),
    ]);
    // The client sees it: the program's member transactions list the take-back with the shortfall in its reason.
    const listed = await api.call('list-loyalty-card-transactions-1', { params: { campaignId: 'Club', memberId: member.code } });
    expect(listed.status).toBe(200);
    const wire = (
      listed.json as { data: { type: string; source: string | null; reason: string | null; details: { balance: { points: number; balance: number } } }[] }
    ).data;
    const takeBack = wire.find((t) => t.type === 'POINTS_REMOVAL' && t.source === null);
    expect(takeBack?.details.balance).toMatchObject({ points: -3, balance: 0 });
    expect(takeBack?.reason).toBe('Order web-7 canceled: it earned 10 points, 3 taken back, 7 already spent or expired and not recovered');
  });

  it('writes a 0-point removal naming the shortfall when nothing is left to take, and does not earn again when the order is paid again', async () => {
    const { runtime, pair, loyalty, join, order, update, card, transactions } = await setup();
    await loyalty.createEarningRules('Club', [fixed(10)]);
    const member = await join('ann');
    const o = await order({ amount: 100, customer: { source_id: 'ann' }, status: 'PAID' });
    await loyalty.updateBalance('Club', member.code, { points: -10 });
    await update(o.id, { status: 'CANCELED' });
    await update(o.id, { status: 'PAID' });
    expect((await card(member.code)).loyalty_card.balance).toBe(0);
    // The accrual, the manual removal (source API) and the take-back of nothing, which says so.
    const txs = await transactions(member.id);
    expect(txs).toHaveLength(3);
    expect(txs.map((t) => [t.type, t.source, t.points])).toEqual(
      expect.arrayContaining([
        ['POINTS_ACCRUAL', null, 10],
        ['POINTS_REMOVAL', 'API', -10],
        ['POINTS_REMOVAL', null, 0],
      ]),
    );
    expect(txs.find((t) => t.type === 'POINTS_REMOVAL' && t.source === null)?.reason).toBe(
      `Order ${o.id} canceled: it earned 10 points, 0 taken back, 10 already spent or expired and not recovered`,
    );
    expect(await listOrderEarnings(runtime, pair.project_id, o.id)).toEqual([expect.objectContaining({ takenBackPoints: 0, shortfallPoints: 10 })]);
  });
});

describe('earnFromPaidOrder and takeBackOrderEarning called concurrently (the earning entries, not the order write, decide)', () => {
  it('of 10 parallel earnings of one paid order one adds the points, and of 10 parallel take-backs one removes them', async () => {
    const { runtime, pair, loyalty, join, order, card, transactions } = await setup();
    const member = await join('ann');
    const o = await order({ amount: 100, customer: { source_id: 'ann' }, status: 'PAID' });
    await loyalty.createEarningRules('Club', [fixed(5), fixed(6)]);
    const paid = await getOrder(runtime, pair.project_id, o.id);
    await Promise.all(Array.from({ length: 10 }, () => earnFromPaidOrder(runtime, paid)));
    expect((await card(member.code)).loyalty_card.balance).toBe(11);
    expect((await transactions(member.id)).filter((t) => t.type === 'POINTS_ACCRUAL')).toHaveLength(2);
    // The take-back holds only while the stored order is CANCELED: store it so, without running the effects.
    const canceled = { ...paid, status: 'CANCELED' as const, revision: paid.revision + 1 };
    expect(await replaceOrder(runtime, paid, canceled)).toBe(true);
    const runs = await Promise.all(Array.from({ length: 10 }, () => takeBackOrderEarning(runtime, canceled)));
    expect(runs.reduce((n, r) => n + r.entries, 0)).toBe(2);
    expect((await card(member.code)).loyalty_card.balance).toBe(0);
    expect((await transactions(member.id)).filter((t) => t.type === 'POINTS_REMOVAL')).toHaveLength(2);
  });
});

describe('PUT /v1/orders/{orderId} with PAID and CANCELED in parallel (issue 41 item 2)', () => {
  it('leaves the card as the final status says as soon as both replies are in (10 orders)', async () => {
    const { runtime, pair, loyalty, join, order, update, card } = await setup();
    await loyalty.createEarningRules('Club', [fixed(100)]);
    const member = await join('ann');
    const orders = await Promise.all(Array.from({ length: 10 }, (_, i) => order({ source_id: `race-${i}`, amount: 100, customer: { source_id: 'ann' } })));
    // Each order gets both at once; the ten races run together, the order of the two alternating.
    const replies = await Promise.all(
      orders.map((o, i) => {
        const both = [update(o.id, { status: 'PAID' }), update(o.id, { status: 'CANCELED' })];
        return Promise.all(i % 2 === 0 ? both : both.reverse());
      }),
    );
    let paid = 0;
    for (const [i, o] of orders.entries()) {
      const stored = await getOrder(runtime, pair.project_id, o.id);
      const entries = await listOrderEarnings(runtime, pair.project_id, o.id);
      const held = entries.filter((e) => e.status === 'EARNED').reduce((n, e) => n + e.points, 0);
      // PAID: the 100 points are held; CANCELED: none are (never earned, or earned and taken back).
      expect([o.id, stored.status, held]).toEqual([o.id, stored.status, stored.status === 'PAID' ? 100 : 0]);
      if (stored.status === 'PAID') paid += 1;
      expect(replies[i]?.map((r) => r.status)).toEqual([200, 200]);
    }
    expect((await card(member.code)).loyalty_card.balance).toBe(100 * paid);
  });
});

describe('POST /v1/redemptions with an order left PAID', () => {
  it('earns by the order.paid rules once, however many redemptions the order gets', async () => {
    const { api, loyalty, join, card, transactions } = await setup();
    await loyalty.createEarningRules('Club', [perTenSpent]);
    const member = await join('ann');
    for (const code of ['TEN-1', 'TEN-2']) {
      expect(
        (await api.call('create-voucher', { params: { code }, json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } })).status,
      ).toBe(200);
    }
    const redeem = (code: string) =>
      api.call('redeem-stacked-discounts', {
        json: {
          redeemables: [{ object: 'voucher', id: code }],
          customer: { source_id: 'ann' },
          order: { source_id: 'shop-1', status: 'PAID', items: [{ product_id: 'shoe', quantity: 1, price: 4_000 }] },
        },
      });
    expect((await redeem('TEN-1')).status).toBe(200);
    expect((await card(member.code)).loyalty_card.balance).toBe(4);
    expect((await redeem('TEN-2')).status).toBe(200);
    expect((await card(member.code)).loyalty_card.balance).toBe(4);
    expect((await transactions(member.id)).filter((t) => t.type === 'POINTS_ACCRUAL')).toHaveLength(1);
  });
});
