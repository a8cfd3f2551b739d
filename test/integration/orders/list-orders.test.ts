import type { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../lib/runtime.js';
import { type OrderListJson, setup } from './orders-setup.js';

async function withOrders(n: number) {
  const s = await setup();
  for (let i = 0; i < n; i += 1) {
    s.clock.advance(1_000);
    await s.create({ source_id: `o${i}`, amount: i });
  }
  const list = async (query = '') => {
    const reply = await s.api.call('list-orders', { query });
    expect(reply.status).toBe(200);
    return reply.json as OrderListJson;
  };
  return { ...s, list };
}

describe('GET /v1/orders', () => {
  it('lists orders newest first, 10 by default, with total and has_more', async () => {
    const { list } = await withOrders(12);
    const first = await list();
    expect(first).toMatchObject({ object: 'list', data_ref: 'orders', total: 12, has_more: true });
    expect(first.orders.map((o) => o.source_id)).toEqual(['o11', 'o10', 'o9', 'o8', 'o7', 'o6', 'o5', 'o4', 'o3', 'o2']);
    const second = await list('page=2');
    expect(second.orders.map((o) => o.source_id)).toEqual(['o1', 'o0']);
    expect(second.has_more).toBe(false);
  });

  it('pages with limit and page, by created_at either way, and by updated_at', async () => {
    const { list, update, clock } = await withOrders(5);
    expect((await list('limit=2&page=2&order=created_at')).orders.map((o) => o.source_id)).toEqual(['o2', 'o3']);
    expect((await list('limit=2&page=1&order=-created_at')).orders.map((o) => o.source_id)).toEqual(['o4', 'o3']);
    clock.advance(10_000);
    await update('o1', { status: 'PAID' });
    expect((await list('limit=3&order=-updated_at')).orders.map((o) => o.source_id)).toEqual(['o1', 'o4', 'o3']);
    expect((await list('limit=2&order=updated_at')).orders.map((o) => o.source_id)).toEqual(['o0', 'o2']);
    // A change does not move an order in the creation order.
    expect((await list('order=created_at')).orders.map((o) => o.source_id)).toEqual(['o0', 'o1', 'o2', 'o3', 'o4']);
  });

  it('refuses limits and pages out of range and unknown orders with 400 invalid_query_params', async () => {
    const { api } = await setup();
    for (const query of ['limit=0', 'limit=101', 'page=0', 'page=100', 'order=amount', 'limit=1.5']) {
      const reply = await api.call('list-orders', { query });
      expect({ query, status: reply.status, key: reply.json.key }).toEqual({ query, status: 400, key: 'invalid_query_params' });
    }
  });

  it('reads only the entries the page needs: page 3 of 2 reads 7 entries of 20, never another project', async () => {
    const { runtime, pair, list } = await withOrders(20);
    const other = await setup();
    await other.create({ source_id: 'elsewhere' });
    const reads = countingReads(runtime);
    const page = await list('limit=2&page=3');
    expect(page.orders.map((o) => o.source_id)).toEqual(['o15', 'o14']);
    expect(page.total).toBe(20);
    expect(reads.items('#ORDERS')).toBe(7);
    expect(reads.queries.every((q) => q.startsWith(`P#${pair.project_id}#`))).toBe(true);
  });
});

/** Counts the items the runtime's Queries return, by partition (test-only instrumentation). */
function countingReads(runtime: Runtime) {
  const returned = new Map<string, number>();
  const queries: string[] = [];
  runtime.ddb.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const input = args.input as QueryCommand['input'];
      if (input.KeyConditionExpression !== undefined) {
        const pk = String(input.ExpressionAttributeValues?.[':pk']);
        queries.push(pk);
        const items = ((result.output as { Items?: unknown[] }).Items ?? []).length;
        returned.set(pk, (returned.get(pk) ?? 0) + items);
      }
      return result;
    },
    { step: 'initialize', name: 'countQueryItems' },
  );
  return { queries, items: (suffix: string) => [...returned].filter(([pk]) => pk.endsWith(suffix)).reduce((sum, [, n]) => sum + n, 0) };
}
