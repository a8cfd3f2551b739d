import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject, type IssuedKeyPair } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

/**
 * A client's view of the operations the official SDK does not cover, over plain HTTP against the
 * local server (the README walkthrough covers token, export and download with curl). Every reply
 * is checked against docs/openapi.json by the server wrapper; error replies too.
 */
let runtime: OwnLocalRuntime;
let pair: IssuedKeyPair;
let api: string;

beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('plain-http');
  api = runtime.local.apiUrl;
  pair = await createProject(testRuntime(), 'plain http project');
});

afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

const keyPair = (): Record<string, string> => ({ 'X-App-Id': pair.app_id, 'X-App-Token': pair.app_token });

async function send(method: string, path: string, options: { headers?: Record<string, string>; json?: unknown; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...keyPair(), ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const res = await fetch(`${api}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

describe('plain HTTP against the local server', () => {
  it('sends a known path with a trailing slash on to its route with 308, method, body and query kept (issue 33)', async () => {
    const list = await send('GET', '/v1/campaigns/?limit=1');
    expect(list.status).toBe(308);
    expect(list.headers.get('location')).toBe('/v1/campaigns?limit=1');
    // fetch follows a 308 as the SDK's HTTP client does: the POST and its body go to the route.
    const created = await fetch(`${api}/v1/customers/`, {
      method: 'POST',
      headers: { ...keyPair(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ source_id: 'slash-customer', name: 'Slash' }),
    });
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ object: 'customer', source_id: 'slash-customer', name: 'Slash' });
    const followed = await fetch(`${api}/v1/campaigns//`, { headers: keyPair() });
    expect(followed.status).toBe(200);
    expect(await followed.json()).toMatchObject({ object: 'list' });
    expect((await send('GET', '/v1/nowhere/')).json).toMatchObject({ code: 404, key: 'not_found' });
    expect((await send('DELETE', '/v1/campaigns/')).status).toBe(405);
    expect((await send('GET', '/')).status).toBe(404);
  });

  it('generates a token, introspects it and finds an unknown token inactive', async () => {
    const token = await send('POST', '/v1/oauth/token', { form: { grant_type: 'client_credentials', scope: 'campaigns templates' } });
    expect(token.status).toBe(200);
    expect(token.headers.get('cache-control')).toBe('no-store');
    const accessToken = String(token.json.access_token);
    const live = await send('POST', '/v1/oauth/introspect', { form: { access_token: accessToken } });
    expect(live.json).toMatchObject({ active: true, scope: 'campaigns templates', token_type: 'Bearer' });
    const unknown = await send('POST', '/v1/oauth/introspect', { form: { access_token: 'no-such-token' } });
    expect(unknown.json).toEqual({ active: false });
    const missing = await send('POST', '/v1/oauth/introspect', { form: {} });
    expect(missing.json).toMatchObject({ code: 400, key: 'missing_parameters' });
  });

  it('revokes a token (the SDK has no OAuth methods): 204, then 401 on its next use, 404 on a second revoke', async () => {
    const token = await send('POST', '/v1/oauth/token', { form: { grant_type: 'client_credentials', scope: 'api' } });
    const accessToken = String(token.json.access_token);
    const bearerOnly = (): Promise<Response> => fetch(`${api}/v1/campaigns`, { headers: { Authorization: `Bearer ${accessToken}` } });
    expect((await bearerOnly()).status).toBe(200);
    const revoked = await send('POST', '/v1/oauth/token/revoke', { form: { access_token: accessToken } });
    expect(revoked.status).toBe(204);
    expect(revoked.json).toBeUndefined();
    expect((await bearerOnly()).status).toBe(401);
    const again = await send('POST', '/v1/oauth/token/revoke', { form: { access_token: accessToken } });
    expect(again.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'oauth_token' });
  });

  it('makes a campaign template from a campaign with a bearer token', async () => {
    const token = await send('POST', '/v1/oauth/token', { form: { grant_type: 'client_credentials', scope: 'api' } });
    const bearer = { Authorization: `Bearer ${String(token.json.access_token)}` };
    const campaign = await send('POST', '/v1/campaigns', {
      headers: bearer,
      json: {
        name: 'Template source',
        campaign_type: 'DISCOUNT_COUPONS',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } },
      },
    });
    expect(campaign.status).toBe(200);
    const template = await send('POST', '/v1/templates/campaigns', { headers: bearer, json: { name: 'Five off', campaign_id: campaign.json.id } });
    expect(template.status).toBe(200);
    expect(template.json).toMatchObject({ name: 'Five off', campaign_type: 'DISCOUNT_COUPONS', object: 'campaign_template' });
    const duplicate = await send('POST', '/v1/templates/campaigns', { headers: bearer, json: { name: 'Five off', campaign_id: campaign.json.id } });
    expect(duplicate.status).toBe(409);
  });

  it('defines, lists and reads custom event schemas, and lists the bin after a delete', async () => {
    const created = await send('POST', '/v1/custom-event-schemas', {
      json: { name: 'signed_up', schema: { properties: { plan: { type: 'string', optional: true } } } },
    });
    expect(created.status).toBe(200);
    const listed = await send('GET', '/v1/custom-event-schemas');
    expect(listed.json.data).toEqual([expect.objectContaining({ name: 'signed_up' })]);
    const read = await send('GET', `/v1/custom-event-schemas/${String(created.json.id)}`);
    expect(read.json).toMatchObject({ id: created.json.id, name: 'signed_up' });

    await send('POST', '/v1/campaigns', {
      json: { name: 'Binned', campaign_type: 'DISCOUNT_COUPONS', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 } } },
    });
    expect((await send('POST', '/v1/campaigns/Binned/vouchers', { json: { code: 'BIN-ME' } })).status).toBe(200);
    expect((await send('DELETE', '/v1/vouchers/BIN-ME')).status).toBe(204);
    const bin = await send('GET', '/v1/trash-bin');
    expect(bin.json.data).toEqual([expect.objectContaining({ resource_id: expect.any(String), resource_type: 'voucher' })]);
  });

  it('serves the OpenAPI document without credentials', async () => {
    const res = await fetch(`${api}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc).toMatchObject({ openapi: '3.1.0', info: { version: 'v2018-08-01' } });
  });

  it('answers errors with the documented error object and the request id header', async () => {
    const anonymous = await fetch(`${api}/v1/campaigns`);
    const body = (await anonymous.json()) as Record<string, unknown>;
    expect(anonymous.status).toBe(401);
    expect(body).toMatchObject({ code: 401, key: 'unauthorized' });
    expect(anonymous.headers.get('x-request-id')).toBe(body.request_id);
    const notFound = await send('GET', '/v1/vouchers/NO-SUCH-CODE');
    expect(notFound.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'voucher', resource_id: 'NO-SUCH-CODE' });
    const unknownRoute = await send('GET', '/v1/no-such-thing');
    expect(unknownRoute.status).toBe(404);
    const wrongMethod = await send('PUT', '/v1/campaigns');
    expect(wrongMethod.status).toBe(405);
    const badJson = await fetch(`${api}/v1/campaigns`, { method: 'POST', headers: { ...keyPair(), 'Content-Type': 'application/json' }, body: '{' });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as Record<string, unknown>).key).toBe('invalid_json');
  });
});
