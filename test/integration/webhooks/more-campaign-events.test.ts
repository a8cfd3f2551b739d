import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../../lib/webhooks/webhook.js';
import { campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders } from '../../support/runtime.js';
import { webhookScenario } from '../../support/webhook-harness.js';

/*
 * Loyalty tier, promotion stack and voucher publication events through the real outbox (DynamoDB
 * Local's table stream, the stream poller, the webhooks queue, the delivery worker) to a loopback
 * receiver: one event per committed change, none for a refused one.
 */

const SCHEDULE = { firstDelaySeconds: 1, maxDelaySeconds: 1, giveUpAfterSeconds: 30 };
const EVENTS: WebhookEvent[] = [
  'campaign.created',
  'campaign.updated',
  'campaign.loyalty_tier.created',
  'campaign.loyalty_tier.updated',
  'campaign.loyalty_tier.deleted',
  'campaign.promotion_stack.created',
  'campaign.promotion_stack.updated',
  'publication.succeeded',
  'voucher.published',
  'campaign.vouchers.aded',
  'customer.rewarded',
  'customer.rewarded.loyalty_points',
];

interface Event {
  id: string;
  type: string;
  project_id: string;
  data: { object: Record<string, unknown> } & Record<string, unknown>;
}
const hooks = webhookScenario<Event>(EVENTS, SCHEDULE);
const { eventsOf } = hooks;

async function projectWithWebhook() {
  const keys = await hooks.subscribedProject();
  const jobs = new RecordingJobQueue();
  return { keys, jobs, api: apiClient({ runtime: hooks.runtime, jobs }, keyPairHeaders(keys)) };
}

describe('loyalty tier events', () => {
  it('one campaign.loyalty_tier.created per tier made; none for a PUT of the expiration setting alone, nor for a refused creation', async () => {
    const { api, keys } = await projectWithWebhook();
    expect((await api.call('create-campaign', { json: campaignBodies.LOYALTY_PROGRAM('Club') })).status).toBe(200);
    const first = await api.call('create-in-bulk-loyalty-tiers', {
      params: { campaignId: 'Club' },
      json: [
        { name: 'Silver', points: { from: 100, to: 199 } },
        { name: 'Gold', points: { from: 200, to: 499 } },
      ],
    });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const expiration = {
      qualification_type: 'POINTS_IN_PERIOD',
      qualification_period: 'QUARTER',
      start_date: { type: 'IMMEDIATE' },
      expiration_date: { type: 'END_OF_PERIOD', extend: '' },
    };
    const put = await api.call('update-loyalty-program', { params: { campaignId: 'Club' }, json: { loyalty_tiers_expiration: expiration } });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    // Refused: a range that overlaps Gold's.
    const overlapping = await api.call('create-in-bulk-loyalty-tiers', { params: { campaignId: 'Club' }, json: [{ name: 'Bad', points: { from: 300 } }] });
    expect(overlapping.status).toBe(400);
    const second = await api.call('create-in-bulk-loyalty-tiers', { params: { campaignId: 'Club' }, json: [{ name: 'Platinum', points: { from: 500 } }] });
    expect(second.status).toBe(200);
    const events = await eventsOf(keys.project_id, 5);
    expect(events.map((e) => e.type).sort()).toEqual(
      ['campaign.created', 'campaign.updated', 'campaign.loyalty_tier.created', 'campaign.loyalty_tier.created', 'campaign.loyalty_tier.created'].sort(),
    );
    const tiers = events.filter((e) => e.type === 'campaign.loyalty_tier.created').map((e) => e.data.object);
    expect(tiers.map((t) => t.name).sort()).toEqual(['Gold', 'Platinum', 'Silver']);
    expect(tiers.every((t) => t.object === 'loyalty_tier')).toBe(true);
    expect(new Set(events.map((e) => e.id)).size).toBe(5);
  }, 60_000);
});

