import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import * as entities from '../../../lib/db/entities.js';
import { tableDesign } from '../../../lib/db/table.js';
import { transact } from '../../../lib/db/transact.js';
import { creditGiftItem, getVoucherByCode } from '../../../lib/vouchers/voucher.repo.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import type { Runtime } from '../../../lib/runtime.js';

/**
 * GET /v1/vouchers by last change (issue 16 item 3): `updated_at[before]` / `updated_at[after]` and
 * `order=updated_at` / `-updated_at`, read from the project's change list (GSI5), which every write
 * of a voucher's `updatedAt` moves (lib/db/entities.ts voucherChangeSet).
 */

const MINUTE = 60_000;

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
const start = Date.UTC(2026, 6, 2, 9, 0, 0);

interface Listed {
  code: string;
  created_at: string;
  updated_at: string | null;
}

async function setup() {
  const clock = new ManualClock(start);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const headers = keyPairHeaders(pair);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, headers);
  const campaigns = campaignApi(runtime, pair, jobs);
  /** A campaign with `codes`, each made one minute after the one before. */
  const campaignWith = async (name: string, codes: string[], body: Record<string, unknown> = campaignBodies.DISCOUNT_COUPONS(name)) => {
    const campaign = await newCampaign(campaigns, body);
    for (const code of codes) {
      const added = await campaigns.addVoucher(campaign.id as string, { code });
      expect(added.status, JSON.stringify(added.json)).toBe(200);
      clock.advance(MINUTE);
    }
    return campaign.id as string;
  };
  const list = async (query = '') => {
    const reply = await api.call('list-vouchers', { query });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    return reply.json as unknown as { vouchers: Listed[]; total: number };
  };
  const codes = async (query = '') => (await list(query)).vouchers.map((v) => v.code);
  const refused = async (query: string) => {
    const reply = await api.call('list-vouchers', { query });
    expect(reply.status, query).toBe(400);
    expect(reply.json, query).toMatchObject({ code: 400, key: 'invalid_query_params', details: expect.any(String) });
    return reply.json.details as string;
  };
  /** The voucher changed last (the head of the newest-change-first list). */
  const head = async () => (await codes('order=-updated_at&limit=1'))[0];
  return { clock, runtime, projectId: pair.project_id, jobs, api, campaigns, campaignWith, list, codes, refused, head };
}

