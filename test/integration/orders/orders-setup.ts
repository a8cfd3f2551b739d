import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ManualClock } from '../../../lib/clock.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

export const at = Date.UTC(2026, 6, 2, 9, 0, 0);

/** A fresh project with a client and a clock the test moves. */
export async function setup() {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const api = apiClient({ runtime }, headers);
  const create = (json: unknown, extra: Record<string, string> = {}) => api.call('create-order', { json, headers: { ...headers, ...extra } });
  const get = (orderId: string) => api.call('get-order', { params: { orderId } });
  const update = (orderId: string, json: unknown, extra: Record<string, string> = {}) =>
    api.call('update-order', { params: { orderId }, json, headers: { ...headers, ...extra } });
  return { runtime, pair, api, clock, create, get, update, projectId: pair.project_id };
}

/** Order items of a project: a test-only scan, to count what the races wrote. */
export async function orderItems(runtime: Runtime, projectId: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await runtime.ddb.send(
      new ScanCommand({
        TableName: runtime.tableName,
        FilterExpression: 'begins_with(PK, :p) AND SK = :sk',
        ExpressionAttributeValues: { ':p': `P#${projectId}#ORDER#`, ':sk': 'ORDER' },
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    count += page.Items?.length ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}
