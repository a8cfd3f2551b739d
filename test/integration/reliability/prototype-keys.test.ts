import { describe, expect, it } from 'vitest';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

/** Names that are properties of every plain object: client data may use them as keys all the same. */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  return { events: eventApi(runtime, pair), campaigns: campaignApi(runtime, pair) };
}

describe('keys that name Object.prototype members, stored and read back as plain data', () => {
  it('defines a custom event schema whose properties are named constructor, toString, …, and keeps them exactly', async () => {
    const { events } = await setup();
    const body = schemaBody('proto_named', Object.fromEntries(PROTOTYPE_NAMES.map((n) => [n, 'string'])));
    const created = await events.createSchema(body);
    expect(created.status).toBe(200);
    expect(created.json.schema).toEqual(body.schema);
    const read = await events.getSchema('proto_named');
    expect(read.status).toBe(200);
    expect(read.json.schema).toEqual(body.schema);
  });

  it('checks event metadata against such properties: present ones pass, a missing one is named, none is read from the prototype', async () => {
    const { events } = await setup();
    expect((await events.createSchema(schemaBody('proto_event', { constructor: 'string', toString: 'number?' }))).status).toBe(200);
    const ok = await events.trackEvent({ event: 'proto_event', customer: { source_id: 'c1' }, metadata: { constructor: 'Object', toString: 3 } });
    expect(ok.status).toBe(200);
    expect(ok.json.metadata).toEqual({ constructor: 'Object', toString: 3 });
    const missing = await events.trackEvent({ event: 'proto_event', customer: { source_id: 'c1' }, metadata: {} });
    expect(missing.status).toBe(400);
    expect(String(missing.json.details)).toContain('constructor: is required');
  });

  it('stores campaign metadata keyed by those names and returns it unchanged', async () => {
    const { campaigns } = await setup();
    const metadata = { constructor: { prototype: 'p', name: 'n' }, toString: 'x', valueOf: 1 };
    const created = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Proto names'), metadata });
    expect(created.metadata).toEqual(metadata);
    const read = await campaigns.getCampaign(String(created.id));
    expect(read.json.metadata).toEqual(metadata);
  });

  it('refuses __proto__ as a metadata key with a 400 error object and stores nothing', async () => {
    const { campaigns } = await setup();
    const reply = await campaigns.createCampaign(
      JSON.parse(
        `{"name":"Proto","campaign_type":"DISCOUNT_COUPONS","metadata":{"__proto__":{"admin":true}},"voucher":{"type":"DISCOUNT_VOUCHER","discount":{"type":"PERCENT","percent_off":10}}}`,
      ),
    );
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 400, key: 'invalid_payload' });
    expect((await campaigns.getCampaign('Proto')).status).toBe(404);
  });
});