describe('voucher.published', () => {
  it('one per voucher a publication gives, beside its publication.succeeded; none for a refused publication', async () => {
    const { api, keys, jobs } = await projectWithWebhook();
    const made = await api.call('create-campaign', { json: { ...campaignBodies.DISCOUNT_COUPONS('Pubs'), vouchers_count: 3 } });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    await jobs.deliver(hooks.runtime);
    const single = await api.call('create-publication', { json: { customer: { source_id: 'ann' }, campaign: { name: 'Pubs' } } });
    expect(single.status, JSON.stringify(single.json)).toBe(200);
    const pair = await api.call('create-publication', { json: { customer: { source_id: 'bob' }, campaign: { name: 'Pubs', count: 2 } } });
    expect(pair.status, JSON.stringify(pair.json)).toBe(200);
    // Refused: an unknown voucher, an unknown campaign.
    expect((await api.call('create-publication', { json: { customer: { source_id: 'cy' }, campaign: { name: 'None' } } })).status).toBe(404);
    expect((await api.call('create-publication', { json: { customer: { source_id: 'cy' }, voucher: 'NOPE' } })).status).toBe(404);
    const events = (await eventsOf(keys.project_id, 6)).filter((e) => e.type !== 'campaign.created');
    expect(events.map((e) => e.type).sort()).toEqual([
      'publication.succeeded',
      'publication.succeeded',
      'voucher.published',
      'voucher.published',
      'voucher.published',
    ]);
    const published = events.filter((e) => e.type === 'voucher.published');
    const singleId = single.json.id as string;
    const ofSingle = published.find((e) => (e.data.publication as { id: string }).id === singleId);
    expect(ofSingle?.data.object).toMatchObject({ object: 'voucher', code: (single.json.voucher as { code: string }).code, campaign: 'Pubs' });
    expect(ofSingle?.data.customer).toMatchObject({ source_id: 'ann', object: 'customer' });
    const ofPair = published.filter((e) => (e.data.publication as { id: string }).id === pair.json.id).map((e) => e.data.object.code);
    expect(ofPair.sort()).toEqual([...(pair.json.vouchers as string[])].sort());
  }, 60_000);
});

describe('promotion stack events', () => {
  it('created and updated, once each, naming the category as written; none for a refused change or a deletion', async () => {
    const { api, keys } = await projectWithWebhook();
    const promo = await api.call('create-campaign', { json: campaignBodies.PROMOTION('Stacked') });
    expect(promo.status, JSON.stringify(promo.json)).toBe(200);
    const tierIds = ((promo.json.promotion as { tiers: { id: string }[] }).tiers ?? []).map((t) => t.id);
    const category = await api.call('create-category', { json: { name: 'Weekend', hierarchy: 1 } });
    expect(category.status).toBe(200);
    const made = await api.call('create-promotion-stack', {
      params: { campaignId: 'Stacked' },
      json: { name: 'Both', tiers: { ids: tierIds, hierarchy_mode: 'MANUAL' }, category_id: category.json.id },
    });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    const stack = { campaignId: 'Stacked', stackId: made.json.id as string };
    // Refused: a tier the campaign lacks, an unknown stack.
    expect((await api.call('update-promotion-stack', { params: stack, json: { tiers: { ids: ['promo_none'] } } })).status).toBe(404);
    expect((await api.call('update-promotion-stack', { params: { ...stack, stackId: 'stack_none' }, json: { name: 'x' } })).status).toBe(404);
    expect((await api.call('update-promotion-stack', { params: stack, json: { name: 'First only', tiers: { ids: tierIds.slice(0, 1) } } })).status).toBe(200);
    expect((await api.call('delete-promotion-stack', { params: stack })).status).toBe(204);
    const events = (await eventsOf(keys.project_id, 3)).filter((e) => e.type.startsWith('campaign.promotion_stack.'));
    expect(events.map((e) => e.type).sort()).toEqual(['campaign.promotion_stack.created', 'campaign.promotion_stack.updated']);
    const byType = new Map(events.map((e) => [e.type, e.data.object]));
    expect(byType.get('campaign.promotion_stack.created')).toMatchObject({
      id: stack.stackId,
      name: 'Both',
      object: 'promotion_stack',
      category_id: category.json.id,
      categories: [{ id: category.json.id, name: 'Weekend' }],
    });
    expect(byType.get('campaign.promotion_stack.updated')).toMatchObject({
      name: 'First only',
      tiers: { ids: tierIds.slice(0, 1) },
      categories: [{ name: 'Weekend' }],
    });
  }, 60_000);
});

