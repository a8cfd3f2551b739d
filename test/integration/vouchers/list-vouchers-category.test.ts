import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../lib/runtime.js';
import { campaignApi, campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject } from '../../support/runtime.js';
import { countingReads, publicationSetup } from '../publications/support.js';

const MINUTE = 60_000;
const discount = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } };

interface ListReply {
  vouchers: { code: string; category: string | null; category_id: string | null; created_at: string }[];
  total: number;
}

/** A project with categories Seasonal and Other, a client whose jobs are delivered by hand, and list helpers. */
async function setup() {
  const s = await publicationSetup();
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime: s.runtime, jobs }, s.headers);
  const campaigns = campaignApi(s.runtime, s.pair, jobs);
  const category = async (name: string) => {
    const reply = await api.call('create-category', { json: { name, hierarchy: 1 } });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    return reply.json.id as string;
  };
  const seasonal = await category('Seasonal');
  const other = await category('Other');
  const list = async (query = '') => {
    const reply = await api.call('list-vouchers', { query });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    return reply.json as unknown as ListReply;
  };
  const codes = async (query = '') => (await list(query)).vouchers.map((v) => v.code);
  /** A standalone voucher `code` (create-voucher) with `fields`, then one minute passes. */
  const voucher = async (code: string, fields: Record<string, unknown> = {}) => {
    const reply = await api.call('create-voucher', { params: { code }, json: { ...discount, ...fields } });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    s.clock.advance(MINUTE);
  };
  return { ...s, api, jobs, campaigns, seasonal, other, list, codes, voucher };
}

/** Records every command the runtime's table client sends. */
function recordCommands(runtime: Runtime): { name: string; input: Record<string, unknown> }[] {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  const send = runtime.ddb.send.bind(runtime.ddb);
  runtime.ddb.send = (async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
    sent.push({ name: command.constructor.name, input: command.input });
    return send(command as never);
  }) as typeof runtime.ddb.send;
  return sent;
}

