import { describe, expect, it } from 'vitest';
import {
  addVouchersToCampaignRoute,
  createCampaignRoute,
  createRewardRoute,
  getVoucherRoute,
  listCampaignsRoute,
  trackCustomEventRoute,
} from '../../lib/api/routes.js';
import type { RouteDef } from '../../lib/api/route.js';
import { MAX_JSON_DEPTH } from '../../lib/http/json-text.js';
import { campaignBodies } from '../support/api.js';
import { nested } from '../support/hostile/arbitraries.js';
import {
  contractViolation,
  createOwnTable,
  invokeRaw,
  loadRoute,
  handlerFor,
  defaultExtras,
  routeClient,
  type RawReply,
} from '../support/hostile/route-harness.js';
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

  it('answers 400 invalid_payload naming the depth bound to a body nested 200,000 levels deep', async () => {
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
    expect(reply.body).toMatchObject({ code: 400, key: 'invalid_payload', details: expect.stringContaining(`at most ${MAX_JSON_DEPTH} levels`) });
  });
});

/** `{"a":{"a":…}}`, `levels` objects deep, as text: JSON.stringify itself overflows a few thousand levels down. */
const deepObjects = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** A project of its own in a table of its own, so a test can see that refused requests stored nothing. */
async function ownProject() {
  const table = await createOwnTable('bodies');
  const runtime = table.runtime();
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const api = routeClient(runtime);
  /** The body as raw text, exactly as sent on the wire. */
  const send = (route: RouteDef, text: string, params: Record<string, string> = {}): Promise<RawReply> =>
    api(route, { params, headers: { ...headers, 'content-type': 'application/json' }, mutate: (event) => void (event.body = text) });
  return { table, api, headers, send, snapshot: () => table.snapshot(pair.project_id) };
}