describe('campaign.vouchers.aded', () => {
  it('one per addition to an existing campaign (one voucher, one with a code, several by job, POST /v1/vouchers naming it, an import) with its count; none at creation nor for a refused one', async () => {
    const { api, keys, jobs } = await projectWithWebhook();
    const made = await api.call('create-campaign', { json: { ...campaignBodies.DISCOUNT_COUPONS('Grows'), vouchers_count: 2 } });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    await jobs.deliver(hooks.runtime);
    const campaignId = made.json.id as string;
    expect((await api.call('add-vouchers-to-campaign', { params: { campaignId }, json: {} })).status).toBe(200);
    const withCode = await api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId, code: 'GROW-1' }, json: {} });
    expect(withCode.status, JSON.stringify(withCode.json)).toBe(200);
    const bulk = await api.call('add-vouchers-to-campaign', { params: { campaignId }, query: 'vouchers_count=3', json: {} });
    expect(bulk.status, JSON.stringify(bulk.json)).toBe(202);
    await jobs.deliver(hooks.runtime);
    // Refused: the code again.
    expect((await api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId, code: 'GROW-1' }, json: {} })).status).toBe(409);
    // POST /v1/vouchers naming the campaign adds one; an import adds what it wrote (a taken code fails, not counted).
    const one = await api.call('generate-random-code', { json: { campaign_id: campaignId } });
    expect(one.status, JSON.stringify(one.json)).toBe(200);
    const imported = await api.call('import-vouchers-to-campaign', {
      params: { campaignId },
      json: [{ code: 'IMP-1' }, { code: 'IMP-2' }, { code: 'GROW-1' }],
    });
    expect(imported.status, JSON.stringify(imported.json)).toBe(202);
    await jobs.deliver(hooks.runtime);
    const events = (await eventsOf(keys.project_id, 6)).filter((e) => e.type === 'campaign.vouchers.aded');
    expect(events.map((e) => e.data.count).sort()).toEqual([1, 1, 1, 2, 3]);
    expect(events.every((e) => e.data.object.id === campaignId)).toBe(true);
    const last = events.find((e) => e.data.count === 3);
    expect(last?.data.object.vouchers_count).toBe(7);
    expect(events.find((e) => e.data.count === 2)?.data.object.vouchers_count).toBe(10);
  }, 60_000);
});

describe('customer.rewarded', () => {
  it('a referee reward of points sends customer.rewarded and .loyalty_points once, from the conversion that granted it; a repeated conversion sends none', async () => {
    const { api, keys } = await projectWithWebhook();
    const schema = await api.call('create-custom-event-schema', { json: { name: 'user_subscribed', schema: { properties: {} } } });
    expect(schema.status).toBe(200);
    const club = await api.call('create-campaign', {
      json: {
        name: 'Club',
        campaign_type: 'LOYALTY_PROGRAM',
        voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 }, code_config: { prefix: 'CLUB-' } },
      },
    });
    expect(club.status).toBe(200);
    const friends = await api.call('create-campaign', {
      json: {
        ...campaignBodies.REFERRAL_PROGRAM('Friends'),
        referral_program: {
          conversion_event_type: 'custom_event',
          custom_event: { name: 'user_subscribed' },
          referee_reward: { related_object_parent: { id: club.json.id }, type: 'LOYALTY_CARD', amount: 150 },
        },
      },
    });
    expect(friends.status, JSON.stringify(friends.json)).toBe(200);
    expect((await api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId: 'Friends', code: 'REF-1' }, json: {} })).status).toBe(200);
    const track = (sourceId: string) =>
      api.call('track-custom-event', {
        json: { event: 'user_subscribed', customer: { source_id: sourceId }, referral: { code: 'REF-1', referrer_id: 'rita' } },
      });
    expect((await api.call('track-custom-event', { json: { event: 'user_subscribed', customer: { source_id: 'rita' } } })).status).toBe(200);
    expect((await track('ann')).status).toBe(200);
    // The same referee again converts nothing and grants nothing.
    expect((await track('ann')).status).toBe(200);
    const events = await eventsOf(keys.project_id, 2, (e) => e.type.startsWith('customer.rewarded'));
    expect(events.map((e) => e.type).sort()).toEqual(['customer.rewarded', 'customer.rewarded.loyalty_points']);
    expect(events[0]?.data).toMatchObject({
      balance: { points: 150 },
      campaign: { id: club.json.id },
      referral: { code: 'REF-1' },
      voucher: { object: 'voucher' },
    });
    expect(String((events[0]?.data.voucher as { code?: string } | undefined)?.code)).toMatch(/^CLUB-/);
  }, 60_000);
});
