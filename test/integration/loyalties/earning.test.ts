import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { earningRuleReplySchema } from '../../../lib/earning-rules/earning-rule.reply.js';
import { eventReplySchema } from '../../../lib/events/event.reply.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 1, 10, 12, 0, 0);

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const campaigns = campaignApi(runtime, pair);
  const loyalty = loyaltyApi(runtime, pair);
  const events = eventApi(runtime, pair);
  await events.createSchema(schemaBody('order_paid', { amount: 'number?' }));
  await newCampaign(campaigns, {
    name: 'Club',
    campaign_type: 'LOYALTY_PROGRAM',
    voucher: {
      type: 'LOYALTY_CARD',
      loyalty_card: { points: 0, expiration_rules: { period_type: 'MONTH', period_value: 1, rounding_type: 'END_OF_QUARTER' } },
    },
  });
  await campaigns.addVoucher('Club', { code: 'CARD-1' });
  const balance = async () => ((await campaigns.getVoucher('CARD-1')).json.loyalty_card as { balance: number }).balance;
  const paid = (amount?: number) => ({
    event: 'order_paid',
    customer: { source_id: 'ann' },
    loyalty: { code: 'CARD-1' },
    ...(amount === undefined ? {} : { metadata: { amount } }),
  });
  return { clock, runtime, pair, campaigns, loyalty, events, balance, paid };
}

const fixedRule = (points: number) => ({ event: 'order_paid', loyalty: { type: 'FIXED', points }, source: { banner: 'Paid order' } });
const proportionalRule = {
  event: 'order_paid',
  loyalty: { type: 'PROPORTIONAL', calculation_type: 'CUSTOM_EVENT_METADATA', custom_event: { metadata: { every: 10, points: 2, property: 'amount' } } },
};

describe('POST /v1/loyalties/{campaignId}/earning-rules', () => {
  it('creates custom event rules and replies with Voucherify earning rule objects', async () => {
    const { loyalty, events } = await setup();
    const reply = await loyalty.createEarningRules('Club', [fixedRule(5), proportionalRule]);
    expect(reply.status).toBe(200);
    const rules = reply.json as unknown as unknown[];
    expect(rules).toHaveLength(2);
    const first = earningRuleReplySchema.parse(rules[0]);
    const schemaId = (await events.getSchema('order_paid')).json.id;
    expect(first).toMatchObject({
      event: 'order_paid',
      loyalty: { type: 'FIXED', points: 5 },
      custom_event: { schema_id: schemaId },
      source: { banner: 'Paid order', object_type: 'campaign' },
      active: true,
    });
    expect(earningRuleReplySchema.parse(rules[1]).loyalty).toEqual(proportionalRule.loyalty);
  });

  it('refuses an event the project has not defined, a built-in event, and a campaign that is not a loyalty program', async () => {
    const { loyalty } = await setup();
    const unknown = await loyalty.createEarningRules('Club', [{ ...fixedRule(1), event: 'nope' }]);
    expect(unknown.status).toBe(404);
    expect(unknown.json.resource_type).toBe('custom_event_schema');
    expect((await loyalty.createEarningRules('Club', [{ ...fixedRule(1), event: 'customer.segment.entered' }])).json.key).toBe('invalid_payload');
    expect((await loyalty.createEarningRules('Missing', [fixedRule(1)])).status).toBe(404);
  });
});

