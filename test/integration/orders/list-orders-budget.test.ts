import { describe, expect, it } from 'vitest';
import { REPLY_BUDGET_BYTES, escapedBytes } from '../../../lib/http/reply-budget.js';
import { type OrderListJson, setup } from './orders-setup.js';

/** An order as large as an order may be stored (~290 KB of its 300,000 bytes): 235 lines with long ids and notes. */
const largeOrder = (n: number) => ({
  source_id: `big-${n}`,
  items: Array.from({ length: 235 }, (_, i) => ({
    product_id: `p-${i}-${'p'.repeat(600)}`,
    quantity: 1,
    price: 100,
    metadata: { note: 'n'.repeat(450) },
  })),
});

describe('GET /v1/orders of large orders (issue 41: replies too large for Lambda)', () => {
  it('refuses a page over the reply budget with 400 naming a limit that fits, and serves that limit within the budget', async () => {
    const { api, create, clock } = await setup();
    for (let i = 0; i < 20; i += 1) {
      clock.advance(1_000);
      const created = await create(largeOrder(i));
      expect(created.status, JSON.stringify(created.json).slice(0, 300)).toBe(200);
    }
    const tooMany = await api.call('list-orders', { query: 'limit=20' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toMatchObject({ code: 400, key: 'invalid_query_params' });
    const details = String(tooMany.json.details);
    expect(details).toMatch(/^This page of 20 items would take \d+ bytes, over the 5242880 a reply may hold: ask for limit=\d+ or fewer$/);
    const limit = Number(/limit=(\d+)/.exec(details)?.[1]);
    expect(limit).toBeGreaterThanOrEqual(10);
    expect(limit).toBeLessThan(20);

    const fits = await api.call('list-orders', { query: `limit=${limit}` });
    expect(fits.status).toBe(200);
    const page = fits.json as OrderListJson;
    expect(page.orders).toHaveLength(limit);
    expect(page.has_more).toBe(true);
    expect(escapedBytes(fits.text ?? '')).toBeLessThanOrEqual(REPLY_BUDGET_BYTES);
    // Paging by page still reaches every order: nothing is cut from a page.
    const second = await api.call('list-orders', { query: `limit=${limit}&page=2` });
    expect((second.json as OrderListJson).orders).toHaveLength(20 - limit);
  }, 120_000);
});