describe('GET /v1/vouchers?category=', () => {
  it('lists the vouchers of a category by its id or name, newest first, whichever path created them', async () => {
    const { api, jobs, runtime, campaigns, clock, seasonal, other, voucher, list, codes } = await setup();
    await voucher('SOLO', { category: 'Seasonal' });
    await voucher('PLAIN');
    await voucher('ELSE', { category_id: other });
    const random = await api.call('generate-random-code', { json: { ...discount, category_id: seasonal } });
    expect(random.status, JSON.stringify(random.json)).toBe(200);
    const randomCode = random.json.code as string;
    clock.advance(MINUTE);
    const campaign = await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('C'));
    const specific = await api.call('add-voucher-with-specific-code-to-campaign', {
      params: { campaignId: campaign.id as string, code: 'SPEC' },
      json: { category: 'Seasonal' },
    });
    expect(specific.status, JSON.stringify(specific.json)).toBe(200);
    clock.advance(MINUTE);
    const added = await campaigns.addVoucher(campaign.id as string, { code: 'ADDED', category_id: seasonal });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    clock.advance(MINUTE);
    const imported = await api.call('import-vouchers', {
      json: [
        { code: 'IMP-1', category: 'Seasonal', ...discount },
        { code: 'IMP-2', ...discount },
      ],
    });
    expect(imported.status, JSON.stringify(imported.json)).toBe(202);
    await jobs.deliver(runtime);
    clock.advance(MINUTE);
    // Bulk generation (an async action): the vouchers it generates are in the request's category.
    const bulk = await campaigns.addVoucher(campaign.id as string, { category: 'Seasonal' }, 'vouchers_count=2');
    expect(bulk.status, JSON.stringify(bulk.json)).toBe(202);
    await jobs.deliver(runtime);
    const inCampaign = await codes(`campaign_id=${campaign.id as string}&limit=100`);
    const generated = inCampaign.filter((c) => c !== 'SPEC' && c !== 'ADDED').sort();
    expect(generated).toHaveLength(2);

    const byId = await list(`category=${seasonal}&limit=100`);
    expect(
      byId.vouchers
        .map((v) => v.code)
        .slice(0, 2)
        .sort(),
    ).toEqual(generated);
    expect(byId.vouchers.map((v) => v.code).slice(2)).toEqual(['IMP-1', 'ADDED', 'SPEC', randomCode, 'SOLO']);
    expect(byId.vouchers.every((v) => v.category === 'Seasonal' && v.category_id === seasonal)).toBe(true);
    expect(byId.total).toBe(7);
    expect(await codes('category=Seasonal&limit=100')).toEqual(byId.vouchers.map((v) => v.code));
    expect(await codes(`category=${seasonal}&order=created_at&limit=3`)).toEqual(['SOLO', randomCode, 'SPEC']);
    expect(await codes(`category=${other}`)).toEqual(['ELSE']);
    expect(await codes('category=Other')).toEqual(['ELSE']);
    // A reference that names no category lists nothing.
    expect(await list('category=Nope')).toMatchObject({ vouchers: [], total: 0 });
    expect(await list('category=cat_doesnotexist')).toMatchObject({ vouchers: [], total: 0 });
  });

  it('moves a voucher between category lists when update-voucher changes its category, and follows a renamed category', async () => {
    const { api, seasonal, other, voucher, codes } = await setup();
    await voucher('V1', { category: 'Seasonal' });
    await voucher('V2', { category: 'Seasonal' });
    await voucher('V3');
    expect(await codes('category=Seasonal')).toEqual(['V2', 'V1']);
    expect((await api.call('update-voucher', { params: { code: 'V1' }, json: { category: 'Other' } })).status).toBe(200);
    expect(await codes('category=Seasonal')).toEqual(['V2']);
    expect(await codes(`category=${other}`)).toEqual(['V1']);
    expect((await api.call('update-voucher', { params: { code: 'V3' }, json: { category_id: seasonal } })).status).toBe(200);
    expect(await codes('category=Seasonal')).toEqual(['V3', 'V2']);
    // A change that leaves the category alone keeps the voucher listed (the entry is written again as it was).
    expect((await api.call('update-voucher', { params: { code: 'V2' }, json: { metadata: { x: 1 } } })).status).toBe(200);
    expect((await api.call('disable-voucher', { params: { code: 'V2' } })).status).toBe(200);
    expect(await codes('category=Seasonal')).toEqual(['V3', 'V2']);
    // A new category made by the PUT itself (by name) lists it at once.
    expect((await api.call('update-voucher', { params: { code: 'V2' }, json: { category: 'Brand new' } })).status).toBe(200);
    expect(await codes('category=Brand new')).toEqual(['V2']);
    expect(await codes('category=Seasonal')).toEqual(['V3']);
    // Lists are keyed by the category's id: a rename finds them under the new name.
    expect((await api.call('update-category', { params: { categoryId: other }, json: { name: 'Renamed', hierarchy: 1 } })).status).toBe(200);
    expect(await codes('category=Renamed')).toEqual(['V1']);
    expect(await codes('category=Other')).toEqual([]);
  });

  it('lists the codes a publication generates for a campaign of the category, and keeps a categorised voucher listed once published', async () => {
    const { campaigns, publish, voucher, codes, seasonal } = await setup();
    await voucher('HELD', { category: 'Seasonal' });
    expect((await publish({ voucher: 'HELD', customer: { source_id: 'ann' } })).status).toBe(200);
    // AUTO_UPDATE, no vouchers yet: the publication generates its code on the spot, in the campaign's category.
    await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Auto'), category_id: seasonal });
    const made = await publish({ campaign: { name: 'Auto' }, customer: { source_id: 'ben' } });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    const generated = (made.json.voucher as { code: string; category_id: string | null }).code;
    expect(await codes('category=Seasonal')).toEqual([generated, 'HELD']);
    expect(await codes('customer=ann')).toEqual(['HELD']);
  });

  it('pages through a category (page 2, a deep page from the saved bounds), with created_at bounds, reading keys of GSI4 only', async () => {
    const { runtime, voucher, list, codes } = await setup();
    for (let i = 0; i < 12; i += 1) {
      await voucher(`S${String(i).padStart(2, '0')}`, { category: 'Seasonal' });
      await voucher(`X${String(i).padStart(2, '0')}`);
    }
    const reads = countingReads(runtime);
    const entries = () => reads.items('#VOUCHERS');
    expect(await codes('category=Seasonal&limit=3')).toEqual(['S11', 'S10', 'S09']);
    expect(entries()).toBe(4);
    expect(await codes('category=Seasonal&limit=3&page=2')).toEqual(['S08', 'S07', 'S06']);
    expect(await list('category=Seasonal&limit=3&page=4')).toMatchObject({ vouchers: [{ code: 'S02' }, { code: 'S01' }, { code: 'S00' }], total: 12 });
    // Again: from the bound page 3 saved, one page and one more entry (+ the list's head).
    const before = entries();
    expect(await codes('category=Seasonal&limit=3&page=4')).toEqual(['S02', 'S01', 'S00']);
    expect(entries() - before).toBe(1 + 3);
    expect(await list('category=Seasonal&limit=3&page=9')).toMatchObject({ vouchers: [], total: 12 });
    expect(await codes('category=Seasonal&limit=5&page=2&order=created_at')).toEqual(['S05', 'S06', 'S07', 'S08', 'S09']);

    const all = (await list('category=Seasonal&order=created_at&limit=100')).vouchers;
    const at = (code: string) => all.find((v) => v.code === code)?.created_at as string;
    expect(await codes(`category=Seasonal&created_at[after]=${at('S03')}&created_at[before]=${at('S07')}`)).toEqual(['S06', 'S05', 'S04']);
    expect(await codes(`category=Seasonal&created_at[after]=${at('S09')}&order=created_at`)).toEqual(['S10', 'S11']);
    expect(await codes(`category=Seasonal&created_at[before]=${at('S01')}`)).toEqual(['S00']);
  });

  it('never scans: one Query of the category partition of GSI4, keys only, then the page by key', async () => {
    const { runtime, projectId, voucher, codes, seasonal } = await setup();
    for (const code of ['A', 'B', 'C']) await voucher(code, { category: 'Seasonal' });
    const sent = recordCommands(runtime);
    expect(await codes('category=Seasonal&limit=2')).toEqual(['C', 'B']);
    expect(await codes(`category=${seasonal}&limit=2&page=2`)).toEqual(['A']);
    expect(sent.some((c) => c.name.includes('Scan'))).toBe(false);
    const queries = sent.filter((c) => c.name === 'QueryCommand');
    // Index reads are the category's list only; the table Queries are the limitless codes' use-count shards.
    const indexQueries = queries.filter((q) => q.input.IndexName !== undefined);
    expect(indexQueries.length).toBeGreaterThan(0);
    for (const q of indexQueries) {
      expect(q.input).toMatchObject({ IndexName: 'GSI4', ExpressionAttributeValues: { ':pk': `P#${projectId}#CATEGORY#${seasonal}#VOUCHERS` } });
    }
    for (const q of queries.filter((x) => x.input.IndexName === undefined)) {
      expect(JSON.stringify(q.input.ExpressionAttributeValues)).toContain(`P#${projectId}#VOUCHER_REDEMPTIONS#`);
    }
  });

  it('applies the category to the vouchers named by code or ids', async () => {
    const { api, voucher, codes } = await setup();
    await voucher('IN', { category: 'Seasonal' });
    await voucher('OUT', { category: 'Other' });
    const id = async (code: string) => (await api.call('get-voucher', { params: { code } })).json.id as string;
    expect(await codes('category=Seasonal&code=IN')).toEqual(['IN']);
    expect(await codes('category=Seasonal&code=OUT')).toEqual([]);
    expect(await codes(`category=Other&ids=${await id('IN')},${await id('OUT')}`)).toEqual(['OUT']);
  });

  it('refuses category with campaign or customer (400 naming the pair), and still refuses updated_at', async () => {
    const { api, campaigns } = await setup();
    const campaign = await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('C'));
    const cases: [string, string][] = [
      [`category=Seasonal&campaign_id=${campaign.id as string}`, 'campaign (campaign_id, campaign) with category'],
      ['category=Seasonal&campaign=C', 'campaign (campaign_id, campaign) with category'],
      ['category=Seasonal&customer=ann', 'customer with category'],
      ['category=Seasonal&updated_at[after]=2026-01-01T00:00:00Z', 'updated_at'],
      ['category=Seasonal&order=-updated_at', 'updated_at'],
    ];
    for (const [query, named] of cases) {
      const reply = await api.call('list-vouchers', { query });
      expect(reply.status, query).toBe(400);
      expect(reply.json, query).toMatchObject({ code: 400, key: 'invalid_query_params', details: expect.stringContaining(named) });
    }
  });

  it('lists nothing for a deleted category, and never another project’s vouchers of a same-named category', async () => {
    const { runtime, api, voucher, codes, other } = await setup();
    await voucher('MINE', { category: 'Seasonal' });
    await voucher('GONE', { category_id: other });
    expect((await api.call('delete-category', { params: { categoryId: other } })).status).toBe(204);
    expect(await codes(`category=${other}`)).toEqual([]);
    expect(await codes('category=Other')).toEqual([]);
    const pair = await newProject(runtime);
    const theirs = apiClient({ runtime }, keyPairHeaders(pair));
    expect((await theirs.call('create-voucher', { params: { code: 'THEIRS' }, json: { ...discount, category: 'Seasonal' } })).status).toBe(200);
    const seen = async (query: string) => ((await theirs.call('list-vouchers', { query })).json as unknown as ListReply).vouchers.map((v) => v.code);
    expect(await seen('category=Seasonal')).toEqual(['THEIRS']);
    expect(await codes('category=Seasonal')).toEqual(['MINE']);
  });
});
