import { describe, expect, it } from 'vitest';
import { getProject } from '../../../lib/projects/project.repo.js';
import type { WebhookEvent } from '../../../lib/webhooks/webhook.js';
import { verifySignature } from '../../../lib/webhooks/signature.js';
import { campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders } from '../../support/runtime.js';
import { webhookScenario } from '../../support/webhook-harness.js';

/*
 * Campaign events through the real outbox (the table stream of DynamoDB Local, the stream poller,
 * the webhooks queue and the delivery worker) to a receiver on loopback: one event per committed
 * change, none for a refused one.
 */

const SCHEDULE = { firstDelaySeconds: 1, maxDelaySeconds: 1, giveUpAfterSeconds: 30 };
const CAMPAIGN_EVENTS: WebhookEvent[] = [
  'campaign.created',
  'campaign.updated',
  'campaign.deleted',
  'campaign.enabled',
  'campaign.disabled',
  'campaign.vouchers.generation.started',
  'campaign.vouchers.generation.completed',
  'campaign.vouchers.generation.failed',
  'campaign.promotion_tier.created',
  'campaign.promotion_tier.updated',
  'campaign.promotion_tier.enabled',
  'campaign.promotion_tier.disabled',
  'campaign.promotion_tier.deleted',
  'campaign.reward.assignment.created',
  'campaign.reward.assignment.updated',
  'campaign.reward.assignment.deleted',
  'campaign.earning_rule.assigned',
  'campaign.earning_rule.updated',
  'campaign.earning_rule.enabled',
  'campaign.earning_rule.disabled',
  'campaign.earning_rule.deleted',
  'business_validation_rule.created',
  'business_validation_rule.updated',
  'business_validation_rule.deleted',
  'business_validation_rule.assignment.created',
  'business_validation_rule.assignment.deleted',
];

interface Event {
  id: string;
  type: string;
  project_id: string;
  data: { object: { id: string; name: string; active: boolean; object: string; vouchers_generation_status: string } };
}
const hooks = webhookScenario<Event>(CAMPAIGN_EVENTS, SCHEDULE);
const { eventsOf } = hooks;

async function projectWithWebhook() {
  const keys = await hooks.subscribedProject();
  const jobs = new RecordingJobQueue();
  const project = await getProject(hooks.runtime, keys.project_id);
  return { keys, jobs, secret: project?.webhookToken ?? '', api: apiClient({ runtime: hooks.runtime, jobs }, keyPairHeaders(keys)) };
}

