import { describe, expect, it } from 'vitest';
import { createClientKey, createProject, deleteAppKey, setClientOrigins, setClientSwitches, setKeyStatus } from '../../../lib/app-keys/app-key.service.js';
import { routeNotFoundRoute } from '../../../lib/api/routes.js';
import { ManualClock } from '../../../lib/clock.js';
import type { Runtime } from '../../../lib/runtime.js';
import { makeHandler as routeNotFound } from '../../../functions/http/route-not-found.js';
import { apiClient } from '../../support/api-client.js';
import { call } from '../../support/invoke.js';
import { clientKeyHeaders, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;
const SHOP = 'https://shop.example';

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const serverHeaders = { 'x-app-id': pair.app_id, 'x-app-token': pair.app_token };
  const server = apiClient({ runtime }, serverHeaders);
  // A browser key: trusted from the shop's origin only, and not without an Origin.
  const browser = await createClientKey(runtime, pair.project_id, { origins: [`${SHOP}/`, 'HTTPS://WWW.SHOP.EXAMPLE:443'], originless: false });
  const client = apiClient({ runtime }, {});
  const asBrowser = (origin?: string): Record<string, string> => ({ ...clientKeyHeaders(browser), ...(origin ? { origin } : {}) });
  const voucher = async (code: string, json: Json = { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } }) => {
    const reply = await server.call('create-voucher', { params: { code }, json });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  };
  return { runtime, pair, server, serverHeaders, client, browser, asBrowser, voucher };
}

const order = { items: [{ product_id: 'shoe', quantity: 1, price: 2000 }] };
const request = (code: string) => ({ redeemables: [{ object: 'voucher', id: code }], order, customer: { source_id: 'ann' } });

