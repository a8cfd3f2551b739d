import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { getCustomer, getCustomerIdBySourceId } from '../../../lib/customers/customer.repo.js';
import { keys } from '../../../lib/db/keys.js';
import { listEventsOfCustomer } from '../../../lib/events/event.repo.js';
import { eventReplySchema } from '../../../lib/events/event.reply.js';
import { transact } from '../../../lib/db/transact.js';
import type { ReferralConversion } from '../../../lib/referrals/referral-conversion.js';
import { listConversionsOfCode, putConversionItem } from '../../../lib/referrals/referral.repo.js';
import type { Runtime } from '../../../lib/runtime.js';
import { getVoucherByCode } from '../../../lib/vouchers/voucher.repo.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 7, 3, 9, 0, 0);

const referralProgram = (name: string, event: string) => ({
  ...campaignBodies.REFERRAL_PROGRAM(name),
  referral_program: { conversion_event_type: 'custom_event', custom_event: { name: event } },
});

/**
 * A project with events `user_subscribed` and `user_logged_in`, a referral program converting on
 * `user_subscribed` with code REF-1, and the referrer `rita` (a known customer).
 */
async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const projectId = pair.project_id;
  const events = eventApi(runtime, pair);
  const campaigns = campaignApi(runtime, pair);
  expect((await events.createSchema(schemaBody('user_subscribed', { plan: 'string?' }))).status).toBe(200);
  expect((await events.createSchema(schemaBody('user_logged_in'))).status).toBe(200);
  const campaign = await newCampaign(campaigns, referralProgram('Friends', 'user_subscribed'));
  expect((await campaigns.addVoucher('Friends', { code: 'REF-1' })).status).toBe(200);
  const rita = await events.trackEvent({ event: 'user_logged_in', customer: { source_id: 'rita' } });
  const ritaId = (rita.json.customer as { id: string }).id;
  const subscribed = (sourceId: string, referral: Record<string, unknown> = { code: 'REF-1', referrer_id: 'rita' }) => ({
    event: 'user_subscribed',
    customer: { source_id: sourceId },
    referral,
  });
  const conversions = () => listConversionsOfCode(runtime, projectId, campaign.id as string, 'REF-1');
  const counter = async (code = 'REF-1') => (await getVoucherByCode(runtime, projectId, code))?.referralConversions ?? 0;
  const eventsOf = async (sourceId: string) => {
    const id = await getCustomerIdBySourceId(runtime, projectId, sourceId);
    return id ? listEventsOfCustomer(runtime, projectId, id) : [];
  };
  return { runtime, projectId, events, campaigns, campaignId: campaign.id as string, ritaId, subscribed, conversions, counter, eventsOf };
}

/** Voucherify publishes a code to its holder; there is no publication endpoint yet, so the test sets the holder. */
async function setHolder(runtime: Runtime, projectId: string, code: string, holderId: string): Promise<void> {
  await runtime.ddb.send(
    new UpdateCommand({
      TableName: runtime.tableName,
      Key: keys.voucher(projectId, code),
      UpdateExpression: 'SET holderId = :h',
      ExpressionAttributeValues: { ':h': holderId },
    }),
  );
}

