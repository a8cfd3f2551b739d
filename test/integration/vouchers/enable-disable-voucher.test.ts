import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject } from '../../support/runtime.js';
import { publicationSetup } from '../publications/support.js';

const STATIC = { type: 'STATIC' };

describe('POST /v1/vouchers/{code}/enable and /disable', () => {
  it('disables and enables a voucher by code or id; the reply and GET show the state', async () => {
    const { api, campaignWith, clock } = await publicationSetup();
    await campaignWith('Toggle', ['TG-1'], STATIC);
    const created = (await api.call('get-voucher', { params: { code: 'TG-1' } })).json;
    clock.advance(1000);
    const off = await api.call('disable-voucher', { params: { code: 'TG-1' } });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ code: 'TG-1', active: false, object: 'voucher' });
    expect(off.json.updated_at).not.toBe(created.updated_at);
    expect((await api.call('get-voucher', { params: { code: 'TG-1' } })).json).toEqual(off.json);
    const on = await api.call('enable-voucher', { params: { code: created.id as string } });
    expect(on.status).toBe(200);
    expect(on.json).toMatchObject({ code: 'TG-1', active: true });
    // Enabling an active voucher again is no error.
    expect((await api.call('enable-voucher', { params: { code: 'TG-1' } })).json).toMatchObject({ active: true });
  });

  it('takes a disabled voucher out of its campaign’s pool: publications skip it, and pick it again once enabled', async () => {
    const { api, publish, campaignWith } = await publicationSetup();
    await campaignWith('Pool', ['POOL-1'], STATIC);
    expect((await api.call('disable-voucher', { params: { code: 'POOL-1' } })).status).toBe(200);
    const none = await publish({ campaign: { name: 'Pool' }, customer: { source_id: 'ann' } });
    expect(none.json).toMatchObject({ code: 400, key: 'no_voucher_suitable_for_publication' });
    expect((await api.call('enable-voucher', { params: { code: 'POOL-1' } })).status).toBe(200);
    const one = await publish({ campaign: { name: 'Pool' }, customer: { source_id: 'ann' } });
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ voucher: { code: 'POOL-1', active: true } });
  });

  it('never returns a published voucher to the pool: disabling and enabling it keeps its holder and count', async () => {
    const { api, publish, campaignWith } = await publicationSetup();
    await campaignWith('Held', ['HELD-1'], STATIC);
    const first = await publish({ campaign: { name: 'Held' }, customer: { source_id: 'ann' } });
    expect(first.status).toBe(200);
    expect((await api.call('disable-voucher', { params: { code: 'HELD-1' } })).status).toBe(200);
    const on = await api.call('enable-voucher', { params: { code: 'HELD-1' } });
    expect(on.json).toMatchObject({ active: true, holder_id: first.json.customer_id, publish: { count: 1 } });
    const again = await publish({ campaign: { name: 'Held' }, customer: { source_id: 'ben' } });
    expect(again.json).toMatchObject({ key: 'no_voucher_suitable_for_publication' });
  });

  it('refuses to publish a disabled voucher by code', async () => {
    const { api, publish, campaignWith } = await publicationSetup();
    await campaignWith('Named', ['NAMED-1'], STATIC);
    expect((await api.call('disable-voucher', { params: { code: 'NAMED-1' } })).status).toBe(200);
    const refused = await publish({ voucher: 'NAMED-1', customer: { source_id: 'ann' } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect((await api.call('get-voucher', { params: { code: 'NAMED-1' } })).json).toMatchObject({ holder_id: null, publish: { count: 0 } });
  });

  it('of 10 concurrent disables and enables with 10 publications, never publishes a voucher that ends disabled-and-pooled or twice', async () => {
    const { api, publish, campaignWith } = await publicationSetup();
    const codes = Array.from({ length: 10 }, (_, i) => `RACE-${i}`);
    await campaignWith('Race', codes, STATIC);
    const replies = await Promise.all([
      ...codes.map((code) => api.call('disable-voucher', { params: { code } })),
      ...codes.map((_, i) => publish({ campaign: { name: 'Race' }, customer: { source_id: `c${i}` } })),
    ]);
    for (const r of replies.slice(0, 10)) expect(r.status).toBe(200);
    const won = replies.slice(10).filter((r) => r.status === 200);
    const given = won.map((r) => (r.json.voucher as { code: string }).code);
    expect(new Set(given).size).toBe(given.length);
    // Every voucher is disabled now; none is left in the pool, so one more publication finds nothing.
    expect((await publish({ campaign: { name: 'Race' }, customer: { source_id: 'late' } })).json).toMatchObject({ key: 'no_voucher_suitable_for_publication' });
    for (const code of codes) {
      const v = (await api.call('get-voucher', { params: { code } })).json;
      expect(v.active).toBe(false);
      expect(v.publish).toMatchObject({ count: given.includes(code) ? 1 : 0 });
    }
  });

  it("answers 404 not_found for an unknown code and another project's voucher", async () => {
    const { runtime, api, campaignWith } = await publicationSetup();
    await campaignWith('Mine', ['MINE-1'], STATIC);
    const missing = await api.call('disable-voucher', { params: { code: 'NOPE' } });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 404, key: 'not_found', resource_id: 'NOPE', resource_type: 'voucher' });
    const other = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    expect((await other.call('enable-voucher', { params: { code: 'MINE-1' } })).status).toBe(404);
    expect((await other.call('disable-voucher', { params: { code: 'MINE-1' } })).status).toBe(404);
    expect((await api.call('get-voucher', { params: { code: 'MINE-1' } })).json).toMatchObject({ active: true });
  });
});