describe('hostile bodies get 400, never 5xx (issue 20)', () => {
  it(`answers 400 invalid_payload naming the ${MAX_JSON_DEPTH}-level bound to metadata nested 4,100 and 10,000 levels deep (a 500 from JSON.stringify before), and stores nothing`, async () => {
    const { table, send, snapshot } = await ownProject();
    try {
      const before = await snapshot();
      for (const levels of [4_100, 10_000]) {
        const bodies: [RouteDef, string][] = [
          [createRewardRoute, `{"name":"Deep","type":"COIN","parameters":{"coin":{"exchange_ratio":1}},"metadata":${deepObjects(levels)}}`],
          [trackCustomEventRoute, `{"event":"x","customer":{"source_id":"c"},"metadata":${deepObjects(levels)}}`],
          [createCampaignRoute, JSON.stringify(campaignBodies.DISCOUNT_COUPONS('Deep')).replace(/}$/, `,"metadata":${deepObjects(levels)}}`)],
        ];
        for (const [route, text] of bodies) {
          const reply = await send(route, text);
          expect(contractViolation(reply)).toBeUndefined();
          expect(reply.body).toMatchObject({
            code: 400,
            key: 'invalid_payload',
            details: `Property .metadata${'.a'.repeat(MAX_JSON_DEPTH - 1)} is nested more than 32 levels deep; a JSON document may nest at most 32 levels`,
          });
        }
      }
      expect(await snapshot()).toEqual(before);
    } finally {
      await table.drop();
    }
  });

  it('refuses a metadata key holding a lone surrogate with 400 naming it (DynamoDB refused the item: 503 every time), and stores nothing', async () => {
    const { table, api, headers, snapshot } = await ownProject();
    try {
      const before = await snapshot();
      const replies = [
        await api(createRewardRoute, { headers, json: { name: 'Lone', type: 'COIN', parameters: { coin: { exchange_ratio: 1 } }, metadata: { '\ud800': 1 } } }),
        await api(createCampaignRoute, { headers, json: { ...campaignBodies.DISCOUNT_COUPONS('Lone'), metadata: { ok: { '\udc00X': 'v' } } } }),
        await api(trackCustomEventRoute, { headers, json: { event: 'x', customer: { source_id: 'c' }, metadata: { 'X\ud800': true } } }),
      ];
      expect(replies.map((r) => [r.status, contractViolation(r), (r.body as { details?: string }).details])).toEqual([
        [400, undefined, 'Property .metadata.\\ud800 is a property name that is not well-formed Unicode (it holds a lone UTF-16 surrogate)'],
        [400, undefined, 'Property .metadata.ok.\\udc00X is a property name that is not well-formed Unicode (it holds a lone UTF-16 surrogate)'],
        [400, undefined, 'Property .metadata.X\\ud800 is a property name that is not well-formed Unicode (it holds a lone UTF-16 surrogate)'],
      ]);
      expect(replies.every((r) => (r.body as { key: string }).key === 'invalid_payload')).toBe(true);
      expect(await snapshot()).toEqual(before);
    } finally {
      await table.drop();
    }
  });

  it('refuses names and values holding a lone surrogate, so "\\ud800X" and "\\udc00X" no longer end up as one stored name', async () => {
    const { table, api, headers, snapshot } = await ownProject();
    try {
      const before = await snapshot();
      for (const name of ['\ud800X', '\udc00X']) {
        const reply = await api(createCampaignRoute, { headers, json: campaignBodies.DISCOUNT_COUPONS(name) });
        expect(contractViolation(reply)).toBeUndefined();
        expect(reply.body).toMatchObject({ code: 400, key: 'invalid_payload', details: expect.stringMatching(/^Property \.name is not well-formed Unicode/) });
      }
      const event = await api(trackCustomEventRoute, { headers, json: { event: 'x', customer: { source_id: 'c', name: 'a\udfffb' } } });
      expect(event.body).toMatchObject({ code: 400, details: expect.stringMatching(/^Property \.customer\.name is not well-formed/) });
      expect(await snapshot()).toEqual(before);
      // The replacement character itself is ordinary text: stored and echoed as sent.
      const fine = await api(createCampaignRoute, { headers, json: campaignBodies.DISCOUNT_COUPONS('\ufffdX') });
      expect(fine.status).toBe(200);
      expect((fine.body as { name: string }).name).toBe('\ufffdX');
    } finally {
      await table.drop();
    }
  });

  it('refuses a path parameter or query JSON holding a lone surrogate with 400, instead of looking it up and echoing it', async () => {
    const { table, api, headers } = await ownProject();
    try {
      const voucher = await api(getVoucherRoute, { headers, params: { code: '\ud800' } });
      expect(contractViolation(voucher)).toBeUndefined();
      expect(voucher.body).toMatchObject({ code: 400, key: 'invalid_payload', details: expect.stringMatching(/^Property \.code is not well-formed/) });
      const list = await api(listCampaignsRoute, { headers, query: `filters=${encodeURIComponent('{"\\ud800":1}')}` });
      expect(list.body).toMatchObject({
        code: 400,
        key: 'invalid_query_params',
        details: expect.stringMatching(/^Property \.filters\.\\ud800 is a property name/),
      });
      const deep = await api(listCampaignsRoute, { headers, query: `filters=${encodeURIComponent(deepObjects(10_000))}` });
      expect(deep.body).toMatchObject({ code: 400, key: 'invalid_query_params', details: expect.stringContaining('at most 32 levels') });
    } finally {
      await table.drop();
    }
  });

  it('refuses the codes . and .. with a message saying why, and still takes ..., .a, a. and a/b', async () => {
    const { table, api, headers, snapshot } = await ownProject();
    try {
      const campaign = await api(createCampaignRoute, { headers, json: campaignBodies.DISCOUNT_COUPONS('Dots') });
      const campaignId = (campaign.body as { id: string }).id;
      const before = await snapshot();
      for (const code of ['.', '..']) {
        const reply = await api(addVouchersToCampaignRoute, { headers, params: { campaignId }, json: { code } });
        expect(contractViolation(reply)).toBeUndefined();
        expect(reply.body).toMatchObject({
          code: 400,
          key: 'invalid_payload',
          details:
            'Property .code must not be "." or "..": HTTP clients remove these path segments from a URL, so /v1/vouchers/{code} could never reach the voucher',
        });
      }
      expect(await snapshot()).toEqual(before);
      for (const code of ['...', '.a', 'a.', 'a/b']) {
        const added = await api(addVouchersToCampaignRoute, { headers, params: { campaignId }, json: { code } });
        expect(added.status).toBe(200);
        const read = await api(getVoucherRoute, { headers, params: { code } });
        expect((read.body as { code: string }).code).toBe(code);
      }
    } finally {
      await table.drop();
    }
  });

  it('never generates . or ..: a code_config whose only code is .. has no code to give, one of "a." gives the three others', async () => {
    const { table, api, headers } = await ownProject();
    try {
      const campaign = await api(createCampaignRoute, { headers, json: campaignBodies.DISCOUNT_COUPONS('Generated dots') });
      const campaignId = (campaign.body as { id: string }).id;
      const none = await api(addVouchersToCampaignRoute, { headers, params: { campaignId }, json: { code_config: { pattern: '##', charset: '.' } } });
      expect(none.body).toMatchObject({
        code: 400,
        key: 'code_space_exhausted',
        details: expect.stringContaining('allows 0 codes (not counting "..", which is never generated: no HTTP client can address it)'),
      });
      const codes: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const added = await api(addVouchersToCampaignRoute, { headers, params: { campaignId }, json: { code_config: { pattern: '##', charset: 'a.' } } });
        expect(added.status).toBe(200);
        codes.push((added.body as { code: string }).code);
      }
      expect(codes.sort()).toEqual(['.a', 'a.', 'aa']);
      const fourth = await api(addVouchersToCampaignRoute, { headers, params: { campaignId }, json: { code_config: { pattern: '##', charset: 'a.' } } });
      expect(fourth.body).toMatchObject({ code: 400, key: 'code_space_exhausted' });
    } finally {
      await table.drop();
    }
  });
});
