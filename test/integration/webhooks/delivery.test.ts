import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../../lib/webhooks/signature.js';
import { LOCAL_TARGET_POLICY } from '../../../lib/webhooks/target-policy.js';
import { createWebhook } from '../../../lib/webhooks/webhook.service.js';
import { replaceWebhook } from '../../../lib/webhooks/webhook.repo.js';
import { getProject } from '../../../lib/projects/project.repo.js';
import type { WebhookEvent } from '../../../lib/webhooks/webhook.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject } from '../../support/runtime.js';
import { eventually, type Received, startReceiver, startWebhookPipeline } from '../../support/webhook-harness.js';

// Retries after 1 s, given up once 4 s have passed since the event: about four attempts.
const SCHEDULE = { firstDelaySeconds: 1, maxDelaySeconds: 1, giveUpAfterSeconds: 4 };

let pipeline: Awaited<ReturnType<typeof startWebhookPipeline>>;
beforeAll(async () => {
  pipeline = await startWebhookPipeline(SCHEDULE);
});
afterAll(async () => {
  await pipeline.stop();
});

async function projectWithWebhook(target: string, events: WebhookEvent[]) {
  const keys = await newProject(pipeline.runtime);
  const webhook = await createWebhook(pipeline.runtime, { policy: LOCAL_TARGET_POLICY, resolve: async () => ['127.0.0.1'] }, keys.project_id, {
    target_url: target,
    events,
  });
  const project = await getProject(pipeline.runtime, keys.project_id);
  return { keys, webhook, secret: project?.webhookToken ?? '', api: apiClient({ runtime: pipeline.runtime }, keyPairHeaders(keys)) };
}

const bodyOf = (r: Received) => JSON.parse(r.body) as Record<string, unknown>;

