import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { voucherTransactionListReplySchema } from '../../../lib/vouchers/voucher-balance.reply.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 1, 10, 12, 0, 0);

type Tx = { id: string; type: string; voucher_id: string; campaign_id: string; details: Record<string, unknown> & { balance: Record<string, unknown> } };

/** A project with the program `Club` (card CARD-1), the event `order_paid` and two earning rules on it. */
async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  const events = eventApi(runtime, pair);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const schema = (await events.createSchema(schemaBody('order_paid', { amount: 'number?' }))).json;
  const club = await newCampaign(campaigns, {
    name: 'Club',
    campaign_type: 'LOYALTY_PROGRAM',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  });
  const card = (await campaigns.addVoucher('Club', { code: 'CARD-1' })).json;
  const rules = (
    await loyalty.createEarningRules('Club', [
      { event: 'order_paid', loyalty: { type: 'FIXED', points: 5 }, source: { banner: 'Paid order' } },
      {
        event: 'order_paid',
        loyalty: { type: 'PROPORTIONAL', calculation_type: 'CUSTOM_EVENT_METADATA', custom_event: { metadata: { every: 10, points: 2, property: 'amount' } } },
      },
    ])
  ).json as unknown as { id: string }[];
  const paid = (amount: number, code = 'CARD-1') => ({ event: 'order_paid', customer: { source_id: 'ann' }, loyalty: { code }, metadata: { amount } });
  const cardTransactions = async (query = '', memberId = 'CARD-1') => {
    const reply = await api.call('list-loyalty-card-transactions', { params: { memberId }, query });
    expect(reply.status).toBe(200);
    return voucherTransactionListReplySchema.parse(reply.json);
  };
  return { clock, runtime, pair, campaigns, loyalty, events, api, schema, club, card, rules, paid, cardTransactions };
}

describe('transactions of earning: POST /v1/events writes a POINTS_ACCRUAL per applying rule with the points', () => {
  it('lists one accrual per rule with the event, the custom event, its schema and the rule, and the balance after each', async () => {
    const { events, schema, club, card, rules, paid, cardTransactions } = await setup();
    expect((await events.trackEvent(paid(30))).status).toBe(200);
    const list = await cardTransactions('order=id');
    const eventId = list.data[0]?.details.event?.id ?? '';
    expect(eventId).toMatch(/^evcus_/);
    expect(list).toMatchObject({ object: 'list', data_ref: 'data', has_more: false });
    expect(list.data).toHaveLength(2);
    const byRule = new Map(list.data.map((t) => [t.details.earning_rule?.id, t]));
    const [fixed, proportional] = rules;
    expect(byRule.get(fixed?.id)).toMatchObject({
      type: 'POINTS_ACCRUAL',
      voucher_id: card.id,
      campaign_id: club.id,
      source: null,
      source_id: null,
      reason: null,
      related_transaction_id: null,
      details: {
        balance: { type: 'loyalty_card', points: 5, operation_type: 'AUTOMATIC', related_object: { type: 'voucher', id: card.id } },
        event: { id: eventId, type: 'customer.custom_event' },
        custom_event: { id: eventId, type: 'order_paid' },
        event_schema: { id: schema.id, name: 'order_paid' },
        earning_rule: { id: fixed?.id, source: { banner: 'Paid order' } },
      },
    });
    expect(byRule.get(proportional?.id)).toMatchObject({ details: { balance: { points: 6 }, earning_rule: { source: { banner: '' } } } });
    // The two rules' points commit together, listed in id order: each shows the card after itself and those before it.
    const [one, two] = list.data;
    expect(one?.details.balance).toMatchObject({ total: one?.details.balance.points, balance: one?.details.balance.points });
    expect(two?.details.balance).toMatchObject({ total: 11, balance: 11 });
  });

  it('writes no transaction for an event without a card or without rules', async () => {
    const { events, cardTransactions } = await setup();
    expect((await events.trackEvent({ event: 'order_paid', customer: { source_id: 'ann' } })).status).toBe(200);
    expect((await events.createSchema(schemaBody('signed_up'))).status).toBe(200);
    expect((await events.trackEvent({ event: 'signed_up', customer: { source_id: 'ann' }, loyalty: { code: 'CARD-1' } })).status).toBe(200);
    expect((await cardTransactions()).data).toEqual([]);
  });

  it('records each of 10 parallel events: 20 accruals, balances 1 apart from the last to the first, ending at the card balance', async () => {
    const { events, cardTransactions, campaigns } = await setup();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => events.trackEvent({ event: 'order_paid', customer: { source_id: 'ann' }, loyalty: { code: 'CARD-1' } })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const first = await cardTransactions('limit=100');
    expect(first.data).toHaveLength(10);
    const balances = first.data.map((t) => t.details.balance.balance).sort((a, b) => a - b);
    expect(balances).toEqual(Array.from({ length: 10 }, (_, i) => 5 * (i + 1)));
    expect(((await campaigns.getVoucher('CARD-1')).json.loyalty_card as { balance: number }).balance).toBe(50);
  });
});