describe('client-side keys on /client/v1/*', () => {
  it('validates from a trusted origin with the server engine, and the reply carries CORS headers for that origin only', async () => {
    const { server, serverHeaders, client, asBrowser, voucher } = await setup();
    await voucher('SAVE5');
    const reply = await client.call('validate-stacked-discounts-client-side', { json: request('SAVE5'), headers: asBrowser(SHOP) });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ valid: true, order: { amount: 2000, total_discount_amount: 500, total_amount: 1500 } });
    expect(reply.headers['Access-Control-Allow-Origin']).toBe(SHOP);
    expect(reply.headers.Vary).toBe('Origin');
    // The normalised second origin (scheme and host lower-cased, default port dropped) is trusted too.
    const www = await client.call('validate-stacked-discounts-client-side', { json: request('SAVE5'), headers: asBrowser('https://www.shop.example') });
    expect(www.headers['Access-Control-Allow-Origin']).toBe('https://www.shop.example');
    // The server route answers the same cart the same way, and sends no CORS headers.
    const serverReply = await server.call('validate-stacked-discounts', { json: request('SAVE5'), headers: { ...serverHeaders, origin: SHOP } });
    expect(serverReply.json.order).toEqual(reply.json.order);
    expect(serverReply.headers['Access-Control-Allow-Origin']).toBeUndefined();
  });

  it('refuses an untrusted origin, a missing one when the key requires it, and gives them no CORS headers', async () => {
    const { client, asBrowser, voucher } = await setup();
    await voucher('SAVE5');
    for (const headers of [asBrowser('https://evil.example'), asBrowser(), asBrowser('null'), asBrowser('https://shop.example.evil.example')]) {
      const reply = await client.call('validate-stacked-discounts-client-side', { json: request('SAVE5'), headers });
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      expect(reply.json).toMatchObject({ code: 403, key: 'forbidden' });
      expect(reply.headers['Access-Control-Allow-Origin']).toBeUndefined();
    }
  });

  it('admits requests without Origin (a mobile app) by default', async () => {
    const { runtime, pair, client, voucher } = await setup();
    await voucher('SAVE5');
    const app = await createClientKey(runtime, pair.project_id, { origins: [] });
    const reply = await client.call('validate-stacked-discounts-client-side', { json: request('SAVE5'), headers: clientKeyHeaders(app) });
    expect(reply.status).toBe(200);
    expect(reply.headers['Access-Control-Allow-Origin']).toBeUndefined();
  });

  it('never lets a client key open the server API, nor a server key a client route', async () => {
    const { pair, client, browser, asBrowser, voucher } = await setup();
    await voucher('SAVE5');
    // The client pair sent as a server pair, and as client headers on a server route.
    for (const headers of [{ 'x-app-id': browser.app_id, 'x-app-token': browser.app_token, origin: SHOP }, asBrowser(SHOP)]) {
      const reply = await client.call('get-voucher', { params: { code: 'SAVE5' }, headers });
      expect(reply.status).toBe(401);
      expect(reply.json.key).toBe('unauthorized');
    }
    const serverPairOnClient = await client.call('validate-stacked-discounts-client-side', {
      json: request('SAVE5'),
      headers: { 'x-app-id': pair.app_id, 'x-app-token': pair.app_token, origin: SHOP },
    });
    expect(serverPairOnClient.status).toBe(401);
    expect(serverPairOnClient.json.details).toContain('X-Client-Application-Id');
    // A server key's id with the client header names is a wrong client pair.
    const swapped = await client.call('validate-stacked-discounts-client-side', { json: request('SAVE5'), headers: clientKeyHeaders(pair) });
    expect(swapped.status).toBe(401);
  });

  it('takes bearer tokens whose scopes cover the client route, and refuses server-only scopes there', async () => {
    const { pair, client, voucher } = await setup();
    await voucher('SAVE5');
    const token = async (scope: string) => {
      const reply = await client.call('generate-oauth-token', { form: { grant_type: 'client_credentials', scope }, headers: keyPairHeaders(pair) });
      expect(reply.status).toBe(200);
      return { authorization: `Bearer ${reply.json.access_token as string}` };
    };
    const allowed = await client.call('validate-stacked-discounts-client-side', { json: request('SAVE5'), headers: await token('client_validations') });
    expect(allowed.status).toBe(200);
    const serverScoped = await client.call('validate-stacked-discounts-client-side', { json: request('SAVE5'), headers: await token('api') });
    expect(serverScoped.status).toBe(403);
    const clientScopedOnServer = await client.call('get-voucher', { params: { code: 'SAVE5' }, headers: await token('client_api') });
    expect(clientScopedOnServer.status).toBe(403);
  });

  it('redeems through the same counters as the server: 10 parallel client redemptions of a one-use code give one', async () => {
    const { server, client, asBrowser, voucher } = await setup();
    await voucher('ONCE', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 }, redemption: { quantity: 1 } });
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        client.call('redeem-stacked-discounts-client-side', {
          json: { ...request('ONCE'), order: { ...order, source_id: `o-${i}` } },
          headers: asBrowser(SHOP),
        }),
      ),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 400).every((r) => r.headers['Access-Control-Allow-Origin'] === SHOP)).toBe(true);
    const stored = await server.call('get-voucher', { params: { code: 'ONCE' } });
    expect((stored.json.redemption as { redeemed_quantity: number }).redeemed_quantity).toBe(1);
    const serverRedeem = await server.call('redeem-stacked-discounts', { json: request('ONCE') });
    expect(serverRedeem.status).toBe(400);
  });

  it('replays a client redemption retried with one Idempotency-Key', async () => {
    const { server, client, asBrowser, voucher } = await setup();
    await voucher('TWICE', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 }, redemption: { quantity: 2 } });
    const headers = { ...asBrowser(SHOP), 'idempotency-key': 'checkout-1' };
    const [a, b] = await Promise.all([0, 1].map(() => client.call('redeem-stacked-discounts-client-side', { json: request('TWICE'), headers })));
    expect(a?.status).toBe(200);
    expect(b?.json).toEqual(a?.json);
    const stored = await server.call('get-voucher', { params: { code: 'TWICE' } });
    expect((stored.json.redemption as { redeemed_quantity: number }).redeemed_quantity).toBe(1);
  });

  it('serves qualifications and the promotion tiers list to a client key', async () => {
    const { client, asBrowser, voucher } = await setup();
    await voucher('SAVE5');
    const q = await client.call('check-eligibility-client-side', { json: { customer: { source_id: 'ann' }, order }, headers: asBrowser(SHOP) });
    expect(q.status).toBe(200);
    expect(q.json.redeemables).toMatchObject({ object: 'list' });
    const tiers = await client.call('list-promotion-tiers-client-side', { headers: asBrowser(SHOP) });
    expect(tiers.status).toBe(200);
    expect(tiers.json).toMatchObject({ object: 'list', data_ref: 'tiers' });
    expect(tiers.headers['Access-Control-Allow-Origin']).toBe(SHOP);
  });

  it('stops a blocked or deleted key at once, and follows a change of its origins', async () => {
    const { runtime, client, browser, asBrowser, voucher } = await setup();
    await voucher('SAVE5');
    await setKeyStatus(runtime, browser.app_id, 'BLOCKED');
    expect((await client.call('validate-stacked-discounts-client-side', { json: request('SAVE5'), headers: asBrowser(SHOP) })).status).toBe(401);
    await setKeyStatus(runtime, browser.app_id, 'ACTIVE');
    await setClientOrigins(runtime, browser.app_id, ['http://localhost:5173']);
    expect((await client.call('validate-stacked-discounts-client-side', { json: request('SAVE5'), headers: asBrowser(SHOP) })).status).toBe(403);
    expect((await client.call('validate-stacked-discounts-client-side', { json: request('SAVE5'), headers: asBrowser('http://localhost:5173') })).status).toBe(
      200,
    );
    await deleteAppKey(runtime, browser.app_id);
    expect((await client.call('validate-stacked-discounts-client-side', { json: request('SAVE5'), headers: asBrowser('http://localhost:5173') })).status).toBe(
      401,
    );
  });

  it('refuses malformed origins when a key is made or changed', async () => {
    const { runtime, pair, browser } = await setup();
    await expect(createClientKey(runtime, pair.project_id, { origins: ['https://shop.example/path'] })).rejects.toMatchObject({
      status: 400,
      key: 'invalid_origin',
    });
    await expect(setClientOrigins(runtime, browser.app_id, ['shop.example'])).rejects.toMatchObject({ status: 400, key: 'invalid_origin' });
    await expect(setClientOrigins(runtime, pair.app_id, [SHOP])).rejects.toMatchObject({ status: 404 });
  });
});

