import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../../lib/db/client.js';
import { REPLAYED_HEADER } from '../../../lib/idempotency/idempotency.service.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { engines } from '../../support/runtime.js';
import { publicationSetup } from './support.js';

/**
 * A publication sent with an Idempotency-Key commits the key's record in the publication's own
 * transaction: a retry never hands the customer a second code, not after a normal reply and not
 * after a reply lost once the write had committed.
 */

const HOUR = 60 * 60 * 1000;
const proxies: FaultProxy[] = [];

afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

async function setup() {
  const s = await publicationSetup();
  await s.campaignWith('Keys', ['K-1', 'K-2', 'K-3', 'K-4'], { type: 'STATIC' });
  const keyed = (key: string) => ({ 'idempotency-key': key });
  const published = async () => (await s.list('campaign=Keys')).json.total;
  const viaProxy = (proxy: FaultProxy) => {
    const faulty: Runtime = { ...s.runtime, ddb: createDocumentClient({ region: engines().region, endpoint: proxy.url }) };
    return apiClient({ runtime: faulty }, s.headers);
  };
  return { ...s, keyed, published, viaProxy };
}

describe('POST /v1/publications with an Idempotency-Key', () => {
  it('publishes once when the reply of the committed write is lost and the client retries with the key', async () => {
    const { publish, keyed, published, viaProxy, headers, api } = await setup();
    // The customer exists already, so the publication's transaction is the request's only one.
    expect((await api.call('create-customer', { json: { source_id: 'ann' } })).status).toBe(200);
    const proxy = await startFaultProxy(engines().dynamoEndpoint, (operation) => (operation === 'TransactWriteItems' ? 'lost-reply' : 'pass'));
    proxies.push(proxy);
    const body = { campaign: { name: 'Keys' }, customer: { source_id: 'ann' } };
    const lost = await viaProxy(proxy).call('create-publication', { json: body, headers: { ...headers, ...keyed('pub-1') } });
    expect(lost.status).toBe(503);
    expect(await published()).toBe(1);
    const retry = await publish(body, { headers: keyed('pub-1') });
    expect(retry.status).toBe(200);
    expect(retry.headers[REPLAYED_HEADER]).toBe('true');
    expect(await published()).toBe(1);
  });

  it('replays the first reply to a later retry and to 20 parallel copies, giving one voucher', async () => {
    const { publish, keyed, published, clock } = await setup();
    const body = { campaign: { name: 'Keys' }, customer: { source_id: 'bob' } };
    const first = await publish(body, { headers: keyed('k-1') });
    expect(first.status).toBe(200);
    expect(first.headers[REPLAYED_HEADER]).toBeUndefined();
    clock.advance(HOUR);
    const later = await publish(body, { headers: keyed('k-1') });
    expect(later.json).toEqual(first.json);
    expect(later.headers[REPLAYED_HEADER]).toBe('true');
    const copies = await Promise.all(Array.from({ length: 20 }, () => publish(body, { headers: keyed('k-2') })));
    expect(copies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(copies.map((r) => JSON.stringify(r.json))).size).toBe(1);
    expect(await published()).toBe(2);
  });

  it('refuses the key with another body or another join_once (422) and records nothing for a refused publication', async () => {
    const { publish, keyed, published } = await setup();
    expect((await publish({ campaign: { name: 'Keys' }, customer: { source_id: 'cy' } }, { headers: keyed('k') })).status).toBe(200);
    const otherBody = await publish({ campaign: { name: 'Keys' }, customer: { source_id: 'dee' } }, { headers: keyed('k') });
    expect(otherBody.status).toBe(422);
    expect(otherBody.json).toMatchObject({ key: 'idempotency_key_reused' });
    const otherQuery = await publish({ campaign: { name: 'Keys' }, customer: { source_id: 'cy' } }, { headers: keyed('k'), query: 'join_once=true' });
    expect(otherQuery.status).toBe(422);
    const refused = await publish({ voucher: 'NOPE', customer: { source_id: 'eve' } }, { headers: keyed('k-3') });
    expect(refused.status).toBe(404);
    // Nothing was recorded for the refusal: the key serves the corrected request.
    expect((await publish({ campaign: { name: 'Keys' }, customer: { source_id: 'eve' } }, { headers: keyed('k-3') })).status).toBe(200);
    expect(await published()).toBe(2);
  });
});
