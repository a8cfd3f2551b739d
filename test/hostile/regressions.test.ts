import { describe, expect, it } from 'vitest';
import { createCampaignRoute, createRewardRoute, trackCustomEventRoute } from '../../lib/api/routes.js';
import { campaignBodies } from '../support/api.js';
import { nested } from '../support/hostile/arbitraries.js';
import { contractViolation, invokeRaw, loadRoute, handlerFor, defaultExtras, routeClient } from '../support/hostile/route-harness.js';
import { keyPairHeaders, newProject, testRuntime } from '../support/runtime.js';

/** The 5xx the generated requests found, each pinned as a plain case (see docs/reliability.md). */
async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  return { runtime, pair, api: routeClient(runtime), headers: keyPairHeaders(pair) };
}

describe('hostile-input findings stay fixed', () => {
  it('refuses with 400 a decimal DynamoDB cannot store (1e-248 % off, a 1e-200 coin ratio) instead of failing the write with a 500', async () => {
    const { api, headers } = await setup();
    const body = campaignBodies.DISCOUNT_COUPONS('Tiny percent');
    const tiny = await api(createCampaignRoute, {
      json: { ...body, voucher: { ...body.voucher, discount: { type: 'PERCENT', percent_off: 9.8e-248 } } },
      headers,
    });
    expect(contractViolation(tiny)).toBeUndefined();
    expect(tiny.body).toMatchObject({ code: 400, key: 'invalid_payload' });
    const coin = await api(createRewardRoute, { json: { name: 'Tiny coin', type: 'COIN', parameters: { coin: { exchange_ratio: 1e-200 } } }, headers });
    expect(coin.body).toMatchObject({ code: 400, key: 'invalid_payload' });
  });

  it('refuses with 400 metadata with an empty property name or nested deeper than 16 levels, which DynamoDB cannot store', async () => {
    const { api, headers } = await setup();
    const empty = await api(createRewardRoute, {
      json: { name: 'Empty key', type: 'COIN', parameters: { coin: { exchange_ratio: 1 } }, metadata: { '': 'x' } },
      headers,
    });
    expect(empty.body).toMatchObject({ code: 400, key: 'invalid_payload', details: expect.stringContaining('empty property name') });
    const deepEmpty = await api(createRewardRoute, {
      json: { name: 'Deep empty key', type: 'COIN', parameters: { coin: { exchange_ratio: 1 } }, metadata: { a: [{ '': 1 }] } },
      headers,
    });
    expect(deepEmpty.status).toBe(400);
    const deep = await api(trackCustomEventRoute, { json: { event: 'x', customer: { source_id: 'deep' }, metadata: { a: nested(40) } }, headers });
    expect(deep.body).toMatchObject({ code: 400, key: 'invalid_payload', details: expect.stringContaining('nested') });
    const fine = await api(createRewardRoute, {
      json: { name: 'Nested ok', type: 'COIN', parameters: { coin: { exchange_ratio: 1 } }, metadata: { a: nested(10) } },
      headers,
    });
    expect(fine.status).toBe(200);
  });

  it('answers 400 invalid_json to a body nested 200,000 levels deep', async () => {
    const { runtime, pair } = await setup();
    const handler = handlerFor(trackCustomEventRoute, await loadRoute(trackCustomEventRoute), runtime, defaultExtras());
    const body = `{"metadata":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const reply = await invokeRaw(handler, {
      method: 'POST',
      path: '/v1/events',
      headers: { ...keyPairHeaders(pair), 'content-type': 'application/json' },
      body,
    });
    expect(contractViolation(reply)).toBeUndefined();
    expect(reply.status).toBe(400);
  });
});
