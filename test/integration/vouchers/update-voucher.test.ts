import { describe, expect, it } from 'vitest';
import { campaignBodies } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject } from '../../support/runtime.js';
import { publicationSetup } from '../publications/support.js';

const STATIC = { type: 'STATIC' };

async function setup() {
  const ctx = await publicationSetup();
  const update = (code: string, json: unknown) => ctx.api.call('update-voucher', { params: { code }, json });
  const get = async (code: string) => (await ctx.api.call('get-voucher', { params: { code } })).json;
  return { ...ctx, update, get };
}

describe('PUT /v1/vouchers/{code}', () => {
  it('changes what the request names, keeps the rest and the counters, and GET shows the same voucher', async () => {
    const { update, get, campaignWith, publish, clock } = await setup();
    await campaignWith('Edit', ['EDIT-1'], STATIC);
    await campaignWith('Other', ['OTHER-1'], STATIC);
    expect((await publish({ voucher: 'EDIT-1', customer: { source_id: 'ann' } })).status).toBe(200);
    await update('EDIT-1', { metadata: { a: 1, b: 2 }, additional_info: 'first' });
    const before = await get('EDIT-1');
    clock.advance(1000);
    const changed = await update('EDIT-1', {
      metadata: { c: 3 },
      start_date: '2026-07-01T00:00:00.000Z',
      expiration_date: '2026-12-31T23:59:59.000Z',
      validity_day_of_week: [1, 2],
      validity_hours: { daily: [{ start_time: '09:00', expiration_time: '17:00', days_of_week: [1, 2] }] },
      category: 'Seasonal',
      discount: { type: 'AMOUNT', amount_off: 700 },
    });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({
      code: 'EDIT-1',
      metadata: { c: 3 },
      additional_info: 'first',
      start_date: '2026-07-01T00:00:00.000Z',
      expiration_date: '2026-12-31T23:59:59.000Z',
      validity_day_of_week: [1, 2],
      validity_hours: { daily: [{ start_time: '09:00', expiration_time: '17:00', days_of_week: [1, 2] }] },
      category: 'Seasonal',
      discount: { type: 'AMOUNT', amount_off: 700 },
      holder_id: before.holder_id,
      publish: { count: 1 },
      redemption: before.redemption,
      active: true,
    });
    expect(changed.json.category_id).toMatch(/^cat_/);
    expect(changed.json.updated_at).not.toBe(before.updated_at);
    expect(await get('EDIT-1')).toEqual(changed.json);
    // Clearing with null.
    expect((await update('EDIT-1', { additional_info: null, expiration_date: null })).json).toMatchObject({ additional_info: null, expiration_date: null });
  });

  it('takes a voucher set inactive out of the pool publications pick from, and puts it back when set active', async () => {
    const { update, publish, campaignWith } = await setup();
    await campaignWith('Pool', ['POOL-1'], STATIC);
    expect((await update('POOL-1', { active: false })).json).toMatchObject({ active: false });
    expect((await publish({ campaign: { name: 'Pool' }, customer: { source_id: 'ann' } })).json).toMatchObject({ key: 'no_voucher_suitable_for_publication' });
    expect((await update('POOL-1', { active: true, metadata: { back: true } })).json).toMatchObject({ active: true });
    expect((await publish({ campaign: { name: 'Pool' }, customer: { source_id: 'ann' } })).json).toMatchObject({ voucher: { code: 'POOL-1' } });
  });

  it("sets a gift card's amount, moving its balance by the same difference", async () => {
    const { api, update, campaignWith } = await setup();
    await campaignWith('Gifts', ['GIFT-1'], campaignBodies.GIFT_VOUCHERS('Gifts'));
    expect((await api.call('update-voucher-balance', { params: { code: 'GIFT-1' }, json: { amount: -1000 } })).json).toMatchObject({ balance: 4000 });
    const changed = await update('GIFT-1', { gift: { amount: 6000 } });
    expect(changed.status).toBe(200);
    expect(changed.json.gift).toMatchObject({ amount: 6000, balance: 6000, subtracted_amount: 0 });
    expect((await update('GIFT-1', { discount: { type: 'AMOUNT', amount_off: 1 } })).json).toMatchObject({ code: 400, key: 'invalid_voucher' });
  });

  it('refuses what does not fit the voucher and bad input with 4xx, changing nothing', async () => {
    const { runtime, update, get, campaignWith } = await setup();
    await campaignWith('Strict', ['STRICT-1'], STATIC);
    const before = await get('STRICT-1');
    expect((await update('STRICT-1', { gift: { amount: 100 } })).json).toMatchObject({ code: 400, key: 'invalid_voucher' });
    expect((await update('STRICT-1', { start_date: '2027-01-01T00:00:00Z', expiration_date: '2026-01-01T00:00:00Z' })).status).toBe(400);
    expect((await update('STRICT-1', { expiration_date: '2020-01-01T00:00:00Z', start_date: '2021-01-01T00:00:00Z' })).status).toBe(400);
    expect((await update('STRICT-1', { code: 'RENAMED' })).json).toMatchObject({ code: 400, key: 'invalid_payload' });
    expect((await update('STRICT-1', { category_id: 'cat_missing' })).json).toMatchObject({ code: 404, resource_type: 'category' });
    expect(await get('STRICT-1')).toEqual(before);
    expect((await update('NOPE', { active: false })).json).toMatchObject({ code: 404, key: 'not_found', resource_id: 'NOPE' });
    const other = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    expect((await other.call('update-voucher', { params: { code: 'STRICT-1' }, json: { active: false } })).status).toBe(404);
    expect(await get('STRICT-1')).toEqual(before);
  });
});
