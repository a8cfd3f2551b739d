import { describe, expect, it } from 'vitest';
import { REPLAYED_HEADER } from '../../../lib/idempotency/idempotency.service.js';
import { publicationSetup } from './support.js';

describe('GET /v1/publications/create (the legacy form)', () => {
  it('publishes a voucher of the campaign named in campaign[name] to the customer in customer[…], with metadata[…]', async () => {
    const { api, campaignWith, campaigns } = await publicationSetup();
    await campaignWith('Legacy', ['LEG-1'], { type: 'STATIC' });
    const reply = await api.call('create-publication-1', {
      query: 'campaign[name]=Legacy&customer[source_id]=ann&customer[name]=Ann&customer[address][city]=Oslo&metadata[year]=2026&source_id=old-1',
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      object: 'publication',
      tracking_id: 'ann',
      source_id: 'old-1',
      metadata: { year: '2026' },
      customer: { source_id: 'ann', name: 'Ann', address: { city: 'Oslo' } },
      voucher: { code: 'LEG-1', holder_id: reply.json.customer_id, publish: { count: 1 } },
    });
    expect((await campaigns.getVoucher('LEG-1')).json).toMatchObject({ holder_id: reply.json.customer_id });
  });

  it('reads an empty metadata[] or customer[metadata] (`metadata=`, how form encoders write {}) as empty metadata', async () => {
    const { api, campaignWith } = await publicationSetup();
    await campaignWith('Legacy', ['LEG-E'], { type: 'STATIC' });
    const reply = await api.call('create-publication-1', { query: 'campaign[name]=Legacy&customer[source_id]=eve&customer[metadata]=&metadata=' });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ voucher: { code: 'LEG-E' }, customer: { source_id: 'eve' } });
  });

  it('publishes a voucher named by code, skipping a campaign sent with it', async () => {
    const { api, campaignWith } = await publicationSetup();
    await campaignWith('Legacy', ['LEG-A', 'LEG-B'], { type: 'STATIC' });
    const reply = await api.call('create-publication-1', { query: 'voucher=LEG-B&campaign[name]=Legacy&customer[source_id]=bob' });
    expect(reply.json).toMatchObject({ voucher: { code: 'LEG-B' } });
  });

  it('publishes one voucher only: campaign[count] above 1 is too_many_vouchers_requested', async () => {
    const { api, campaignWith } = await publicationSetup();
    await campaignWith('Legacy', ['LEG-1', 'LEG-2'], { type: 'STATIC' });
    const reply = await api.call('create-publication-1', { query: 'campaign[name]=Legacy&campaign[count]=2&customer[source_id]=cy' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'too_many_vouchers_requested', message: 'Too many vouchers requested' });
  });

  it('answers 400 without a customer (invalid_query_params) or without voucher and campaign (missing_vouchers)', async () => {
    const { api } = await publicationSetup();
    const noCustomer = await api.call('create-publication-1', { query: 'campaign[name]=Legacy' });
    expect(noCustomer.status).toBe(400);
    expect(noCustomer.json).toMatchObject({ key: 'invalid_query_params' });
    const neither = await api.call('create-publication-1', { query: 'customer[source_id]=dee' });
    expect(neither.status).toBe(400);
    expect(neither.json).toMatchObject({ key: 'missing_vouchers' });
  });

  it('honours join_once and an Idempotency-Key like the POST', async () => {
    const { api, campaignWith, headers, list } = await publicationSetup();
    await campaignWith('Legacy', ['LEG-1', 'LEG-2', 'LEG-3'], { type: 'STATIC' });
    const once = 'campaign[name]=Legacy&customer[source_id]=eve&join_once=true';
    const a = await api.call('create-publication-1', { query: once });
    const b = await api.call('create-publication-1', { query: once });
    expect(b.json.id).toBe(a.json.id);
    const keyed = { ...headers, 'idempotency-key': 'legacy-1' };
    const first = await api.call('create-publication-1', { query: 'campaign[name]=Legacy&customer[source_id]=fay', headers: keyed });
    const retry = await api.call('create-publication-1', { query: 'campaign[name]=Legacy&customer[source_id]=fay', headers: keyed });
    expect(retry.json).toEqual(first.json);
    expect(retry.headers[REPLAYED_HEADER]).toBe('true');
    expect((await list('campaign=Legacy')).json.total).toBe(2);
  });
});
