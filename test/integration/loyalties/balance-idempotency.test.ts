import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { createDocumentClient } from '../../../lib/db/client.js';
import { REPLAYED_HEADER } from '../../../lib/idempotency/idempotency.service.js';
import { listCardTransactions } from '../../../lib/loyalties/card-transaction.repo.js';
import type { Runtime } from '../../../lib/runtime.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/**
 * A points change sent with an Idempotency-Key commits the key's record in the card's own
 * transaction, so a retry never moves points twice: not after a normal reply, and not after a
 * reply lost once the write had committed (the case the generic lease cannot cover: the failed
 * request frees its key, and the retry would run again).
 */

const at = Date.UTC(2026, 3, 1, 9, 0, 0);
const HOUR = 60 * 60 * 1000;
const proxies: FaultProxy[] = [];

afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const campaigns = campaignApi(runtime, pair);
  await newCampaign(campaigns, { name: 'Club', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
  const card = (await campaigns.addVoucher('Club', { code: 'CARD-1' })).json;
  expect((await campaigns.addVoucher('Club', { code: 'CARD-2' })).status).toBe(200);
  const loyalty = loyaltyApi(runtime, pair);
  const keyed = (key: string) => ({ ...headers, 'idempotency-key': key });
  const balanceOf = async (code: string) => ((await campaigns.getVoucher(code)).json.loyalty_card as { balance: number }).balance;
  const transactions = () => listCardTransactions(runtime, pair.project_id, card.id as string);
  /** The loyalty endpoints with their DynamoDB traffic through a fault proxy. */
  const viaProxy = async (proxy: FaultProxy) => {
    const faulty: Runtime = { ...runtime, ddb: createDocumentClient({ region: engines().region, endpoint: proxy.url }) };
    return loyaltyApi(faulty, pair);
  };
  return { clock, loyalty, keyed, balanceOf, transactions, viaProxy, card };
}

describe('POST /v1/loyalties/{campaignId}/members/{memberId}/balance with an Idempotency-Key', () => {
  it('adds the points once when the reply of the committed write is lost and the client retries with the key', async () => {
    const { loyalty, keyed, balanceOf, transactions, viaProxy } = await setup();
    const proxy = await startFaultProxy(engines().dynamoEndpoint, (operation) => (operation === 'TransactWriteItems' ? 'lost-reply' : 'pass'));
    proxies.push(proxy);
    const lost = await (await viaProxy(proxy)).updateBalance('Club', 'CARD-1', { points: 40, source_id: 'pos-1' }, keyed('add-40'));
    expect(lost.status).toBe(503);
    expect(lost.json).toMatchObject({ code: 503, key: 'service_unavailable' });
    expect(proxy.counts['lost-reply']).toBeGreaterThanOrEqual(1);
    // The write went through although the caller never heard of it.
    expect(await balanceOf('CARD-1')).toBe(40);

    const retry = await loyalty.updateBalance('Club', 'CARD-1', { points: 40, source_id: 'pos-1' }, keyed('add-40'));
    expect(retry.status).toBe(200);
    expect(retry.json).toMatchObject({ points: 40, total: 40, balance: 40, object: 'balance' });
    expect(retry.headers[REPLAYED_HEADER]).toBe('true');
    expect(await balanceOf('CARD-1')).toBe(40);
    expect((await transactions()).map((t) => t.points)).toEqual([40]);
  });

  it('spends the points once when the reply of the committed spend is lost and the client retries with the key', async () => {
    const { clock, loyalty, keyed, balanceOf, transactions, viaProxy } = await setup();
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: 100 })).status).toBe(200);
    // Card transactions sort by time, then by random id: the spend must come later to be listed second.
    clock.advance(1000);
    const proxy = await startFaultProxy(engines().dynamoEndpoint, (operation) => (operation === 'TransactWriteItems' ? 'lost-reply' : 'pass'));
    proxies.push(proxy);
    expect((await (await viaProxy(proxy)).updateBalance('Club', 'CARD-1', { points: -30 }, keyed('spend-30'))).status).toBe(503);
    const retry = await loyalty.updateBalance('Club', 'CARD-1', { points: -30 }, keyed('spend-30'));
    expect(retry.json).toMatchObject({ points: -30, total: 100, balance: 70 });
    expect(await balanceOf('CARD-1')).toBe(70);
    expect((await transactions()).map((t) => t.points)).toEqual([100, -30]);
  });

  it('replays the first reply to a later retry, and to 20 parallel copies, changing the card once', async () => {
    const { clock, loyalty, keyed, balanceOf, transactions } = await setup();
    const first = await loyalty.updateBalance('Club', 'CARD-1', { points: 25 }, keyed('k-1'));
    expect(first.status).toBe(200);
    expect(first.headers[REPLAYED_HEADER]).toBeUndefined();
    clock.advance(HOUR);
    const later = await loyalty.updateBalance('Club', 'CARD-1', { points: 25 }, keyed('k-1'));
    expect(later.json).toEqual(first.json);
    expect(later.headers[REPLAYED_HEADER]).toBe('true');

    const copies = await Promise.all(Array.from({ length: 20 }, () => loyalty.updateBalance('Club', 'CARD-1', { points: 7 }, keyed('k-2'))));
    expect(copies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(copies.map((r) => JSON.stringify(r.json))).size).toBe(1);
    expect(copies.filter((r) => r.headers[REPLAYED_HEADER] === undefined)).toHaveLength(1);
    expect(await balanceOf('CARD-1')).toBe(32);
    expect((await transactions()).map((t) => t.points)).toEqual([25, 7]);
  });

  it('refuses the key with another body or another card (422), and honours it again after 24 h', async () => {
    const { clock, loyalty, keyed, balanceOf } = await setup();
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: 10 }, keyed('k'))).status).toBe(200);
    const otherBody = await loyalty.updateBalance('Club', 'CARD-1', { points: 11 }, keyed('k'));
    expect(otherBody.status).toBe(422);
    expect(otherBody.json).toMatchObject({ code: 422, key: 'idempotency_key_reused' });
    const otherCard = await loyalty.updateBalance('Club', 'CARD-2', { points: 10 }, keyed('k'));
    expect(otherCard.status).toBe(422);
    expect(await balanceOf('CARD-2')).toBe(0);

    clock.advance(24 * HOUR + 1000);
    expect((await loyalty.updateBalance('Club', 'CARD-2', { points: 10 }, keyed('k'))).status).toBe(200);
    expect(await balanceOf('CARD-2')).toBe(10);
    expect(await balanceOf('CARD-1')).toBe(10);
  });

  it('records nothing for a refused change: the same key works once the cause is fixed', async () => {
    const { loyalty, keyed, balanceOf } = await setup();
    const refused = await loyalty.updateBalance('Club', 'CARD-1', { points: -5 }, keyed('k'));
    expect(refused.status).toBe(400);
    expect((await loyalty.updateBalance('Club', 'CARD-1', { points: 5 }, keyed('k'))).status).toBe(200);
    expect(await balanceOf('CARD-1')).toBe(5);
  });
});