describe('Webhook delivery (the outbox on the table stream, the delivery worker on the webhooks queue)', () => {
  it('POSTs customer.created signed with the project webhook token, in the reference event shape', async () => {
    const receiver = await startReceiver();
    try {
      const { api, webhook, secret, keys } = await projectWithWebhook(receiver.url, ['customer.created']);
      expect((await api.call('create-customer', { json: { source_id: 'ann', name: 'Ann' } })).status).toBe(200);
      const [got] = await eventually(() => receiver.received.length > 0 && receiver.received, 15_000, 'the webhook');
      if (!got) throw new Error('nothing received');
      expect(verifySignature(got.body, secret, String(got.headers['x-voucherify-signature']))).toBe(true);
      expect(verifySignature(got.body, 'another secret', String(got.headers['x-voucherify-signature']))).toBe(false);
      const event = bodyOf(got);
      expect(event).toMatchObject({
        object: 'event',
        type: 'customer.created',
        webhook_id: webhook.id,
        project_id: keys.project_id,
        metadata: { source: 'API' },
      });
      expect(event.id).toBe(got.headers['x-voucherify-event-id']);
      expect((event.data as { object: Record<string, unknown> }).object).toMatchObject({ source_id: 'ann', name: 'Ann', object: 'customer' });
    } finally {
      await receiver.close();
    }
  });

  it('redelivers after a 500 with the same event id', async () => {
    const receiver = await startReceiver();
    receiver.answer.status = 500;
    try {
      const { api } = await projectWithWebhook(receiver.url, ['customer.created']);
      expect((await api.call('create-customer', { json: { source_id: 'bob' } })).status).toBe(200);
      await eventually(() => receiver.received.length >= 1, 15_000, 'the first attempt');
      receiver.answer.status = 200;
      await eventually(() => receiver.received.length >= 2, 15_000, 'the retry');
      const ids = receiver.received.map((r) => bodyOf(r).id);
      expect(new Set(ids).size).toBe(1);
      expect(receiver.received.map((r) => r.headers['x-voucherify-event-id'])).toEqual(ids);
    } finally {
      await receiver.close();
    }
  });

  it('dead-letters a delivery whose target keeps failing, after the bound', async () => {
    const receiver = await startReceiver();
    receiver.answer.status = 503;
    try {
      const { api, webhook } = await projectWithWebhook(receiver.url, ['customer.created']);
      expect((await api.call('create-customer', { json: { source_id: 'cyd' } })).status).toBe(200);
      const letters = await eventually(
        async () => {
          const mine = (await pipeline.deadLetters()).filter((m) => String(m.Body).includes(webhook.id));
          return mine.length > 0 && mine;
        },
        20_000,
        'the dead letter',
      );
      expect(letters.length).toBeGreaterThan(0);
      const attempts = receiver.received.length;
      // Four seconds of one-second retries: a few attempts, then no more.
      expect(attempts).toBeGreaterThanOrEqual(2);
      expect(letters[0]?.MessageAttributes?.reason?.StringValue).toMatch(/gave up after \d+ attempts; last: answered 503/);
      await new Promise((r) => setTimeout(r, 2000));
      expect(receiver.received.length).toBe(attempts);
    } finally {
      await receiver.close();
    }
  });

  it('refuses at delivery a target the guard no longer allows (the stored URL changed under it), and never connects', async () => {
    const receiver = await startReceiver();
    try {
      const { api, webhook } = await projectWithWebhook(receiver.url, ['customer.created']);
      // As if DNS now pointed the name at the metadata service: the stored URL bypasses the creation check.
      await replaceWebhook(pipeline.runtime, { ...webhook, targetUrl: 'http://169.254.169.254/latest/meta-data' });
      expect((await api.call('create-customer', { json: { source_id: 'dan' } })).status).toBe(200);
      const letters = await eventually(
        async () => {
          const mine = (await pipeline.deadLetters()).filter((m) => String(m.Body).includes(webhook.id));
          return mine.length > 0 && mine;
        },
        20_000,
        'the refused delivery dead-lettered',
      );
      expect(letters[0]?.MessageAttributes?.reason?.StringValue).toMatch(/refused: .*169\.254\.169\.254/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('100 parallel redemptions of one code send exactly 100 redemption.succeeded events with distinct ids', async () => {
    const receiver = await startReceiver();
    try {
      const { api, keys } = await projectWithWebhook(receiver.url, ['redemption.succeeded']);
      const made = await api.call('create-voucher', {
        params: { code: 'HOOKS100' },
        json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 1 } },
      });
      expect(made.status, JSON.stringify(made.json)).toBe(200);
      // Each request keeps its Idempotency-Key through its retries: a 503 (DynamoDB Local overwhelmed) may have committed.
      const redeem = async (n: number) => {
        for (let attempt = 0; ; attempt++) {
          const reply = await api.call('redeem-voucher', {
            params: { code: 'HOOKS100' },
            json: { order: { amount: 1000 } },
            headers: { ...keyPairHeaders(keys), 'idempotency-key': `hooks-100-${n}` },
          });
          if (reply.status === 200 || attempt >= 20 || ![409, 429, 503].includes(reply.status)) return reply;
          await new Promise((r) => setTimeout(r, 200 + Math.random() * 300));
        }
      };
      const replies = await Promise.all(Array.from({ length: 100 }, (_, n) => redeem(n)));
      expect(
        replies
          .filter((r) => r.status !== 200)
          .map((r) => JSON.stringify(r.json))
          .slice(0, 3),
      ).toEqual([]);
      const redemptionIds = new Set(replies.map((r) => r.json.id as string));
      await eventually(() => receiver.received.length >= 100, 60_000, '100 webhooks');
      await new Promise((r) => setTimeout(r, 1000));
      const events = receiver.received.map(bodyOf);
      expect(events).toHaveLength(100);
      expect(new Set(events.map((e) => e.id)).size).toBe(100);
      expect(events.every((e) => e.type === 'redemption.succeeded')).toBe(true);
      expect(new Set(events.map((e) => (e.data as { object: { id: string } }).object.id))).toEqual(redemptionIds);
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