describe('GET /v1/vouchers by last change', () => {
  it('orders by last change both ways (a voucher never changed at its creation), in pages, with the reply’s updated_at agreeing', async () => {
    const { api, clock, campaignWith, list, codes } = await setup();
    await campaignWith('A', ['A0', 'A1', 'A2', 'A3']);
    await campaignWith('B', ['B0', 'B1']);
    expect((await api.call('update-voucher', { params: { code: 'A1' }, json: { metadata: { touched: 1 } } })).status).toBe(200);
    clock.advance(MINUTE);
    expect((await api.call('disable-voucher', { params: { code: 'A0' } })).status).toBe(200);
    clock.advance(MINUTE);

    const newestFirst = ['A0', 'A1', 'B1', 'B0', 'A3', 'A2'];
    expect(await codes('order=-updated_at')).toEqual(newestFirst);
    expect(await codes('order=updated_at')).toEqual([...newestFirst].reverse());
    expect(await codes('order=-updated_at&limit=4&page=2')).toEqual(['A3', 'A2']);
    expect(await codes('order=updated_at&limit=2&page=2')).toEqual(['B0', 'B1']);
    expect(await codes('order=updated_at&limit=2&page=3')).toEqual(['A1', 'A0']);
    expect(await list('order=updated_at&limit=2&page=4')).toMatchObject({ vouchers: [], total: 6 });
    // The creation order is unchanged by the writes.
    expect(await codes()).toEqual(['B1', 'B0', 'A3', 'A2', 'A1', 'A0']);

    const all = (await list('order=-updated_at&limit=100')).vouchers;
    const changed = all.map((v) => v.updated_at ?? v.created_at);
    expect(changed).toEqual([...changed].sort().reverse());
    expect(all.filter((v) => v.updated_at !== null).map((v) => v.code)).toEqual(['A0', 'A1']);
  });

  it('bounds the last change with updated_at[after] and updated_at[before], both excluded, newest first unless order says otherwise', async () => {
    const { api, clock, campaignWith, list, codes } = await setup();
    await campaignWith('A', ['A0', 'A1', 'A2', 'A3']);
    expect((await api.call('update-voucher', { params: { code: 'A0' }, json: { metadata: { n: 1 } } })).status).toBe(200);
    clock.advance(MINUTE);
    const all = (await list('order=updated_at&limit=100')).vouchers;
    const changedAt = (code: string) => {
      const v = all.find((x) => x.code === code) as Listed;
      return v.updated_at ?? v.created_at;
    };
    expect(all.map((v) => v.code)).toEqual(['A1', 'A2', 'A3', 'A0']);
    expect(await codes(`updated_at[after]=${changedAt('A1')}`)).toEqual(['A0', 'A3', 'A2']);
    expect(await codes(`updated_at[after]=${changedAt('A1')}&updated_at[before]=${changedAt('A0')}`)).toEqual(['A3', 'A2']);
    expect(await codes(`updated_at[before]=${changedAt('A3')}&order=updated_at`)).toEqual(['A1', 'A2']);
    expect(await codes(`updated_at[after]=${changedAt('A2')}&order=updated_at&limit=1&page=2`)).toEqual(['A0']);
    expect(await list(`updated_at[after]=${changedAt('A0')}`)).toMatchObject({ vouchers: [], total: 0 });
    expect(await list(`updated_at[after]=${changedAt('A3')}&updated_at[before]=${changedAt('A2')}`)).toMatchObject({ vouchers: [], total: 0 });
  });

  it('moves a voucher to the head of the change list on every kind of write that sets its updated_at', async () => {
    const { runtime, projectId, api, clock, campaignWith, jobs } = await setup();
    const coupons = await campaignWith('Coupons', ['C0', 'C1', 'C2', 'C3']);
    await campaignWith('Gifts', ['G0', 'G1'], {
      ...campaignBodies.GIFT_VOUCHERS('Gifts'),
      voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000, effect: 'APPLY_TO_ORDER' } },
    });
    await campaignWith('Points', ['L0'], campaignBodies.LOYALTY_PROGRAM('Points'));
    const steps: Array<[string, string[], () => Promise<unknown>]> = [
      ['update', ['C0'], () => api.call('update-voucher', { params: { code: 'C0' }, json: { active: true } })],
      ['disable', ['C1'], () => api.call('disable-voucher', { params: { code: 'C1' } })],
      ['enable', ['C1'], () => api.call('enable-voucher', { params: { code: 'C1' } })],
      ['gift balance', ['G0'], () => api.call('update-voucher-balance', { params: { code: 'G0' }, json: { amount: 100 } })],
      ['loyalty points', ['L0'], () => api.call('update-voucher-balance', { params: { code: 'L0' }, json: { amount: 50 } })],
      ['named publication', ['C2'], () => api.call('create-publication', { json: { voucher: 'C2', customer: { source_id: 'ann' } } })],
      [
        'campaign publication',
        ['C3'],
        async () => {
          // C0 and C1 are the campaign's other publishable codes: disable them so the pool has only C3.
          for (const code of ['C0', 'C1']) await api.call('disable-voucher', { params: { code } });
          clock.advance(MINUTE);
          return api.call('create-publication', { json: { campaign: { name: 'Coupons' }, customer: { source_id: 'ben' } } });
        },
      ],
      [
        'gift top-up (referral and reward flows)',
        ['G1'],
        async () => {
          const g1 = await getVoucherByCode(runtime, projectId, 'G1');
          if (!g1) throw new Error('G1 missing');
          return transact(runtime, [creditGiftItem(runtime, g1, 10, clock.now().toISOString())]);
        },
      ],
      [
        'campaign vouchers update',
        ['C0', 'C1'],
        async () => {
          for (const code of ['C0', 'C1']) await api.call('enable-voucher', { params: { code } });
          clock.advance(MINUTE);
          const reply = await api.call('update-campaign', { params: { campaignId: coupons }, json: { discount: { type: 'AMOUNT', amount_off: 1500 } } });
          await jobs.deliver(runtime);
          return reply;
        },
      ],
    ];
    for (const [what, moved, write] of steps) {
      clock.advance(MINUTE);
      const reply = (await write()) as { status?: number };
      if (reply.status !== undefined) expect(reply.status, what).toBeLessThan(300);
      const top = (await api.call('list-vouchers', { query: `order=-updated_at&limit=${moved.length}` })).json.vouchers as Listed[];
      expect(top.map((v) => v.code).sort(), what).toEqual(moved);
      expect(top[0]?.updated_at, what).toBe(new Date(clock.now()).toISOString());
    }
  });

  it('keeps every voucher’s change entry at its updated_at (else created_at) after creation, import, generation and every write', async () => {
    const { runtime, projectId, api, clock, campaignWith, jobs } = await setup();
    const id = await campaignWith('Mixed', ['M0', 'M1']);
    expect(
      (await api.call('create-voucher', { params: { code: 'SOLO' }, json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } }))
        .status,
    ).toBe(200);
    const imported = await api.call('import-vouchers-to-campaign', { params: { campaignId: id }, json: [{ code: 'IMP-1' }] });
    expect(imported.status, JSON.stringify(imported.json)).toBeLessThan(300);
    const generated = await api.call('add-vouchers-to-campaign', { params: { campaignId: id }, query: 'vouchers_count=3', json: {} });
    expect(generated.status, JSON.stringify(generated.json)).toBeLessThan(300);
    await jobs.deliver(runtime);
    clock.advance(MINUTE);
    await api.call('update-voucher', { params: { code: 'M1' }, json: { metadata: { x: 1 } } });
    // Distinct change times: two vouchers changed at one instant are ordered by id (random).
    clock.advance(MINUTE);
    await api.call('create-publication', { json: { voucher: 'SOLO', customer: { source_id: 'cy' } } });

    const items = await runtime.ddb.send(
      new QueryCommand({
        TableName: runtime.tableName,
        IndexName: tableDesign.indexes.gsi3.name,
        KeyConditionExpression: 'GSI3PK = :pk',
        ExpressionAttributeValues: { ':pk': entities.voucherByProject.partition(projectId) },
      }),
    );
    const keys = items.Items ?? [];
    expect(keys).toHaveLength(7);
    for (const k of keys) {
      // The item as stored (not as toItem would write it now): its GSI5 entry is where its last write left it.
      const item = (await runtime.ddb.send(new GetCommand({ TableName: runtime.tableName, Key: { PK: k.PK, SK: k.SK } }))).Item ?? {};
      expect(item.GSI5PK, String(item.code)).toBe(`P#${projectId}#VOUCHERS_CHANGED`);
      expect(item.GSI5SK, String(item.code)).toBe(`${item.updatedAt ?? item.createdAt}#${item.id}`);
    }
    const listed = (await api.call('list-vouchers', { query: 'order=-updated_at&limit=100' })).json.vouchers as Listed[];
    expect(listed).toHaveLength(7);
    expect(listed.slice(0, 2).map((v) => v.code)).toEqual(['SOLO', 'M1']);
  });

  it('never scans: one Query of the project’s change list (GSI5, keys only), then the page by key', async () => {
    const { runtime, projectId, campaignWith, codes } = await setup();
    await campaignWith('A', ['A0', 'A1', 'A2']);
    const sent = recordCommands(runtime);
    expect(await codes('order=-updated_at&limit=2')).toEqual(['A2', 'A1']);
    expect(await codes('order=-updated_at&limit=2&page=2')).toEqual(['A0']);
    expect(sent.some((c) => c.name.includes('Scan'))).toBe(false);
    const indexQueries = sent.filter((c) => c.name === 'QueryCommand' && c.input.IndexName !== undefined);
    expect(indexQueries.length).toBeGreaterThan(0);
    for (const q of indexQueries) {
      expect(q.input).toMatchObject({ IndexName: 'GSI5', ExpressionAttributeValues: { ':pk': `P#${projectId}#VOUCHERS_CHANGED` } });
    }
  });

  it('refuses with 400 what no index serves by change: a campaign, customer or category filter, created_at bounds, a creation order', async () => {
    const { api, campaignWith, refused, codes } = await setup();
    const a = await campaignWith('A', ['A0', 'A1']);
    const t = '2026-07-02T09:00:30.000Z';
    for (const query of [
      `campaign_id=${a}&updated_at[after]=${t}`,
      `campaign=A&order=updated_at`,
      'customer=ann&order=-updated_at',
      'category=First&updated_at[before]=2027-01-01T00:00:00Z',
      `created_at[after]=${t}&updated_at[after]=${t}`,
      `created_at[before]=${t}&order=updated_at`,
      `order=created_at&updated_at[after]=${t}`,
      `order=-created_at&updated_at[before]=${t}`,
    ]) {
      expect(await refused(query)).toMatch(/updated_at/);
    }
    // Named by code or ids (read by key), every filter goes with the change bounds and order.
    const id = (await api.call('get-voucher', { params: { code: 'A1' } })).json.id as string;
    expect(await codes(`code=A1&campaign_id=${a}&updated_at[after]=${t}`)).toEqual(['A1']);
    expect(await codes(`code=A0&campaign_id=${a}&updated_at[after]=${t}`)).toEqual([]);
    expect(await codes(`ids=${id}&created_at[after]=${t}&order=updated_at`)).toEqual(['A1']);
  });

  it("never lists another project's vouchers by change", async () => {
    const { runtime, campaignWith } = await setup();
    await campaignWith('A', ['MINE-NOT']);
    const other = await newProject(runtime);
    const otherApi = apiClient({ runtime }, keyPairHeaders(other));
    const reply = await otherApi.call('list-vouchers', { query: 'order=-updated_at&updated_at[after]=2020-01-01T00:00:00Z' });
    expect(reply.json).toMatchObject({ vouchers: [], total: 0 });
  });
});