describe('GET /v1/loyalties/members/{memberId}/transactions and /v1/loyalties/{campaignId}/members/{memberId}/transactions', () => {
  it('pages newest first (or oldest first with order=id) after starting_after_id, by code or id, and refuses a cursor of another card', async () => {
    const { clock, loyalty, api, card, campaigns, cardTransactions } = await setup();
    const ids: string[] = [];
    for (let i = 1; i <= 5; i += 1) {
      await loyalty.updateBalance('Club', 'CARD-1', { points: i, reason: `r${i}` });
      clock.advance(1000);
    }
    const all = await cardTransactions('order=id&limit=100');
    ids.push(...all.data.map((t) => t.id));
    expect(all.data.map((t) => t.reason)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    const page1 = await cardTransactions('limit=2');
    expect(page1).toMatchObject({ has_more: true, more_starting_after: ids[3] });
    expect(page1.data.map((t) => t.id)).toEqual([ids[4], ids[3]]);
    const page2 = await cardTransactions(`limit=2&starting_after_id=${ids[3]}`);
    expect(page2.data.map((t) => t.id)).toEqual([ids[2], ids[1]]);
    const last = await cardTransactions(`limit=2&starting_after_id=${ids[1]}`);
    expect(last).toMatchObject({ has_more: false, data: [{ id: ids[0] }] });
    expect((await cardTransactions('limit=100', card.id as string)).data).toHaveLength(5);
    const scoped = await api.call('list-loyalty-card-transactions-1', { params: { campaignId: 'Club', memberId: 'CARD-1' }, query: 'order=id&limit=1' });
    expect(scoped.json).toMatchObject({ has_more: true, data: [{ id: ids[0], type: 'POINTS_ADDITION', details: { balance: { operation_type: 'MANUAL' } } }] });

    await campaigns.addVoucher('Club', { code: 'CARD-2' });
    const other = await api.call('list-loyalty-card-transactions', { params: { memberId: 'CARD-2' }, query: `starting_after_id=${ids[0]}` });
    expect(other.json).toMatchObject({ code: 400, key: 'invalid_query_params' });
    expect((await api.call('list-loyalty-card-transactions', { params: { memberId: 'NOPE' } })).status).toBe(404);
    await newCampaign(campaigns, { name: 'Other', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    expect((await api.call('list-loyalty-card-transactions-1', { params: { campaignId: 'Other', memberId: 'CARD-1' } })).status).toBe(404);
  });
});

describe('GET /v1/loyalties/{campaignId}/transactions', () => {
  it("lists every card's transactions of the program, newest first, in pages, and none of another program's", async () => {
    const { clock, loyalty, events, api, campaigns, paid } = await setup();
    await campaigns.addVoucher('Club', { code: 'CARD-2' });
    await newCampaign(campaigns, { name: 'Other', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    await campaigns.addVoucher('Other', { code: 'OTHER-1' });
    await loyalty.updateBalance('Club', 'CARD-1', { points: 10 });
    clock.advance(1000);
    await loyalty.updateBalance('Other', 'OTHER-1', { points: 10 });
    clock.advance(1000);
    await events.trackEvent(paid(0, 'CARD-2'));
    clock.advance(1000);
    await loyalty.updateBalance('Club', 'CARD-2', { points: -5 });
    const list = async (query: string) => {
      const reply = await api.call('list-loyalty-campaign-transactions', { params: { campaignId: 'Club' }, query });
      expect(reply.status).toBe(200);
      return voucherTransactionListReplySchema.parse(reply.json);
    };
    const all = await list('limit=100');
    expect(all.data.map((t) => [t.type, t.details.balance.points])).toEqual([
      ['POINTS_REMOVAL', -5],
      ['POINTS_ACCRUAL', 5],
      ['POINTS_ADDITION', 10],
    ]);
    const first = await list('limit=2&order=id');
    expect(first).toMatchObject({ has_more: true });
    const rest = await list(`limit=2&order=id&starting_after_id=${first.more_starting_after ?? ''}`);
    expect([...first.data, ...rest.data].map((t) => t.id)).toEqual([...all.data].reverse().map((t) => t.id));
    const otherTx = (await api.call('list-loyalty-campaign-transactions', { params: { campaignId: 'Other' } })).json.data as Tx[];
    expect(otherTx).toHaveLength(1);
    expect(
      (await api.call('list-loyalty-campaign-transactions', { params: { campaignId: 'Club' }, query: `starting_after_id=${otherTx[0]?.id}` })).status,
    ).toBe(400);
    expect((await api.call('list-loyalty-campaign-transactions', { params: { campaignId: 'Nope' } })).status).toBe(404);
  });
});

describe('transactions of referee rewards', () => {
  it("records a POINTS_ACCRUAL on the referee's new card, and on the card they already hold", async () => {
    const { clock, events, api, campaigns, club } = await setup();
    expect((await events.createSchema(schemaBody('user_subscribed'))).status).toBe(200);
    await newCampaign(campaigns, {
      ...campaignBodies.REFERRAL_PROGRAM('Friends'),
      referral_program: {
        conversion_event_type: 'custom_event',
        custom_event: { name: 'user_subscribed' },
        referee_reward: { related_object_parent: { id: club.id }, type: 'LOYALTY_CARD', amount: 150 },
      },
    });
    await campaigns.addVoucher('Friends', { code: 'REF-1' });
    await campaigns.addVoucher('Friends', { code: 'REF-2' });
    await events.trackEvent({ event: 'user_subscribed', customer: { source_id: 'rita' } });
    const subscribed = (code: string, who: string) => ({ event: 'user_subscribed', customer: { source_id: who }, referral: { code, referrer_id: 'rita' } });

    // Bob gets a new card with the reward.
    const event = (await events.trackEvent(subscribed('REF-1', 'bob'))).json;
    const bobId = (event.customer as { id: string }).id;
    const bobCard = (await api.call('list-members', { params: { campaignId: 'Club' }, query: `customer=${bobId}` })).json.vouchers as { code: string }[];
    const code = bobCard[0]?.code ?? '';
    const tx = async () => (await api.call('list-loyalty-card-transactions', { params: { memberId: code } })).json.data as Tx[];
    expect(await tx()).toEqual([
      expect.objectContaining({
        type: 'POINTS_ACCRUAL',
        details: expect.objectContaining({
          balance: expect.objectContaining({ points: 150, total: 150, balance: 150 }),
          event: { id: expect.stringMatching(/^evcus_/), type: 'customer.custom_event' },
          custom_event: { id: expect.stringMatching(/^evcus_/), type: 'user_subscribed' },
        }),
      }),
    ]);
    // Bob converts another code: the reward lands on the card he holds.
    clock.advance(1000);
    await events.trackEvent(subscribed('REF-2', 'bob'));
    const both = await tx();
    expect(both.map((t) => [t.type, t.details.balance.points, t.details.balance.balance])).toEqual([
      ['POINTS_ACCRUAL', 150, 300],
      ['POINTS_ACCRUAL', 150, 150],
    ]);
  });
});