describe('CORS preflight of client routes (OPTIONS, through the $default route)', () => {
  const preflight = (runtime: ReturnType<typeof testRuntime>, path: string, origin?: string) =>
    call(routeNotFound({ runtime }), {
      method: 'OPTIONS',
      path,
      headers: { ...(origin ? { origin } : {}), 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-client-token' },
      contract: routeNotFoundRoute,
    });

  it('echoes an origin a client key trusts, with the methods, headers and max age, never *', async () => {
    const { runtime } = await setup();
    const reply = await preflight(runtime, '/client/v1/validations', SHOP);
    expect(reply.status).toBe(204);
    expect(reply.headers).toMatchObject({
      'Access-Control-Allow-Origin': SHOP,
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Access-Control-Max-Age': '600',
      Vary: 'Origin',
    });
    expect(reply.headers['Access-Control-Allow-Headers']).toContain('X-Client-Application-Id');
    expect(reply.headers['Access-Control-Allow-Headers']).toContain('Idempotency-Key');
  });

  it('refuses an origin no key trusts, an unknown client path, and stops echoing an origin once its key is deleted', async () => {
    const { runtime, browser } = await setup();
    const untrusted = await preflight(runtime, '/client/v1/validations', 'https://untrusted-preflight.example');
    expect(untrusted.status).toBe(403);
    expect(untrusted.headers['Access-Control-Allow-Origin']).toBeUndefined();
    expect((await preflight(runtime, '/client/v1/nope', SHOP)).status).toBe(404);
    const own = 'https://only-this-key.example';
    await setClientOrigins(runtime, browser.app_id, [own]);
    expect((await preflight(runtime, '/client/v1/redemptions', own)).status).toBe(204);
    await deleteAppKey(runtime, browser.app_id);
    expect((await preflight(runtime, '/client/v1/redemptions', own)).status).toBe(403);
  });

  it('leaves OPTIONS on server paths as before: no CORS', async () => {
    const { runtime } = await setup();
    const reply = await preflight(runtime, '/v1/vouchers', SHOP);
    expect(reply.status).toBe(405);
    expect(reply.headers['Access-Control-Allow-Origin']).toBeUndefined();
  });
});

describe('the rest of the client-side API: validate, redeem, publish, events', () => {
  /** A project as an operator makes it: every client-side switch off. */
  async function switchedOff() {
    const runtime = testRuntime();
    const pair = await createProject(runtime, 'switches off');
    const server = apiClient({ runtime }, { 'x-app-id': pair.app_id, 'x-app-token': pair.app_token });
    const key = await createClientKey(runtime, pair.project_id, { origins: [SHOP] });
    return { runtime, pair, server, headers: { ...clientKeyHeaders(key), origin: SHOP } };
  }

  it('validates one code from query parameters, as POST /v1/vouchers/{code}/validate does with the same request', async () => {
    const { server, client, asBrowser, voucher } = await setup();
    await voucher('Q10', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } });
    const query = 'code=Q10&amount=2000&item[0][product_id]=shoe&item[0][quantity]=2&item[0][price]=1000&customer=ann&metadata[channel]=web';
    const reply = await client.call('validate-voucher-client-side', { query, headers: asBrowser(SHOP) });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    expect(reply.json).toMatchObject({ valid: true, code: 'Q10', order: { amount: 2000, total_discount_amount: 200, total_amount: 1800 } });
    expect(reply.headers['Access-Control-Allow-Origin']).toBe(SHOP);
    const same = await server.call('validate-voucher', {
      params: { code: 'Q10' },
      json: {
        order: { amount: 2000, items: [{ product_id: 'shoe', quantity: 2, price: 1000 }] },
        customer: { source_id: 'ann' },
        metadata: { channel: 'web' },
      },
    });
    expect(same.json.order).toEqual(reply.json.order);
    const bad = await client.call('validate-voucher-client-side', { query: 'code=Q10&amount=lots', headers: asBrowser(SHOP) });
    expect(bad.status).toBe(400);
    expect((await client.call('validate-voucher-client-side', { query: 'amount=100', headers: asBrowser(SHOP) })).status).toBe(400);
  });

  it('redeems one code (?code=) on the server counters, once per Idempotency-Key', async () => {
    const { server, client, asBrowser, voucher } = await setup();
    await voucher('ONE', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 300 }, redemption: { quantity: 1 } });
    const headers = { ...asBrowser(SHOP), 'idempotency-key': 'pay-1' };
    const json = { order: { amount: 1000 }, customer: { source_id: 'ann' } };
    const [a, b] = await Promise.all([0, 1].map(() => client.call('redeem-voucher-client-side', { query: 'code=ONE', json, headers })));
    expect(a?.status, JSON.stringify(a?.json)).toBe(200);
    expect(b?.json).toEqual(a?.json);
    expect(a?.json).toMatchObject({ object: 'redemption', result: 'SUCCESS', order: { total_amount: 700 } });
    const again = await client.call('redeem-voucher-client-side', { query: 'code=ONE', json, headers: asBrowser(SHOP) });
    expect(again.status).toBe(400);
    const stored = await server.call('get-voucher', { params: { code: 'ONE' } });
    expect((stored.json.redemption as { redeemed_quantity: number }).redeemed_quantity).toBe(1);
  });

  it('refuses client-side redemption and publication while the project has them off, and allows them once on', async () => {
    const { runtime, pair, server, headers } = await switchedOff();
    const client = apiClient({ runtime }, {});
    expect(
      (await server.call('create-voucher', { params: { code: 'OFF-1' }, json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } }))
        .status,
    ).toBe(200);
    const stacked = await client.call('redeem-stacked-discounts-client-side', { json: request('OFF-1'), headers });
    expect(stacked.status).toBe(403);
    expect(stacked.json.details).toContain('client_redeem_enabled');
    expect((await client.call('redeem-voucher-client-side', { query: 'code=OFF-1', json: { order: { amount: 1000 } }, headers })).status).toBe(403);
    const published = await client.call('create-publication-client-side', { json: { voucher: 'OFF-1', customer: { source_id: 'ann' } }, headers });
    expect(published.status).toBe(403);
    expect(published.json.details).toContain('client_publish_enabled');
    // Nothing was used or given.
    const stored = await server.call('get-voucher', { params: { code: 'OFF-1' } });
    expect(stored.json).toMatchObject({ redemption: { redeemed_quantity: 0 }, publish: { count: 0 } });

    await setClientSwitches(runtime, pair.project_id, { clientRedeemEnabled: true, clientPublishEnabled: true });
    expect((await client.call('create-publication-client-side', { json: { voucher: 'OFF-1', customer: { source_id: 'ann' } }, headers })).status).toBe(200);
    expect((await client.call('redeem-voucher-client-side', { query: 'code=OFF-1', json: { order: { amount: 1000 } }, headers })).status).toBe(200);
  });

  it("records a client event; it earns on the customer's card only with client loyalty events on, and refuses loyalty while off", async () => {
    const { runtime, pair, server, headers } = await switchedOff();
    const client = apiClient({ runtime }, {});
    const serverHeaders = { 'x-app-id': pair.app_id, 'x-app-token': pair.app_token };
    expect((await server.call('create-custom-event-schema', { json: { name: 'visited', schema: { properties: {} } } })).status).toBe(200);
    const program = await server.call('create-campaign', {
      json: { name: 'Club', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
    });
    expect(program.status).toBe(200);
    const campaignId = program.json.id as string;
    expect(
      (await server.call('create-earning-rule', { params: { campaignId }, json: [{ event: 'visited', loyalty: { type: 'FIXED', points: 5 } }] })).status,
    ).toBe(200);
    const member = await server.call('add-member', { params: { campaignId }, json: { customer: { source_id: 'ann' } }, headers: serverHeaders });
    const code = member.json.code as string;
    const balance = async () => ((await server.call('get-voucher', { params: { code } })).json.loyalty_card as { balance: number }).balance;

    const off = await client.call('track-custom-event-client-side', { json: { event: 'visited', customer: { source_id: 'ann' } }, headers });
    expect(off.status, JSON.stringify(off.json)).toBe(200);
    expect(await balance()).toBe(0);
    const named = await client.call('track-custom-event-client-side', {
      json: { event: 'visited', customer: { source_id: 'ann' }, loyalty: { code } },
      headers,
    });
    expect(named.status).toBe(403);
    expect(named.json.details).toContain('client_loyalty_events_enabled');

    await setClientSwitches(runtime, pair.project_id, { clientLoyaltyEventsEnabled: true });
    expect((await client.call('track-custom-event-client-side', { json: { event: 'visited', customer: { source_id: 'ann' } }, headers })).status).toBe(200);
    expect(await balance()).toBe(5);
  });
});

