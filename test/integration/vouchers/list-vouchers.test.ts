import { describe, expect, it } from 'vitest';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject } from '../../support/runtime.js';
import { countingReads, publicationSetup, putVoucher, standaloneVoucher } from '../publications/support.js';

const MINUTE = 60_000;

interface ListReply {
  object: string;
  data_ref: string;
  vouchers: { code: string; holder_id: string | null; campaign_id: string | null; created_at: string; object: string }[];
  total: number;
}

/**
 * A project with campaigns A (codes A0..A<n-1>) and B (B0, B1), each voucher made one minute after
 * the one before (A's first, then B's), and a client for list-vouchers.
 */
async function setup(n = 4) {
  const s = await publicationSetup();
  const created: string[] = [];
  const addCodes = async (name: string, codes: string[]) => {
    const campaign = await newCampaign(s.campaigns, campaignBodies.DISCOUNT_COUPONS(name));
    for (const code of codes) {
      const added = await s.campaigns.addVoucher(campaign.id as string, { code });
      expect(added.status).toBe(200);
      created.push(code);
      s.clock.advance(MINUTE);
    }
    return campaign.id as string;
  };
  const a = await addCodes(
    'A',
    Array.from({ length: n }, (_, i) => `A${i}`),
  );
  const b = await addCodes('B', ['B0', 'B1']);
  const list = async (query = '') => {
    const reply = await s.api.call('list-vouchers', { query });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    return reply.json as unknown as ListReply;
  };
  const codes = async (query = '') => (await list(query)).vouchers.map((v) => v.code);
  return { ...s, a, b, created, list, codes };
}