describe('campaign webhook events', () => {
  it('sends one signed event per committed change (create, generation, PUT, disable, enable, delete) and none for refused ones', async () => {
    const { api, jobs, secret, keys } = await projectWithWebhook();
    const made = await api.call('create-campaign', { json: { ...campaignBodies.DISCOUNT_COUPONS('Hooks'), vouchers_count: 3 } });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    const id = made.json.id as string;
    await jobs.deliver(hooks.runtime);
    // Refused: a second campaign of the same name, a PUT whose dates are wrong, an unknown campaign.
    expect((await api.call('create-campaign', { json: campaignBodies.DISCOUNT_COUPONS('Hooks') })).status).toBe(409);
    const badPut = await api.call('update-campaign', {
      params: { campaignId: id },
      json: { start_date: '2026-05-01T00:00:00Z', expiration_date: '2026-04-01T00:00:00Z' },
    });
    expect(badPut.status).toBe(400);
    expect((await api.call('disable-campaign', { params: { campaignId: 'camp_none' } })).status).toBe(404);
    expect((await api.call('update-campaign', { params: { campaignId: id }, json: { description: 'Spring' } })).status).toBe(200);
    expect((await api.call('disable-campaign', { params: { campaignId: id } })).status).toBe(200);
    expect((await api.call('enable-campaign', { params: { campaignId: id } })).status).toBe(200);
    expect((await api.call('delete-campaign', { params: { campaignId: id } })).status).toBe(202);

    const events = await eventsOf(keys.project_id, 7);
    expect(events.map((e) => e.type).sort()).toEqual(
      [
        'campaign.created',
        'campaign.vouchers.generation.started',
        'campaign.vouchers.generation.completed',
        'campaign.updated',
        'campaign.disabled',
        'campaign.enabled',
        'campaign.deleted',
      ].sort(),
    );
    expect(new Set(events.map((e) => e.id)).size).toBe(7);
    expect(events.every((e) => e.data.object.id === id && e.data.object.object === 'campaign')).toBe(true);
    const byType = new Map(events.map((e) => [e.type, e.data.object]));
    expect(byType.get('campaign.disabled')?.active).toBe(false);
    expect(byType.get('campaign.enabled')?.active).toBe(true);
    expect(byType.get('campaign.vouchers.generation.completed')?.vouchers_generation_status).toBe('DONE');
    const [one] = hooks.requestsOf(keys.project_id);
    expect(one && verifySignature(one.body, secret, String(one.headers['x-voucherify-signature']))).toBe(true);
  }, 60_000);

  it('counted: 12 parallel enables and disables of one campaign send exactly the events of the changes that committed', async () => {
    const { api, keys } = await projectWithWebhook();
    const made = await api.call('create-campaign', { json: campaignBodies.DISCOUNT_COUPONS('Race') });
    expect(made.status).toBe(200);
    const id = made.json.id as string;
    const ops = Array.from({ length: 12 }, (_, n) => (n % 2 === 0 ? 'enable-campaign' : 'disable-campaign'));
    const replies = await Promise.all(ops.map((op) => api.call(op, { params: { campaignId: id } })));
    const won = ops.filter((_, n) => replies[n]?.status === 200);
    // Every refusal is a named 409 (the retries ran out), never a 5xx; each win is one revision.
    expect(replies.filter((r) => r.status !== 200).every((r) => r.status === 409)).toBe(true);
    expect(won.length).toBeGreaterThan(0);
    const events = await eventsOf(keys.project_id, 1 + won.length);
    const changes = events.filter((e) => e.type !== 'campaign.created');
    expect(changes).toHaveLength(won.length);
    expect(changes.filter((e) => e.type === 'campaign.enabled')).toHaveLength(won.filter((op) => op === 'enable-campaign').length);
    expect(changes.filter((e) => e.type === 'campaign.disabled')).toHaveLength(won.filter((op) => op === 'disable-campaign').length);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  }, 60_000);

  it('earning rules: assigned, updated, disabled, enabled, deleted, once each; none for refused changes', async () => {
    const { api, keys } = await projectWithWebhook();
    const club = await api.call('create-campaign', {
      json: { name: 'Club', campaign_type: 'LOYALTY_PROGRAM', type: 'AUTO_UPDATE', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } },
    });
    expect(club.status).toBe(200);
    const made = await api.call('create-earning-rule', {
      params: { campaignId: 'Club' },
      json: [{ event: 'order.paid', loyalty: { type: 'FIXED', points: 10 }, source: { banner: 'Paid' } }],
    });
    expect(made.status).toBe(200);
    const ruleId = ((made.json as unknown as { id: string }[])[0] ?? { id: '' }).id;
    const rule = { campaignId: 'Club', earningRuleId: ruleId };
    const refused = [
      await api.call('update-earning-rule', { params: rule, json: { start_date: '2026-05-01T00:00:00Z', expiration_date: '2026-04-01T00:00:00Z' } }),
      await api.call('enable-earning-rule', { params: { campaignId: 'Club', earningRuleId: 'ern_none' } }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 404]);
    expect((await api.call('update-earning-rule', { params: rule, json: { source: { banner: 'Paid orders' } } })).status).toBe(200);
    expect((await api.call('disable-earning-rule', { params: rule })).status).toBe(200);
    expect((await api.call('enable-earning-rule', { params: rule })).status).toBe(200);
    expect((await api.call('delete-earning-rule', { params: rule })).status).toBe(204);
    const events = (await eventsOf(keys.project_id, 6)).filter((e) => e.type.startsWith('campaign.earning_rule.'));
    expect(events.map((e) => e.type).sort()).toEqual(['assigned', 'updated', 'disabled', 'enabled', 'deleted'].map((t) => `campaign.earning_rule.${t}`).sort());
    expect(events.every((e) => e.data.object.id === ruleId)).toBe(true);
  }, 60_000);

  it('validation rules and their assignments: created, updated, deleted, once each; none for refused changes', async () => {
    const { api, keys } = await projectWithWebhook();
    const campaign = await api.call('create-campaign', { json: campaignBodies.DISCOUNT_COUPONS('Ruled') });
    expect(campaign.status).toBe(200);
    const rule = await api.call('create-validation-rules', { json: { name: 'Big orders', rules: {} } });
    expect(rule.status, JSON.stringify(rule.json)).toBe(200);
    const ruleId = rule.json.id as string;
    const onRule = { validationRuleId: ruleId };
    const assigned = await api.call('create-validation-rule-assignment', {
      params: onRule,
      json: { related_object_type: 'campaign', related_object_id: campaign.json.id },
    });
    expect(assigned.status).toBe(200);
    const refused = [
      await api.call('create-validation-rule-assignment', { params: onRule, json: { related_object_type: 'campaign', related_object_id: 'camp_none' } }),
      await api.call('delete-validation-rules', { params: onRule }),
      await api.call('update-validation-rule', { params: { validationRuleId: 'val_none' }, json: { name: 'x' } }),
    ];
    expect(refused.map((r) => r.status >= 400 && r.status < 500)).toEqual([true, true, true]);
    expect((await api.call('update-validation-rule', { params: onRule, json: { name: 'Bigger orders' } })).status).toBe(200);
    const unassigned = await api.call('delete-validation-rule-assignment', { params: { ...onRule, assignmentId: assigned.json.id as string } });
    expect(unassigned.status).toBe(204);
    expect((await api.call('delete-validation-rules', { params: onRule })).status).toBe(204);
    const events = (await eventsOf(keys.project_id, 6)).filter((e) => e.type.startsWith('business_validation_rule.'));
    expect(events.map((e) => e.type).sort()).toEqual(
      ['created', 'updated', 'deleted', 'assignment.created', 'assignment.deleted'].map((t) => `business_validation_rule.${t}`).sort(),
    );
    const updated = events.find((e) => e.type === 'business_validation_rule.updated');
    expect(updated?.data.object).toMatchObject({ id: ruleId, name: 'Bigger orders' });
  }, 60_000);

  it('promotion tiers: created, updated, disabled, enabled, deleted, once each (the tier, not the campaign); none for refused changes', async () => {
    const { api, keys } = await projectWithWebhook();
    const promo = await api.call('create-campaign', { json: campaignBodies.PROMOTION('Promo') });
    expect(promo.status).toBe(200);
    const added = await api.call('add-promotion-tier-to-campaign', {
      params: { campaignId: promo.json.id as string },
      json: { name: 'Tier C', action: { discount: { type: 'PERCENT', percent_off: 5 } } },
    });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    const tier = { promotionTierId: added.json.id as string };
    expect((await api.call('update-promotion-tier', { params: { promotionTierId: 'promo_none' }, json: { banner: 'x' } })).status).toBe(404);
    expect((await api.call('update-promotion-tier', { params: tier, json: { banner: 'Five off' } })).status).toBe(200);
    expect((await api.call('disable-promotion-tier', { params: tier })).status).toBe(200);
    expect((await api.call('enable-promotion-tier', { params: tier })).status).toBe(200);
    expect((await api.call('delete-promotion-tier', { params: tier })).status).toBe(204);
    const events = await eventsOf(keys.project_id, 6);
    expect(events.map((e) => e.type).sort()).toEqual(
      ['campaign.created', ...['created', 'updated', 'disabled', 'enabled', 'deleted'].map((t) => `campaign.promotion_tier.${t}`)].sort(),
    );
    expect(events.filter((e) => e.type.startsWith('campaign.promotion_tier.')).every((e) => e.data.object.id === tier.promotionTierId)).toBe(true);
  }, 60_000);

  it('reward assignments: created, updated, deleted, once each; none for refused changes', async () => {
    const { api, keys } = await projectWithWebhook();
    const club = await api.call('create-campaign', { json: campaignBodies.LOYALTY_PROGRAM('Club') });
    expect(club.status).toBe(200);
    const reward = await api.call('create-reward', {
      json: { name: 'Coins', type: 'COIN', parameters: { coin: { exchange_ratio: 900, points_ratio: 8000 } } },
    });
    expect(reward.status, JSON.stringify(reward.json)).toBe(200);
    const rewardId = reward.json.id as string;
    const assign = (campaign: string) =>
      api.call('create-reward-assignment', { params: { rewardId }, json: { campaign, parameters: { loyalty: { points: 39 } } } });
    const assigned = await assign(club.json.id as string);
    expect(assigned.status, JSON.stringify(assigned.json)).toBe(200);
    // Refused: the same pair again, an unknown campaign.
    expect((await assign(club.json.id as string)).status).toBeGreaterThanOrEqual(400);
    expect((await assign('camp_none')).status).toBeGreaterThanOrEqual(400);
    const ref = { rewardId, assignmentId: assigned.json.id as string };
    expect((await api.call('update-reward-assignment', { params: ref, json: { parameters: { loyalty: { points: 45 } } } })).status).toBe(200);
    expect((await api.call('delete-reward-assignment', { params: ref })).status).toBe(204);
    const events = (await eventsOf(keys.project_id, 4)).filter((e) => e.type.startsWith('campaign.reward.'));
    expect(events.map((e) => e.type).sort()).toEqual(['created', 'deleted', 'updated'].map((t) => `campaign.reward.assignment.${t}`));
    expect(events.every((e) => e.data.object.id === ref.assignmentId)).toBe(true);
  }, 60_000);
});
