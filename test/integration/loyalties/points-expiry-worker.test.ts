import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ScheduledEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../../infra/local/api-gateway-event.js';
import { ensureTable } from '../../../infra/local/engines.js';
import { startSchedule } from '../../../infra/local/scheduler.js';
import { makeHandler } from '../../../functions/workers/points-expiry-worker.js';
import { pointsExpiryWorker } from '../../../lib/api/workers.js';
import { ManualClock } from '../../../lib/clock.js';
import { createDocumentClient } from '../../../lib/db/client.js';
import { randomIds } from '../../../lib/ids.js';
import type { ExpirySweepReport } from '../../../lib/loyalties/points-expiry.js';
import { type Logger, silentLogger } from '../../../lib/logger.js';
import { createRuntime, type Runtime } from '../../../lib/runtime.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { engines, newProject } from '../../support/runtime.js';

const DAY = 86_400_000;
const at = Date.UTC(2026, 1, 10, 12, 0, 0);

// The worker sweeps every project of its table: it gets a table of its own, so no other test's points expire under it.
const tableName = `points-expiry-${randomIds.id('t')}`;
const clock = new ManualClock(at);
const lines: Record<string, unknown>[] = [];
const capturing: Logger = {
  ...silentLogger,
  info: (message, fields) => lines.push({ message, ...fields }),
};
let runtime: Runtime;
let raw: DynamoDBClient;

beforeAll(async () => {
  const e = engines();
  raw = new DynamoDBClient({ region: e.region, endpoint: e.dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(raw, tableName);
  runtime = createRuntime(
    { tableName, region: e.region, dynamoDbEndpoint: e.dynamoEndpoint, cluster: 'api', logLevel: 'error' },
    { ddb: createDocumentClient({ region: e.region, endpoint: e.dynamoEndpoint }), clock, ids: randomIds, logger: capturing },
  );
}, 60_000);

afterAll(() => raw?.destroy());

async function cardWithDuePoints(code: string) {
  const pair = await newProject(runtime);
  const campaigns = campaignApi(runtime, pair);
  await newCampaign(campaigns, { name: 'Club', campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } } });
  await campaigns.addVoucher('Club', { code });
  const tomorrow = new Date(clock.now().getTime() + DAY).toISOString().slice(0, 10);
  expect((await loyaltyApi(runtime, pair).updateBalance('Club', code, { points: 9, expiration_date: tomorrow })).status).toBe(200);
  return { cardOf: async () => (await campaigns.getVoucher(code)).json.loyalty_card as Record<string, unknown> };
}

const event = { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} } as ScheduledEvent;

describe('the points expiry worker function', () => {
  it('sweeps the whole table when its schedule invokes it and logs its progress with the invocation id', async () => {
    const { cardOf } = await cardWithDuePoints('W-1');
    clock.advance(3 * DAY);
    const context = lambdaContext(pointsExpiryWorker.name, pointsExpiryWorker.timeoutSeconds * 1000);
    const report = (await makeHandler({ runtime })(event, context)) as ExpirySweepReport;
    expect(report).toMatchObject({ writtenOff: 1, points: 9 });
    expect(await cardOf()).toMatchObject({ balance: 0, expired_points: 9 });
    expect(lines.find((l) => l.message === 'points expiry done')).toMatchObject({ written_off: 1, lambda_request_id: context.awsRequestId });
    expect(lines.some((l) => l.message === 'points expiry progress')).toBe(true);
    expect(((await makeHandler({ runtime })(event, context)) as ExpirySweepReport).writtenOff).toBe(0);
  });

  it('runs on an interval in the local runtime, one run at a time, and stops when asked', async () => {
    const { cardOf } = await cardWithDuePoints('W-2');
    clock.advance(3 * DAY);
    const stop = new AbortController();
    let runs = 0;
    const handler = makeHandler({ runtime, stop: stop.signal });
    const schedule = startSchedule({
      worker: pointsExpiryWorker,
      handler: async (e, c) => {
        runs += 1;
        return handler(e, c);
      },
      logger: silentLogger,
      stop,
      everyMs: 100,
    });
    for (let i = 0; i < 100 && (await cardOf()).expired_points !== 9; i += 1) await sleep(100);
    expect(await cardOf()).toMatchObject({ balance: 0, expired_points: 9 });
    while (runs < 3) await sleep(50);
    await schedule.stop();
    const after = runs;
    await sleep(300);
    expect(runs).toBe(after);
    expect(stop.signal.aborted).toBe(true);
  });
});