describe('GET /v1/vouchers', () => {
  it("lists the project's vouchers newest first, in pages of limit, and created_at ascending with order=created_at", async () => {
    const { list, codes } = await setup(4);
    const first = await list('limit=2');
    expect(first).toMatchObject({ object: 'list', data_ref: 'vouchers', total: 3 });
    expect(first.vouchers.map((v) => v.code)).toEqual(['B1', 'B0']);
    expect(first.vouchers[0]).toMatchObject({ object: 'voucher', campaign: 'B' });
    expect(await codes('limit=2&page=2')).toEqual(['A3', 'A2']);
    // The last page and any page past it know the exact count.
    expect(await list('limit=2&page=3')).toMatchObject({ total: 6 });
    expect(await list('limit=2&page=9')).toMatchObject({ vouchers: [], total: 6 });
    expect(await codes()).toEqual(['B1', 'B0', 'A3', 'A2', 'A1', 'A0']);
    expect(await codes('order=created_at')).toEqual(['A0', 'A1', 'A2', 'A3', 'B0', 'B1']);
    expect(await codes('order=created_at&limit=4&page=2')).toEqual(['B0', 'B1']);
  });

  it('filters by campaign_id or campaign name, with the campaign’s voucher count as total', async () => {
    const { a, b, list, codes } = await setup(3);
    expect(await list(`campaign_id=${a}&limit=2`)).toMatchObject({ total: 3 });
    expect(await codes(`campaign_id=${a}`)).toEqual(['A2', 'A1', 'A0']);
    expect(await codes(`campaign_id=${a}&order=created_at&limit=2&page=2`)).toEqual(['A2']);
    expect(await codes('campaign=B')).toEqual(['B1', 'B0']);
    expect(await list('campaign=B')).toMatchObject({ total: 2 });
    expect(await codes(`campaign=B&campaign_id=${b}`)).toEqual(['B1', 'B0']);
    // Names that match no campaign, or an id and a name of two campaigns, list nothing.
    expect(await list('campaign=Nope')).toMatchObject({ vouchers: [], total: 0 });
    expect(await list('campaign_id=camp_doesnotexist')).toMatchObject({ vouchers: [], total: 0 });
    expect(await list(`campaign=A&campaign_id=${b}`)).toMatchObject({ vouchers: [], total: 0 });
  });

  it('filters by holder (customer id or source id) once vouchers are published, and keeps them listed through later changes', async () => {
    const { publish, api, list, codes } = await setup(3);
    const ann = await publish({ voucher: 'A1', customer: { source_id: 'ann' } });
    expect(ann.status).toBe(200);
    const annId = ann.json.customer_id as string;
    const pooled = await publish({ campaign: { name: 'B' }, customer: { source_id: 'ann' } });
    expect(pooled.status).toBe(200);
    const pooledCode = (pooled.json.voucher as { code: string }).code;
    expect(await codes(`customer=${annId}`)).toEqual([pooledCode, 'A1']);
    expect(await codes('customer=ann')).toEqual([pooledCode, 'A1']);
    expect(await codes('customer=ann&order=created_at')).toEqual(['A1', pooledCode]);
    // Disabling (an update that rewrites the voucher's GSI2 keys) keeps a held voucher in its holder's list.
    expect((await api.call('disable-voucher', { params: { code: 'A1' } })).status).toBe(200);
    expect((await api.call('update-voucher', { params: { code: 'A1' }, json: { metadata: { x: 1 } } })).status).toBe(200);
    expect(await codes('customer=ann')).toEqual([pooledCode, 'A1']);
    expect((await list('customer=ann')).vouchers.every((v) => v.holder_id === annId)).toBe(true);
    expect(await list('customer=nobody')).toMatchObject({ vouchers: [], total: 0 });
  });

  it('lists a generic code under its first holder', async () => {
    const { runtime, projectId, publish, codes } = await setup(1);
    await putVoucher(runtime, standaloneVoucher(projectId, 'GENERIC', { redemptionQuantity: null }));
    expect((await publish({ voucher: 'GENERIC', customer: { source_id: 'first' } })).status).toBe(200);
    expect((await publish({ voucher: 'GENERIC', customer: { source_id: 'second' } })).status).toBe(200);
    expect(await codes('customer=first')).toEqual(['GENERIC']);
    expect(await codes('customer=second')).toEqual([]);
  });

  it('bounds the creation time with created_at[after] and created_at[before], both excluded', async () => {
    const { list, codes, a } = await setup(4);
    const all = (await list('order=created_at&limit=100')).vouchers;
    const at = (code: string) => all.find((v) => v.code === code)?.created_at as string;
    expect(await codes(`created_at[after]=${at('A1')}&created_at[before]=${at('B0')}`)).toEqual(['A3', 'A2']);
    expect(await codes(`created_at[after]=${at('A3')}&order=created_at`)).toEqual(['B0', 'B1']);
    expect(await codes(`campaign_id=${a}&created_at[before]=${at('A2')}`)).toEqual(['A1', 'A0']);
    expect(await list(`created_at[after]=${at('B0')}&created_at[before]=${at('A1')}`)).toMatchObject({ vouchers: [], total: 0 });
  });

  it('lists the vouchers named by code or ids, with the other filters applied to them and an exact total', async () => {
    const { api, a, list, codes } = await setup(3);
    const id = async (code: string) => (await api.call('get-voucher', { params: { code } })).json.id as string;
    const [a0, a2, b1] = [await id('A0'), await id('A2'), await id('B1')];
    expect(await list('code=A1')).toMatchObject({ vouchers: [{ code: 'A1' }], total: 1 });
    expect(await list('code=nope')).toMatchObject({ vouchers: [], total: 0 });
    expect(await list(`ids=${a0},${b1},${a2},v_unknown`)).toMatchObject({ total: 3 });
    expect(await codes(`ids=${a0},${b1},${a2}`)).toEqual(['B1', 'A2', 'A0']);
    expect(await codes(`ids=${a0},${b1},${a2}&order=created_at&limit=2&page=2`)).toEqual(['B1']);
    expect(await codes(`ids=${a0},${b1},${a2}&campaign_id=${a}`)).toEqual(['A2', 'A0']);
    expect(await codes(`ids=${a0},${a2}&code=A2`)).toEqual(['A2']);
    expect(await codes(`ids=${a0}&code=A2`)).toEqual([]);
    const tooMany = await api.call('list-vouchers', { query: `ids=${Array.from({ length: 101 }, (_, i) => `v_${i}`).join(',')}` });
    expect(tooMany.json).toMatchObject({ code: 400, key: 'invalid_query_params' });
  });

  it('refuses limits outside 1..100, pages outside 1..99 and bad orders with the error object', async () => {
    const { api } = await setup(1);
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'limit=1.5', 'page=0', 'page=100', 'order=name', 'created_at[before]=yesterday']) {
      const reply = await api.call('list-vouchers', { query });
      expect(reply.status, query).toBe(400);
      expect(reply.json, query).toMatchObject({ code: 400, key: 'invalid_query_params', message: expect.any(String), request_id: expect.any(String) });
    }
    for (const query of ['limit=1', 'limit=100', 'page=99']) expect((await api.call('list-vouchers', { query })).status, query).toBe(200);
  });

  it('answers 400 for what no index serves: code orders, a filter by change, two of campaign, customer and category', async () => {
    const { api, a } = await setup(1);
    for (const query of [
      `campaign_id=${a}&category=First`,
      'customer=ann&category=First',
      `campaign_id=${a}&updated_at[after]=2026-01-01T00:00:00Z`,
      'customer=ann&order=-updated_at',
      'order=code',
      `campaign_id=${a}&customer=ann`,
    ]) {
      const reply = await api.call('list-vouchers', { query });
      expect(reply.status, query).toBe(400);
      expect(reply.json, query).toMatchObject({ key: 'invalid_query_params', details: expect.any(String) });
    }
  });

  it("never lists another project's vouchers, by any filter", async () => {
    const { runtime, a, publish } = await setup(2);
    const annId = (await publish({ voucher: 'A0', customer: { source_id: 'ann' } })).json.customer_id as string;
    const other = await newProject(runtime);
    const otherApi = apiClient({ runtime }, keyPairHeaders(other));
    const mine = await newCampaign(campaignApi(runtime, other), campaignBodies.DISCOUNT_COUPONS('A'));
    expect((await campaignApi(runtime, other).addVoucher(mine.id as string, { code: 'MINE' })).status).toBe(200);
    const seen = async (query: string) => ((await otherApi.call('list-vouchers', { query })).json as unknown as ListReply).vouchers.map((v) => v.code);
    expect(await seen('limit=100')).toEqual(['MINE']);
    expect(await seen('campaign=A')).toEqual(['MINE']);
    expect(await seen(`campaign_id=${a}`)).toEqual([]);
    expect(await seen(`customer=${annId}`)).toEqual([]);
    expect(await seen('customer=ann')).toEqual([]);
  });

  it('reads (page − 1) × limit + limit + 1 entries (keys only) for a deep page once, then starts at the page bounds it saved', async () => {
    const { runtime, a, codes } = await setup(12);
    const reads = countingReads(runtime);
    const entries = () => reads.items('#VOUCHERS');
    expect(await codes(`campaign_id=${a}&limit=3`)).toEqual(['A11', 'A10', 'A9']);
    expect(entries()).toBe(4);
    // The list's first entry (is the bookmark current?) + pages 1 and 2 walked + page 3 and one more.
    expect(await codes(`campaign_id=${a}&limit=3&page=3`)).toEqual(['A5', 'A4', 'A3']);
    expect(entries()).toBe(4 + 1 + 10);
    // Again, and the page after it: from the saved bounds, one page and one more entry each.
    expect(await codes(`campaign_id=${a}&limit=3&page=3`)).toEqual(['A5', 'A4', 'A3']);
    expect(entries()).toBe(15 + 1 + 4);
    expect(await codes(`campaign_id=${a}&limit=3&page=4`)).toEqual(['A2', 'A1', 'A0']);
    expect(entries()).toBe(20 + 1 + 3);
    // Another page size or direction is another list, with bounds of its own.
    expect(await codes(`campaign_id=${a}&limit=4&page=2&order=created_at`)).toEqual(['A4', 'A5', 'A6', 'A7']);
    expect(entries()).toBe(24 + 1 + 9);
  });

  it('drops page bounds when a newer voucher heads the list or after five minutes, so deep pages stay right', async () => {
    const { clock, campaigns, a, list, codes } = await setup(6);
    expect(await codes('limit=2&page=3')).toEqual(['A3', 'A2']);
    clock.advance(MINUTE);
    expect((await campaigns.addVoucher(a, { code: 'A-NEW' })).status).toBe(200);
    expect(await codes('limit=2&page=3')).toEqual(['A4', 'A3']);
    expect(await list('limit=2&page=5')).toMatchObject({ vouchers: [{ code: 'A0' }], total: 9 });
    // Oldest first, new vouchers come last: the bounds hold; past five minutes they are read again.
    expect(await codes('limit=2&page=2&order=created_at')).toEqual(['A2', 'A3']);
    clock.advance(6 * MINUTE);
    expect(await codes('limit=2&page=3&order=created_at')).toEqual(['A4', 'A5']);
    expect(await list('limit=2&page=9&order=created_at')).toMatchObject({ vouchers: [], total: 9 });
  });
});
