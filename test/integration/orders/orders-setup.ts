import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ManualClock } from '../../../lib/clock.js';
import type { orderListReplySchema, orderReplySchema } from '../../../lib/orders/order.reply.js';
import type { Runtime } from '../../../lib/runtime.js';
import type * as z from '../../../lib/zod.js';
import { apiClient } from '../../support/api-client.js';
import type { Reply } from '../../support/invoke.js';
import { fileTableName, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

export const at = Date.UTC(2026, 6, 2, 9, 0, 0);

/** A reply whose body is read as an order (an error reply's fields stay reachable as unknowns). */
export type OrderReply = Omit<Reply, 'json'> & { json: Record<string, unknown> & z.output<typeof orderReplySchema> };
export type OrderListJson = Record<string, unknown> & z.output<typeof orderListReplySchema>;
const asOrder = async (reply: Promise<Reply>) => (await reply) as OrderReply;

/** A fresh project with a client and a clock the test moves. */
export async function setup() {
  const clock = new ManualClock(at);
  // The file's own table: orderItems Scans it.
  const runtime = testRuntime({ clock, tableName: await fileTableName() });
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const api = apiClient({ runtime }, headers);
  const create = (json: unknown, extra: Record<string, string> = {}) => asOrder(api.call('create-order', { json, headers: { ...headers, ...extra } }));
  const get = (orderId: string) => asOrder(api.call('get-order', { params: { orderId } }));
  const update = (orderId: string, json: unknown, extra: Record<string, string> = {}) =>
    asOrder(api.call('update-order', { params: { orderId }, json, headers: { ...headers, ...extra } }));
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
