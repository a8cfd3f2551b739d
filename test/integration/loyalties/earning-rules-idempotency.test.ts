import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { createDocumentClient } from '../../../lib/db/client.js';
import { listEarningRulesOfEvent } from '../../../lib/earning-rules/earning-rule.repo.js';
import { REPLAYED_HEADER } from '../../../lib/idempotency/idempotency.service.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/**
 * Earning rules sent with an Idempotency-Key are stored with the key's record in one transaction:
 * rules stored twice would make every later event earn twice, so a retry after a lost reply must
 * find the record, not store the rules again.
 */

const at = Date.UTC(2026, 4, 1, 9, 0, 0);
const proxies: FaultProxy[] = [];

afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

const program = (name: string) => ({ name, campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
const rules = [
  { event: 'order_paid', loyalty: { type: 'FIXED', points: 5 }, source: { banner: 'Paid order' }, metadata: { channel: 'web' } },
  { event: 'order_paid', loyalty: { type: 'FIXED', points: 2 } },
];

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const campaigns = campaignApi(runtime, pair);
  const events = eventApi(runtime, pair);
  expect((await events.createSchema(schemaBody('order_paid'))).status).toBe(200);
  await newCampaign(campaigns, program('Club'));
  await newCampaign(campaigns, program('Other'));
  expect((await campaigns.addVoucher('Club', { code: 'CARD-1' })).status).toBe(200);
  const loyalty = loyaltyApi(runtime, pair);
  const keyed = (key: string) => ({ ...headers, 'idempotency-key': key });
  const storedRules = () => listEarningRulesOfEvent(runtime, pair.project_id, 'order_paid');
  /** Points CARD-1 earns from one order_paid event. */
  const earnedByOneEvent = async () => {
    const before = ((await campaigns.getVoucher('CARD-1')).json.loyalty_card as { balance: number }).balance;
    expect((await events.trackEvent({ event: 'order_paid', customer: { source_id: 'ann' }, loyalty: { code: 'CARD-1' } })).status).toBe(200);
    return ((await campaigns.getVoucher('CARD-1')).json.loyalty_card as { balance: number }).balance - before;
  };
  const faultyLoyalty = (proxy: FaultProxy) => loyaltyApi({ ...runtime, ddb: createDocumentClient({ region: engines().region, endpoint: proxy.url }) }, pair);
  return { clock, loyalty, keyed, storedRules, earnedByOneEvent, faultyLoyalty };
}

describe('POST /v1/loyalties/{campaignId}/earning-rules with an Idempotency-Key', () => {
  it('stores the rules once when the reply of the committed write is lost and the client retries with the key', async () => {
    const { loyalty, keyed, storedRules, earnedByOneEvent, faultyLoyalty } = await setup();
    const proxy = await startFaultProxy(engines().dynamoEndpoint, (operation) => (operation === 'TransactWriteItems' ? 'lost-reply' : 'pass'));
    proxies.push(proxy);
    const lost = await faultyLoyalty(proxy).createEarningRules('Club', rules, keyed('rules-1'));
    expect(lost.status).toBe(503);
    expect(proxy.counts['lost-reply']).toBeGreaterThanOrEqual(1);
    expect(await storedRules()).toHaveLength(2);

    const retry = await loyalty.createEarningRules('Club', rules, keyed('rules-1'));
    expect(retry.status).toBe(200);
    expect(retry.headers[REPLAYED_HEADER]).toBe('true');
    const replied = retry.json as unknown as { id: string; loyalty: { points: number } }[];
    expect(replied.map((r) => r.loyalty.points)).toEqual([5, 2]);
    const stored = await storedRules();
    expect(stored).toHaveLength(2);
    expect(replied.map((r) => r.id).sort()).toEqual(stored.map((r) => r.id).sort());
    expect(await earnedByOneEvent()).toBe(7);
  });

  it('replays the first reply to a later retry and to 10 parallel copies', async () => {
    const { clock, loyalty, keyed, storedRules } = await setup();
    const first = await loyalty.createEarningRules('Club', rules, keyed('k-1'));
    expect(first.status).toBe(200);
    clock.advance(60 * 60 * 1000);
    const later = await loyalty.createEarningRules('Club', rules, keyed('k-1'));
    expect(later.status).toBe(200);
    expect(JSON.stringify(later.body)).toBe(JSON.stringify(first.body));
    expect([first.headers[REPLAYED_HEADER], later.headers[REPLAYED_HEADER]]).toEqual([undefined, 'true']);

    const copies = await Promise.all(Array.from({ length: 10 }, () => loyalty.createEarningRules('Club', [rules[1]], keyed('k-2'))));
    expect(copies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(copies.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(await storedRules()).toHaveLength(3);
  });

  it('refuses the key with other rules or another program (422), storing nothing', async () => {
    const { loyalty, keyed, storedRules } = await setup();
    expect((await loyalty.createEarningRules('Club', rules, keyed('k'))).status).toBe(200);
    const otherRules = await loyalty.createEarningRules('Club', [rules[0]], keyed('k'));
    expect(otherRules.status).toBe(422);
    expect(otherRules.json).toMatchObject({ code: 422, key: 'idempotency_key_reused' });
    expect((await loyalty.createEarningRules('Other', rules, keyed('k'))).status).toBe(422);
    expect(await storedRules()).toHaveLength(2);
  });
});