describe('POST /v1/events with a referral code (referral conversion on a custom event)', () => {
  it('records the conversion of the referred customer for the referrer, with the event, and replies referral: null', async () => {
    const { events, campaignId, ritaId, subscribed, conversions, counter, eventsOf } = await setup();
    const reply = await events.trackEvent(subscribed('ann'));
    expect(reply.status).toBe(200);
    expect(eventReplySchema.parse(reply.json).referral).toBeNull();
    const annId = (reply.json.customer as { id: string }).id;
    const [event] = await eventsOf('ann');
    expect(event?.referral).toEqual({ code: 'REF-1', referrerId: 'rita' });
    expect(await conversions()).toEqual([
      expect.objectContaining({
        campaignId,
        code: 'REF-1',
        referrerId: ritaId,
        refereeId: annId,
        eventId: event?.id,
        eventType: 'user_subscribed',
        createdAt: new Date(at).toISOString(),
      }),
    ]);
    expect(await counter()).toBe(1);
  });

  it('converts once per referred customer: a repeated or later event of the same customer stores the event but no conversion', async () => {
    const { events, subscribed, conversions, counter, eventsOf } = await setup();
    expect((await events.trackEvent(subscribed('ann'))).status).toBe(200);
    expect((await events.trackEvent(subscribed('ann'))).status).toBe(200);
    expect((await events.trackEvent({ ...subscribed('ann'), metadata: { plan: 'pro' } })).status).toBe(200);
    expect(await eventsOf('ann')).toHaveLength(3);
    expect(await conversions()).toHaveLength(1);
    expect(await counter()).toBe(1);
    // Another referred customer converts the same code too.
    expect((await events.trackEvent(subscribed('ben'))).status).toBe(200);
    expect(await conversions()).toHaveLength(2);
    expect(await counter()).toBe(2);
  });

  it('converts once when 20 retries with one Idempotency-Key race: one event, one conversion, one reply', async () => {
    const { events, subscribed, conversions, counter, eventsOf } = await setup();
    const replies = await Promise.all(Array.from({ length: 20 }, () => events.trackEvent(subscribed('cleo'), 'sub-key')));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    for (const reply of replies) expect(reply.json).toEqual(replies[0]?.json);
    expect(await eventsOf('cleo')).toHaveLength(1);
    expect(await conversions()).toHaveLength(1);
    expect(await counter()).toBe(1);
  });

  it('converts once when 20 requests without a key from the same customer race: 20 events, one conversion', async () => {
    const { events, subscribed, conversions, counter, eventsOf } = await setup();
    const replies = await Promise.all(Array.from({ length: 20 }, () => events.trackEvent(subscribed('dan'))));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await eventsOf('dan')).toHaveLength(20);
    expect(await conversions()).toHaveLength(1);
    expect(await counter()).toBe(1);
  });

  it('refuses the referrer converting their own code with 400 referrer_not_permitted_to_redeem, storing nothing', async () => {
    const { runtime, projectId, events, ritaId, subscribed, conversions, counter, eventsOf } = await setup();
    // The customer's fields would be updated by the event: refused, they are not.
    for (const customer of [
      { source_id: 'rita', name: 'Rita' },
      { id: ritaId, name: 'Rita' },
    ]) {
      const reply = await events.trackEvent({ ...subscribed('x'), customer });
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ key: 'referrer_not_permitted_to_redeem', resource_type: 'voucher', resource_id: 'REF-1' });
    }
    // Named by customer id rather than source id, the referrer is the same customer.
    const byId = await events.trackEvent(subscribed('rita', { code: 'REF-1', referrer_id: ritaId }));
    expect(byId.json.key).toBe('referrer_not_permitted_to_redeem');
    expect(await eventsOf('rita')).toHaveLength(1); // only the setup's login
    expect((await getCustomer(runtime, projectId, ritaId))?.name).toBeNull();
    expect(await conversions()).toEqual([]);
    expect(await counter()).toBe(0);
  });

  it("takes the code's holder as the referrer: no referrer_id needed, the holder cannot convert, another referrer_id is refused", async () => {
    const { runtime, projectId, events, ritaId, subscribed, conversions, eventsOf } = await setup();
    await setHolder(runtime, projectId, 'REF-1', ritaId);
    const self = await events.trackEvent(subscribed('rita', { code: 'REF-1' }));
    expect(self.status).toBe(400);
    expect(self.json.key).toBe('referrer_not_permitted_to_redeem');
    await events.trackEvent({ event: 'user_logged_in', customer: { source_id: 'otto' } });
    const other = await events.trackEvent(subscribed('eve', { code: 'REF-1', referrer_id: 'otto' }));
    expect(other.status).toBe(400);
    expect(other.json.key).toBe('invalid_customer');
    expect(await eventsOf('eve')).toEqual([]);
    const ok = await events.trackEvent(subscribed('eve', { code: 'REF-1' }));
    expect(ok.status).toBe(200);
    expect((await conversions()).map((c) => c.referrerId)).toEqual([ritaId]);
  });

  it('needs a referrer for a code without holder: 400 missing_parameters without referrer_id, 404 customer for an unknown one', async () => {
    const { events, subscribed, conversions, eventsOf } = await setup();
    const missing = await events.trackEvent(subscribed('fay', { code: 'REF-1' }));
    expect(missing.status).toBe(400);
    expect(missing.json.key).toBe('missing_parameters');
    const unknown = await events.trackEvent(subscribed('fay', { code: 'REF-1', referrer_id: 'nobody' }));
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'customer', resource_id: 'nobody' });
    expect(await eventsOf('fay')).toEqual([]);
    expect(await conversions()).toEqual([]);
  });

  it('refuses an unknown code with 404 voucher, storing nothing', async () => {
    const { events, subscribed, eventsOf } = await setup();
    const reply = await events.trackEvent(subscribed('gus', { code: 'ref-1', referrer_id: 'rita' }));
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ key: 'not_found', resource_type: 'voucher', resource_id: 'ref-1' });
    expect(await eventsOf('gus')).toEqual([]);
  });

  it('refuses a code that is not a referral code with 400 invalid_voucher', async () => {
    const { campaigns, events, subscribed, counter, eventsOf } = await setup();
    await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Coupons'));
    await campaigns.addVoucher('Coupons', { code: 'COUPON-1' });
    await newCampaign(campaigns, {
      ...referralProgram('Plain', 'user_subscribed'),
      voucher: { ...campaignBodies.REFERRAL_PROGRAM('x').voucher, is_referral_code: false },
    });
    await campaigns.addVoucher('Plain', { code: 'PLAIN-1' });
    for (const code of ['COUPON-1', 'PLAIN-1']) {
      const reply = await events.trackEvent(subscribed('hal', { code, referrer_id: 'rita' }));
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ key: 'invalid_voucher', resource_id: code });
      expect(await counter(code)).toBe(0);
    }
    expect(await eventsOf('hal')).toEqual([]);
  });

  it('refuses a code of a program converting on another event, or on redemption, with 400 invalid_campaign', async () => {
    const { campaigns, events, subscribed, conversions, eventsOf } = await setup();
    const wrongEvent = await events.trackEvent({ ...subscribed('ivy'), event: 'user_logged_in' });
    expect(wrongEvent.status).toBe(400);
    expect(wrongEvent.json.key).toBe('invalid_campaign');
    expect(wrongEvent.json.details).toContain('user_subscribed');
    await newCampaign(campaigns, campaignBodies.REFERRAL_PROGRAM('On redemption'));
    await campaigns.addVoucher('On redemption', { code: 'RED-1' });
    const onRedemption = await events.trackEvent(subscribed('ivy', { code: 'RED-1', referrer_id: 'rita' }));
    expect(onRedemption.status).toBe(400);
    expect(onRedemption.json.key).toBe('invalid_campaign');
    expect(await eventsOf('ivy')).toEqual([]);
    expect(await conversions()).toEqual([]);
  });

  it('keys a conversion by campaign, code and referred customer: a second write of the same triple fails its condition', async () => {
    const { runtime, projectId, campaignId, ritaId, conversions } = await setup();
    const conversion = (id: string, refereeId: string): ReferralConversion => ({
      id,
      projectId,
      campaignId,
      code: 'REF-1',
      voucherId: 'v_1',
      referrerId: ritaId,
      refereeId,
      eventId: `evcus_${id}`,
      eventType: 'user_subscribed',
      createdAt: new Date(at).toISOString(),
    });
    expect(await transact(runtime, [putConversionItem(runtime, conversion('a', 'cust_a'))])).toEqual({ ok: true });
    expect(await transact(runtime, [putConversionItem(runtime, conversion('b', 'cust_a'))])).toEqual({ ok: false, failed: [0] });
    expect(await transact(runtime, [putConversionItem(runtime, conversion('c', 'cust_b'))])).toEqual({ ok: true });
    expect((await conversions()).map((c) => c.id)).toEqual(['a', 'c']);
  });
});
