import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { listEventsOfCustomer } from '../../../lib/events/event.repo.js';
import { getHeldVoucher } from '../../../lib/vouchers/voucher-holder.repo.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { eventApi, schemaBody } from '../../support/events-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 6, 4, 9, 0, 0);

/**
 * A project where the customer `ann` converted rita's referral code REF-1 and was given a gift
 * voucher of `Gifts` (the referee reward): a voucher published to her, with her as holder.
 */
async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const api = apiClient({ runtime }, headers);
  const events = eventApi(runtime, pair);
  const campaigns = campaignApi(runtime, pair);
  expect((await events.createSchema(schemaBody('user_subscribed'))).status).toBe(200);
  const gifts = await newCampaign(campaigns, { ...campaignBodies.GIFT_VOUCHERS('Gifts') });
  await newCampaign(campaigns, {
    ...campaignBodies.REFERRAL_PROGRAM('Friends'),
    referral_program: {
      conversion_event_type: 'custom_event',
      custom_event: { name: 'user_subscribed' },
      referee_reward: { related_object_parent: { id: gifts.id }, type: 'GIFT_VOUCHER', amount: 500 },
    },
  });
  expect((await campaigns.addVoucher('Friends', { code: 'REF-1' })).status).toBe(200);
  expect((await events.trackEvent({ event: 'user_subscribed', customer: { source_id: 'rita' } })).status).toBe(200);
  const converted = await events.trackEvent({ event: 'user_subscribed', customer: { source_id: 'ann' }, referral: { code: 'REF-1', referrer_id: 'rita' } });
  expect(converted.status).toBe(200);
  const annId = (converted.json.customer as { id: string }).id;
  const held = await getHeldVoucher(runtime, pair.project_id, annId, gifts.id as string);
  if (!held.voucher) throw new Error('ann holds no gift voucher');
  const remove = (customerId: string, extra: Record<string, string> = {}) =>
    api.call('delete-customer', { params: { customerId }, headers: { ...headers, ...extra } });
  return { runtime, pair, api, campaigns, events, remove, annId, giftsId: gifts.id as string, code: held.voucher.code };
}

describe('DELETE /v1/customers/{customerId}', () => {
  it('deletes the customer (204, then 404) and keeps what was published to it: the voucher still names it as holder', async () => {
    const { runtime, pair, api, campaigns, remove, annId, giftsId, code } = await setup();
    const reply = await remove(annId);
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    for (const ref of [annId, 'ann']) {
      const gone = await api.call('get-customer', { params: { customerId: ref } });
      expect(gone.status).toBe(404);
      expect(gone.json).toMatchObject({ key: 'not_found', resource_type: 'customer', resource_id: ref });
    }
    const voucher = await campaigns.getVoucher(code);
    expect(voucher.status).toBe(200);
    expect(voucher.json.holder_id).toBe(annId);
    expect((await getHeldVoucher(runtime, pair.project_id, annId, giftsId)).voucher?.code).toBe(code);
    expect(await listEventsOfCustomer(runtime, pair.project_id, annId)).toHaveLength(1);
  });

  it('deletes by source id and frees it: the next customer with that source id is a new one', async () => {
    const { api, remove, annId } = await setup();
    expect((await remove('ann')).status).toBe(204);
    const again = await api.call('create-customer', { json: { source_id: 'ann' } });
    expect(again.status).toBe(200);
    expect(again.json.id).not.toBe(annId);
  });

  it('answers 404 for an unknown or already deleted customer, and for a customer of another project', async () => {
    const { runtime, api, remove, annId } = await setup();
    const other = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    expect((await other.call('delete-customer', { params: { customerId: annId } })).status).toBe(404);
    expect((await api.call('get-customer', { params: { customerId: annId } })).status).toBe(200);
    expect((await remove(annId)).status).toBe(204);
    const again = await remove(annId);
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ key: 'not_found', resource_type: 'customer', resource_id: annId });
    expect((await remove('nobody')).status).toBe(404);
  });

  it('gives exactly one 204 when 10 requests delete the same customer at once', async () => {
    const { remove, annId } = await setup();
    const replies = await Promise.all(Array.from({ length: 10 }, () => remove(annId)));
    expect(replies.filter((r) => r.status === 204)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 404)).toHaveLength(9);
  });

  it('replays the 204 to a retry with the same Idempotency-Key', async () => {
    const { remove, annId } = await setup();
    expect((await remove(annId, { 'idempotency-key': 'del-1' })).status).toBe(204);
    const retry = await remove(annId, { 'idempotency-key': 'del-1' });
    expect(retry.status).toBe(204);
    expect(retry.headers['Idempotent-Replayed']).toBe('true');
  });
});
