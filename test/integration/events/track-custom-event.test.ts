import { describe, expect, it } from 'vitest';
import { setKeyPermissions } from '../../../lib/app-keys/app-key.service.js';
import { ManualClock } from '../../../lib/clock.js';
import { getCustomerIdBySourceId } from '../../../lib/customers/customer.repo.js';
import { listEventsOfCustomer } from '../../../lib/events/event.repo.js';
import { eventReplySchema } from '../../../lib/events/event.reply.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 5, 1, 12, 0, 0);

async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = eventApi(runtime, pair);
  const schema = await api.createSchema(schemaBody('cart_abandoned', { amount: 'number', note: 'string?', flag: 'boolean?', day: 'date?', when: 'datetime?' }));
  expect(schema.status).toBe(200);
  return { runtime, pair, clock, api, projectId: pair.project_id };
}

const cartEvent = (sourceId: string, extra: Record<string, unknown> = {}) => ({
  event: 'cart_abandoned',
  customer: { source_id: sourceId },
  metadata: { amount: 120 },
  ...extra,
});

describe('POST /v1/events', () => {
  it('replies with the custom event response: the type, the new customer, null referral and loyalty, the metadata', async () => {
    const { api } = await setup();
    const metadata = { amount: 99.5, note: 'left at checkout', flag: true, day: '2026-06-01', when: '2026-06-01T11:59:00Z', extra: [1, 2] };
    const reply = await api.trackEvent({
      event: 'cart_abandoned',
      customer: { source_id: 'alice@example.com', name: 'Alice', email: 'alice@example.com', metadata: { tier: 'gold' } },
      metadata,
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      object: 'event',
      type: 'cart_abandoned',
      customer: {
        id: expect.stringMatching(/^cust_[0-9A-Za-z]{24}$/),
        name: 'Alice',
        email: 'alice@example.com',
        source_id: 'alice@example.com',
        metadata: { tier: 'gold' },
        object: 'customer',
      },
      referral: null,
      loyalty: null,
      metadata,
    });
    eventReplySchema.parse(reply.json);
  });

  it('leaves name and email out of the customer when unknown, and replies metadata {} when none is required or sent', async () => {
    const { api } = await setup();
    await api.createSchema(schemaBody('signed_up'));
    const reply = await api.trackEvent({ event: 'signed_up', customer: { source_id: 'bob' } });
    expect(reply.status).toBe(200);
    expect(reply.json.customer).toEqual({ id: expect.stringMatching(/^cust_/), source_id: 'bob', metadata: {}, object: 'customer' });
    expect(reply.json.metadata).toEqual({});
    eventReplySchema.parse(reply.json);
  });

  it("stores the event, with loyalty as sent, in its customer's activity (referral: see referral-conversion.test.ts)", async () => {
    const { runtime, pair, api, projectId } = await setup();
    // A loyalty code must name a card (unknown cards are 404); this program has no earning rules.
    const campaigns = campaignApi(runtime, pair);
    await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Club'));
    await campaigns.addVoucher('Club', { code: 'CARD-1' });
    const reply = await api.trackEvent(cartEvent('carol', { loyalty: { code: 'CARD-1' } }));
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ referral: null, loyalty: null });
    const events = await listEventsOfCustomer(runtime, projectId, (reply.json.customer as { id: string }).id);
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evcus_/),
        projectId,
        type: 'cart_abandoned',
        customerId: (reply.json.customer as { id: string }).id,
        metadata: { amount: 120 },
        referral: null,
        loyalty: { code: 'CARD-1' },
        idempotencyKey: null,
        createdAt: new Date(at).toISOString(),
      },
    ]);
  });

  it('refuses an event the project has not defined with 404 naming it, and stores nothing', async () => {
    const { runtime, api, projectId } = await setup();
    const reply = await api.trackEvent({ event: 'Cart_Abandoned', customer: { source_id: 'dave' } });
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({
      key: 'not_found',
      details: 'Cannot find custom_event_schema with id Cart_Abandoned',
      resource_id: 'Cart_Abandoned',
      resource_type: 'custom_event_schema',
    });
    expect(await getCustomerIdBySourceId(runtime, projectId, 'dave')).toBeNull();
  });

  it.each([
    ['an empty event name', { event: '', customer: { source_id: 'x' } }, '.event'],
    ['an event name of 301 characters', { event: 'e'.repeat(301), customer: { source_id: 'x' } }, '.event'],
    ['no customer', { event: 'cart_abandoned', metadata: { amount: 1 } }, '.customer'],
    ['a customer without source_id or id', { event: 'cart_abandoned', customer: { name: 'x' } }, '.customer'],
    ['a referral without code', { ...cartEvent('x'), referral: { referrer_id: 'r' } }, '.referral.code'],
    ['a loyalty object without code', { ...cartEvent('x'), loyalty: {} }, '.loyalty.code'],
    ['metadata that is not an object', { ...cartEvent('x'), metadata: [1] }, '.metadata'],
    ['a metadata integer beyond 2^53 (it cannot be stored exactly)', { ...cartEvent('x'), metadata: { amount: 1, big: 1e20 } }, '.metadata.big'],
    ['a customer metadata number below 1e-130', { ...cartEvent('x'), customer: { source_id: 'x', metadata: { a: [0, 1e-300] } } }, '.customer.metadata.a.1'],
  ])('refuses %s with 400 invalid_payload naming the property', async (_what, body, property) => {
    const { api } = await setup();
    const reply = await api.trackEvent(body);
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('invalid_payload');
    expect(reply.json.details).toContain(property);
  });

  it('accepts an event name of exactly 300 characters when it is defined', async () => {
    const { api } = await setup();
    const name = 'n'.repeat(300);
    await api.createSchema(schemaBody(name));
    const reply = await api.trackEvent({ event: name, customer: { source_id: 'long' } });
    expect(reply.status).toBe(200);
    expect(reply.json.type).toBe(name);
  });

  it.each([
    ['a string where the schema says number', { amount: '120' }, "amount: must be a number (actual value is '120')"],
    ['a missing required property', { note: 'x' }, 'amount: is required'],
    ['a null required property', { amount: null }, 'amount: is required'],
    ['a boolean given as a string', { amount: 1, flag: 'true' }, "flag: must be a boolean (actual value is 'true')"],
    ['an impossible date', { amount: 1, day: '2026-02-30' }, "day: must be a date (YYYY-MM-DD) (actual value is '2026-02-30')"],
    ['a date-time without time zone', { amount: 1, when: '2026-06-01T10:00:00' }, 'when: must be an ISO 8601 date-time'],
  ])('refuses %s with 400 metadata_validation_failed naming the property, storing nothing', async (_what, metadata, problem) => {
    const { runtime, api, projectId } = await setup();
    const reply = await api.trackEvent({ event: 'cart_abandoned', customer: { source_id: 'erin' }, metadata });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'metadata_validation_failed', message: 'Metadata validation failed' });
    expect(reply.json.details).toContain(problem);
    expect(await getCustomerIdBySourceId(runtime, projectId, 'erin')).toBeNull();
  });

  it('finds the same customer again by source_id and updates the fields the event sends', async () => {
    const { runtime, api, projectId } = await setup();
    const first = await api.trackEvent(cartEvent('frank', { customer: { source_id: 'frank', name: 'Frank', metadata: { a: 1 } } }));
    const second = await api.trackEvent(cartEvent('frank', { customer: { source_id: 'frank', email: 'frank@example.com' } }));
    const third = await api.trackEvent(cartEvent('frank'));
    const id = (first.json.customer as { id: string }).id;
    expect(second.json.customer).toEqual({ id, name: 'Frank', email: 'frank@example.com', source_id: 'frank', metadata: { a: 1 }, object: 'customer' });
    expect(third.json.customer).toEqual(second.json.customer);
    expect(await listEventsOfCustomer(runtime, projectId, id)).toHaveLength(3);
  });

  it('takes an existing customer by id, and answers 404 customer for an unknown id', async () => {
    const { api } = await setup();
    const first = await api.trackEvent(cartEvent('gina'));
    const id = (first.json.customer as { id: string }).id;
    const byId = await api.trackEvent({ ...cartEvent('ignored'), customer: { id } });
    expect(byId.status).toBe(200);
    expect(byId.json.customer).toMatchObject({ id, source_id: 'gina' });
    const unknown = await api.trackEvent({ ...cartEvent('x'), customer: { id: 'cust_missing' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'customer', resource_id: 'cust_missing' });
  });

  it('creates one customer when 20 events for the same new source_id arrive at once, and stores all 20 events', async () => {
    const { runtime, api, projectId } = await setup();
    const replies = await Promise.all(Array.from({ length: 20 }, () => api.trackEvent(cartEvent('rush@example.com'))));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(replies.map((r) => (r.json.customer as { id: string }).id));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect(await getCustomerIdBySourceId(runtime, projectId, 'rush@example.com')).toBe(id);
    expect(await listEventsOfCustomer(runtime, projectId, id as string)).toHaveLength(20);
  });

  it('keeps customers apart per project: the same source_id in two projects is two customers', async () => {
    const { runtime, api } = await setup();
    const other = eventApi(runtime, await newProject(runtime));
    await other.createSchema(schemaBody('cart_abandoned', { amount: 'number' }));
    const mine = await api.trackEvent(cartEvent('shared'));
    const theirs = await other.trackEvent(cartEvent('shared'));
    expect((mine.json.customer as { id: string }).id).not.toBe((theirs.json.customer as { id: string }).id);
  });

  it('needs the events scope (or api): a key limited to rewards gets 403', async () => {
    const { runtime, pair, api } = await setup();
    await setKeyPermissions(runtime, pair.app_id, ['rewards']);
    expect((await api.trackEvent(cartEvent('h'))).status).toBe(403);
    await setKeyPermissions(runtime, pair.app_id, ['events']);
    expect((await api.trackEvent(cartEvent('h'))).status).toBe(200);
  });
});
