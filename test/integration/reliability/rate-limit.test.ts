import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { keys } from '../../../lib/db/keys.js';
import type { Runtime } from '../../../lib/runtime.js';
import { startFaultProxy } from '../../support/fault-proxy.js';
import { createDocumentClient } from '../../../lib/db/client.js';
import { rewardApi, rewardBodies } from '../../support/rewards-api.js';
import { engines, newProject, testRuntime } from '../../support/runtime.js';

// 10 s into a minute: windows of 60 s start on the minute.
const at = Date.UTC(2026, 9, 1, 12, 0, 10);
const windowStart = Math.floor(at / 1000) - 10;

async function setup(limit = 5) {
  const clock = new ManualClock(at);
  const runtime: Runtime = { ...testRuntime({ clock }), rateLimit: { limit, windowSeconds: 60 } };
  const pair = await newProject(runtime);
  return { clock, runtime, pair, api: rewardApi(runtime, pair) };
}

describe('per-project rate limits', () => {
  it('serves 5 requests with the X-Rate-Limit headers counting down, and refuses the 6th with 429, Retry-After and the error object', async () => {
    const { api } = await setup(5);
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      // Error replies after authentication count and carry the headers too.
      const reply = i === 2 ? await api.getReward('rew_missing') : await api.createReward(rewardBodies.MATERIAL(`R${i}`));
      expect(reply.status).toBe(i === 2 ? 404 : 200);
      expect(reply.headers['X-Rate-Limit-Limit']).toBe('5');
      expect(reply.headers['X-Rate-Limit-Reset']).toBe(String(windowStart + 60));
      remaining.push(reply.headers['X-Rate-Limit-Remaining'] ?? '');
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);

    const refused = await api.getReward('rew_missing');
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: 429, key: 'too_many_requests', message: 'Too many requests', request_id: expect.stringMatching(/^v-/) });
    expect(refused.headers).toMatchObject({
      'Retry-After': '50',
      'X-Rate-Limit-Limit': '5',
      'X-Rate-Limit-Remaining': '0',
      'X-Rate-Limit-Reset': String(windowStart + 60),
      'X-Rate-Limit-Retry': String(windowStart + 60),
    });
  });

  it('does not carry out a write that is over the limit', async () => {
    const { runtime, pair, api } = await setup(1);
    expect((await api.createReward(rewardBodies.MATERIAL('first'))).status).toBe(200);
    const refused = await api.createReward(rewardBodies.MATERIAL('second'), {
      'x-app-id': pair.app_id,
      'x-app-token': pair.app_token,
      'idempotency-key': 'over',
    });
    expect(refused.status).toBe(429);
    // Not even its idempotency key was claimed: the request stopped before any write of its own.
    const record = await runtime.ddb.send(
      new GetCommand({ TableName: runtime.tableName, Key: keys.idempotencyRecord(pair.project_id, 'over'), ConsistentRead: true }),
    );
    expect(record.Item).toBeUndefined();
  });

  it('allows requests again in the next window', async () => {
    const { clock, api } = await setup(2);
    await api.getReward('rew_x');
    await api.getReward('rew_x');
    expect((await api.getReward('rew_x')).status).toBe(429);
    clock.advance(50_000);
    const next = await api.getReward('rew_x');
    expect(next.status).toBe(404);
    expect(next.headers).toMatchObject({ 'X-Rate-Limit-Remaining': '1', 'X-Rate-Limit-Reset': String(windowStart + 120) });
  });

  it('gives each project its own budget', async () => {
    const { runtime, api } = await setup(2);
    const other = rewardApi(runtime, await newProject(runtime));
    await api.getReward('rew_x');
    await api.getReward('rew_x');
    expect((await api.getReward('rew_x')).status).toBe(429);
    const theirs = await other.getReward('rew_x');
    expect(theirs.status).toBe(404);
    expect(theirs.headers['X-Rate-Limit-Remaining']).toBe('1');
  });

  it('counts requests of one project across containers (runtimes) in one shared counter, concurrent ones included', async () => {
    const { runtime, pair } = await setup(10);
    const containers = [runtime, { ...runtime }, { ...runtime }].map((r) => rewardApi(r, pair));
    const replies = await Promise.all(Array.from({ length: 15 }, (_, i) => containers[i % 3]!.getReward('rew_x')));
    expect(replies.filter((r) => r.status === 404)).toHaveLength(10);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(5);
  });

  it('adds no headers and no counter with the limit set to 0, nor to a request that fails authentication', async () => {
    const off = await setup(0);
    const reply = await off.api.getReward('rew_x');
    expect(reply.status).toBe(404);
    expect(reply.headers['X-Rate-Limit-Limit']).toBeUndefined();
    const on = await setup(5);
    const anonymous = await on.api.getReward('rew_x', { 'x-app-id': on.pair.app_id, 'x-app-token': 'wrong' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['X-Rate-Limit-Limit']).toBeUndefined();
  });

  it('lets requests through unmetered when the counter cannot be written', async () => {
    const { runtime, pair } = await setup(1);
    const proxy = await startFaultProxy(engines().dynamoEndpoint, (operation) => (operation === 'UpdateItem' ? 'throttle' : 'pass'));
    try {
      const ddb = createDocumentClient({ region: engines().region, endpoint: proxy.url, maxAttempts: 1 });
      const api = rewardApi({ ...runtime, ddb }, pair);
      for (let i = 0; i < 3; i++) {
        const reply = await api.getReward('rew_x');
        expect(reply.status).toBe(404);
        expect(reply.headers['X-Rate-Limit-Limit']).toBeUndefined();
      }
      expect(proxy.counts.throttle).toBe(3);
    } finally {
      await proxy.close();
    }
  });
});
