import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeHandler as makeGetReward } from '../../../functions/rewards/get-reward.js';
import { getRewardRoute } from '../../../lib/api/routes.js';
import { lambdaContext, toApiGatewayEvent } from '../../../infra/local/api-gateway-event.js';
import { ManualClock } from '../../../lib/clock.js';
import { createDocumentClient, type DynamoOptions } from '../../../lib/db/client.js';
import { keys } from '../../../lib/db/keys.js';
import type { Runtime } from '../../../lib/runtime.js';
import { callRoute, campaignApi, campaignBodies } from '../../support/api.js';
import { closedPort, startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 5, 1, 9, 0, 0);

/** Figures of this file's runs, printed at the end for docs/reliability.md. */
const figures: Record<string, number | string> = {};
const proxies: FaultProxy[] = [];

afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});
afterAll(() => {
  console.info(`fault figures ${JSON.stringify(figures)}`);
});

/** The same project and table, with the API's DynamoDB client pointed elsewhere. */
function runtimeVia(base: Runtime, endpoint: string, options: Partial<DynamoOptions> = {}): Runtime {
  return { ...base, ddb: createDocumentClient({ region: engines().region, endpoint, ...options }) };
}

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  return { runtime, pair, headers: keyPairHeaders(pair) };
}

async function proxy(rule: Parameters<typeof startFaultProxy>[1]): Promise<FaultProxy> {
  const started = await startFaultProxy(engines().dynamoEndpoint, rule);
  proxies.push(started);
  return started;
}

const expect503 = (reply: { status: number; headers: Record<string, string>; json: Record<string, unknown> }) => {
  expect(reply.status).toBe(503);
  expect(reply.json).toMatchObject({ code: 503, key: 'service_unavailable', message: 'Service unavailable', request_id: expect.stringMatching(/^v-/) });
  expect(Number(reply.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
};

describe('DynamoDB faults', () => {
  it('answers 503 with the error object and Retry-After within 2 s when DynamoDB is unreachable', async () => {
    const { runtime, headers } = await setup();
    const down = runtimeVia(runtime, `http://127.0.0.1:${await closedPort()}`);
    const started = Date.now();
    const reply = await callRoute(makeGetReward({ runtime: down }), getRewardRoute, { path: '/v1/rewards/rew_x', headers });
    const ms = Date.now() - started;
    figures.unreachableMs = ms;
    expect503(reply);
    expect(reply.json.details).toContain('did not answer');
    expect(ms).toBeLessThan(2_000);
  });

  it('answers 503 when every attempt is throttled, and the same request succeeds once throttling stops', async () => {
    const { runtime, pair, headers } = await setup();
    const faults = await proxy(() => 'throttle');
    const api = campaignApi(runtimeVia(runtime, faults.url), pair);
    const started = Date.now();
    const throttled = await api.createCampaign(campaignBodies.DISCOUNT_COUPONS('Spring'), headers);
    figures.throttledReplyMs = Date.now() - started;
    expect503(throttled);
    expect(throttled.json.details).toContain('throttling');
    // The SDK retried with backoff before giving up: 3 attempts of the first call (authentication).
    expect(faults.counts.throttle).toBe(3);

    faults.setRule(() => 'pass');
    const retried = await api.createCampaign(campaignBodies.DISCOUNT_COUPONS('Spring'), headers);
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({ name: 'Spring' });
  });

  it('absorbs a short burst of throttling within the SDK retries: the caller sees a success', async () => {
    const { runtime, pair, headers } = await setup();
    let left = 2;
    const faults = await proxy(() => (left-- > 0 ? 'provisioned' : 'pass'));
    const reply = await campaignApi(runtimeVia(runtime, faults.url), pair).createCampaign(campaignBodies.DISCOUNT_COUPONS('Burst'), headers);
    expect(reply.status).toBe(200);
    expect(faults.counts.provisioned).toBe(2);
  });

  it.each(['throttle', 'request-limit', 'transaction-throttled', 'server-error'] as const)(
    'leaves the table unchanged when the create-campaign transaction fails with %s, and a retry then creates it once',
    async (fault) => {
      const { runtime, pair, headers } = await setup();
      const faults = await proxy((operation) => (operation === 'TransactWriteItems' ? fault : 'pass'));
      const api = campaignApi(runtimeVia(runtime, faults.url), pair);
      const reply = await api.createCampaign(campaignBodies.DISCOUNT_COUPONS('Summer'), headers);
      expect503(reply);
      expect(faults.counts[fault]).toBeGreaterThanOrEqual(1);
      figures[`transactionFault:${fault}`] = faults.counts[fault];

      const nameItem = await runtime.ddb.send(
        new GetCommand({ TableName: runtime.tableName, Key: keys.campaignName(pair.project_id, 'Summer'), ConsistentRead: true }),
      );
      expect(nameItem.Item).toBeUndefined();
      const direct = campaignApi(runtime, pair);
      expect((await direct.getCampaign('Summer')).status).toBe(404);
      expect((await direct.listCampaigns()).json).toMatchObject({ total: 0 });

      faults.setRule(() => 'pass');
      expect((await api.createCampaign(campaignBodies.DISCOUNT_COUPONS('Summer'), headers)).status).toBe(200);
      expect((await direct.listCampaigns()).json).toMatchObject({ total: 1 });
    },
  );

  it('answers 503 within the client timeouts when DynamoDB accepts the connection and never replies', async () => {
    const { runtime, headers } = await setup();
    const faults = await proxy(() => 'hang');
    const hanging = runtimeVia(runtime, faults.url, { requestTimeoutMs: 300, maxAttempts: 2 });
    const started = Date.now();
    const reply = await callRoute(makeGetReward({ runtime: hanging }), getRewardRoute, { path: '/v1/rewards/rew_x', headers });
    figures.hangingReplyMs = Date.now() - started;
    expect503(reply);
    expect(faults.counts.hang).toBe(2);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('answers 503 when a connection is dropped on every attempt', async () => {
    const { runtime, headers } = await setup();
    const faults = await proxy(() => 'reset');
    const reply = await callRoute(makeGetReward({ runtime: runtimeVia(runtime, faults.url) }), getRewardRoute, { path: '/v1/rewards/rew_x', headers });
    expect503(reply);
    expect(faults.counts.reset).toBe(3);
  });

  it('writes the 503 error object before the function would time out, whatever is still pending', async () => {
    const { runtime, headers } = await setup();
    const faults = await proxy(() => 'hang');
    // Client timeouts longer than the function's: only the deadline guard can answer in time.
    const slow = runtimeVia(runtime, faults.url, { requestTimeoutMs: 60_000, maxAttempts: 1 });
    const event = toApiGatewayEvent({ method: 'GET', rawPath: '/v1/rewards/rew_x', rawQueryString: '', headers, pathParameters: { rewardId: 'rew_x' } });
    const started = Date.now();
    const result = await makeGetReward({ runtime: slow })(event, lambdaContext('get-reward', 1_500));
    const ms = Date.now() - started;
    figures.deadlineReplyMs = ms;
    expect(result.statusCode).toBe(503);
    expect(JSON.parse(result.body ?? '{}')).toMatchObject({ code: 503, key: 'service_unavailable' });
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(1_500);
  });
});
