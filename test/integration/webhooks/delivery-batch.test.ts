import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { makeHandler } from '../../../functions/workers/webhook-delivery-worker.js';
import type { DeliveryMessage } from '../../../lib/events-out/out-event.js';
import { LOCAL_TARGET_POLICY } from '../../../lib/webhooks/target-policy.js';
import { createWebhook } from '../../../lib/webhooks/webhook.service.js';
import { watchCalls } from '../../support/read-rounds.js';
import { newProject, testRuntime } from '../../support/runtime.js';
import { startReceiver } from '../../support/webhook-harness.js';

const targets = { policy: LOCAL_TARGET_POLICY, resolve: async () => ['127.0.0.1'] };

describe('the delivery worker reads each webhook and project once per batch (bench item 22)', () => {
  it('delivers a batch of 10 events of two webhooks with one GetItem per webhook and one for the project', async () => {
    const runtime = testRuntime();
    const receiver = await startReceiver();
    try {
      const { project_id: projectId } = await newProject(runtime);
      const first = await createWebhook(runtime, targets, projectId, { target_url: receiver.url, events: ['customer.created'] });
      const second = await createWebhook(runtime, targets, projectId, { target_url: receiver.url, events: ['customer.created'] });
      const messages: DeliveryMessage[] = Array.from({ length: 10 }, (_, i) => ({
        v: 1,
        event: { id: `evt_batch${i}`, type: 'customer.created', projectId, createdAt: new Date().toISOString(), data: { object: { id: `cust_${i}` } } },
        webhookId: i % 2 === 0 ? first.id : second.id,
        attempts: 0,
      }));
      const gets: string[] = [];
      watchCalls(runtime, (call) => {
        if (call.name === 'Get') gets.push(JSON.stringify((call.input as { Key: unknown }).Key));
      });
      const handler = makeHandler({ runtime, delivery: { queue: { send: async () => {}, deadLetter: async () => {} }, ...targets } });
      const records = messages.map((m, i) => ({ messageId: `m${i}`, body: JSON.stringify(m) }) as SQSRecord);
      const result = await handler({ Records: records } as SQSEvent, { awsRequestId: 'batch' } as never);
      expect(result?.batchItemFailures).toEqual([]);
      expect(receiver.received.map((r) => r.headers['x-voucherify-event-id']).sort()).toEqual(messages.map((m) => m.event.id).sort());
      expect(gets).toHaveLength(3);
      expect(new Set(gets).size).toBe(3);
    } finally {
      await receiver.close();
    }
  });
});