describe('POST /v1/events with loyalty.code', () => {
  it("adds the rules' points to the card in buckets expiring by the program rules, and still replies loyalty: null", async () => {
    const { loyalty, events, balance, paid } = await setup();
    await loyalty.createEarningRules('Club', [fixedRule(5), proportionalRule]);
    const reply = await events.trackEvent(paid(35));
    expect(reply.status).toBe(200);
    expect(eventReplySchema.parse(reply.json).loyalty).toBeNull();
    expect(await balance()).toBe(5 + 6);
    const buckets = (await loyalty.listPointsExpiration('Club', 'CARD-1')).json.data as Record<string, unknown>[];
    expect(buckets.map((b) => b.expires_at)).toEqual(['2026-03-31', '2026-03-31']);
  });

  it('adds nothing for an event without loyalty, for an inactive rule or for another event', async () => {
    const { loyalty, events, balance, paid } = await setup();
    await events.createSchema(schemaBody('signed_up'));
    await loyalty.createEarningRules('Club', [
      { ...fixedRule(5), active: false },
      { ...fixedRule(3), event: 'signed_up' },
    ]);
    await events.trackEvent(paid(10));
    await events.trackEvent({ event: 'order_paid', customer: { source_id: 'ann' } });
    expect(await balance()).toBe(0);
  });

  it('answers 404 for a loyalty code that names no card', async () => {
    const { loyalty, events } = await setup();
    await loyalty.createEarningRules('Club', [fixedRule(5)]);
    const reply = await events.trackEvent({ ...paid0(), loyalty: { code: 'NO-CARD' } });
    expect(reply.status).toBe(404);
    expect(reply.json.resource_type).toBe('voucher');
  });

  it('adds the points once when one event is sent 20 times in parallel with one Idempotency-Key', async () => {
    const { loyalty, events, balance, paid } = await setup();
    await loyalty.createEarningRules('Club', [fixedRule(5)]);
    const replies = await Promise.all(Array.from({ length: 20 }, () => events.trackEvent(paid(1), 'evt-1')));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(await balance()).toBe(5);
    const again = await events.trackEvent(paid(1), 'evt-1');
    expect(again.json).toEqual(replies[0]?.json);
    expect(await balance()).toBe(5);
  });

  it('adds points once per event when different events race for one card', async () => {
    const { loyalty, events, balance, paid } = await setup();
    await loyalty.createEarningRules('Club', [fixedRule(1)]);
    const replies = await Promise.all(Array.from({ length: 10 }, () => events.trackEvent(paid())));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(await balance()).toBe(10);
  });
});

const paid0 = () => ({ event: 'order_paid', customer: { source_id: 'ann' } });

describe('POST /v1/events without loyalty.code', () => {
  /** Two programs with a rule for the event; `ann` holds a card in both (given by add-member), `bob` in neither. */
  async function twoPrograms() {
    const base = await setup();
    const api = apiClient({ runtime: base.runtime }, keyPairHeaders(base.pair));
    await newCampaign(base.campaigns, { name: 'Club2', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
    await base.campaigns.addVoucher('Club2', { code: 'CARD-2' });
    await base.loyalty.createEarningRules('Club', [fixedRule(5)]);
    await base.loyalty.createEarningRules('Club2', [fixedRule(7), proportionalRule]);
    for (const campaignId of ['Club', 'Club2']) {
      const joined = await api.call('add-member', { params: { campaignId }, json: { customer: { source_id: 'ann' } } });
      expect(joined.status).toBe(200);
    }
    const balanceOf = async (code: string) => ((await base.campaigns.getVoucher(code)).json.loyalty_card as { balance: number }).balance;
    return { ...base, api, balanceOf };
  }

  it('earns on the card the customer holds in each program with a matching rule, as order.paid finds it', async () => {
    const { events, balanceOf } = await twoPrograms();
    const reply = await events.trackEvent({ event: 'order_paid', customer: { source_id: 'ann' }, metadata: { amount: 25 } });
    expect(reply.status).toBe(200);
    expect(await balanceOf('CARD-1')).toBe(5);
    // FIXED 7 plus 2 points per 10 of amount 25.
    expect(await balanceOf('CARD-2')).toBe(11);
  });

  it('earns once per event under 20 parallel retries with one Idempotency-Key', async () => {
    const { events, balanceOf } = await twoPrograms();
    const body = { event: 'order_paid', customer: { source_id: 'ann' } };
    const replies = await Promise.all(Array.from({ length: 20 }, () => events.trackEvent(body, 'evt-held')));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect([await balanceOf('CARD-1'), await balanceOf('CARD-2')]).toEqual([5, 7]);
  });

  it('still restricts the event to the card it names', async () => {
    const { events, balanceOf } = await twoPrograms();
    await events.trackEvent({ event: 'order_paid', customer: { source_id: 'ann' }, loyalty: { code: 'CARD-2' } });
    expect([await balanceOf('CARD-1'), await balanceOf('CARD-2')]).toEqual([0, 7]);
  });

  it('earns nothing for a customer holding no card, and nothing in a program that is switched off', async () => {
    const { events, balanceOf, api } = await twoPrograms();
    expect((await events.trackEvent({ event: 'order_paid', customer: { source_id: 'bob' } })).status).toBe(200);
    expect([await balanceOf('CARD-1'), await balanceOf('CARD-2')]).toEqual([0, 0]);
    expect((await api.call('disable-campaign', { params: { campaignId: 'Club2' } })).status).toBe(200);
    await events.trackEvent({ event: 'order_paid', customer: { source_id: 'ann' } });
    expect([await balanceOf('CARD-1'), await balanceOf('CARD-2')]).toEqual([5, 0]);
  });
});