describe('client-side budgets: per client key and per client address, apart from the project', () => {
  it('refuses with 429 past the address budget, then past the key budget, and leaves the server keys theirs', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 5));
    const base = testRuntime({ clock });
    // Limit 20 a minute: the key gets 20, each address a tenth of it (2).
    const runtime: Runtime = { ...base, rateLimit: { limit: 20, windowSeconds: 60 } };
    const pair = await newProject(runtime);
    const client = apiClient({ runtime }, clientKeyHeaders(pair.client));
    const server = apiClient({ runtime }, { 'x-app-id': pair.app_id, 'x-app-token': pair.app_token });
    const tiers = (ip: string) => client.call('list-promotion-tiers-client-side', { sourceIp: ip });

    expect((await tiers('198.51.100.1')).status).toBe(200);
    const second = await tiers('198.51.100.1');
    expect(second.status).toBe(200);
    expect(second.headers['X-Rate-Limit-Remaining']).toBe('0');
    const third = await tiers('198.51.100.1');
    expect(third.status).toBe(429);
    expect(third.json.key).toBe('too_many_requests');
    expect(third.headers['Retry-After']).toBeDefined();

    // Other addresses go on until the key's own budget (20) is spent: 3 counted so far.
    const statuses: number[] = [];
    for (let i = 2; i <= 10; i++) for (const _ of [0, 1]) statuses.push((await tiers(`198.51.100.${i}`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(17);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);

    // The project's own budget is untouched by all of that.
    const serverReply = await server.call('list-promotion-tiers', {});
    expect(serverReply.status).toBe(200);
    expect(serverReply.headers['X-Rate-Limit-Remaining']).toBe('19');

    // A new window refills both client budgets.
    clock.advance(60_000);
    expect((await tiers('198.51.100.1')).status).toBe(200);
  });
});
