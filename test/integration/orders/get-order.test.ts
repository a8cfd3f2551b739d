import { describe, expect, it } from 'vitest';
import { setup } from './orders-setup.js';

describe('GET /v1/orders/{orderId}', () => {
  it('returns an order by its id or its source_id', async () => {
    const { create, get } = await setup();
    const made = await create({ source_id: 'web-42', amount: 900 });
    const byId = await get(made.json.id);
    expect(byId.status).toBe(200);
    expect(byId.json).toEqual(made.json);
    expect((await get('web-42')).json).toEqual(made.json);
  });

  it('answers 404 not_found for an id or source id no order of the project has', async () => {
    const { get, create } = await setup();
    await create({ source_id: 'exists' });
    const missing = await get('ord_missing');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ key: 'not_found', resource_type: 'order', resource_id: 'ord_missing' });
    expect((await get('EXISTS')).status).toBe(404);
  });
});
