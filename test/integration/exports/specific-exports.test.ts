import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRow } from '../../../lib/exports/csv.js';
import type { ExportFiles } from '../../../lib/exports/export-files.js';
import { createS3ExportFiles } from '../../../lib/exports/s3-export-files.js';
import { createS3Presigner } from '../../../lib/exports/s3-presigner.js';
import { campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { type ApiClient, apiClient } from '../../support/api-client.js';
import { engines } from '../../support/runtime.js';
import { publicationSetup } from '../publications/support.js';
import { csv, DOWNLOAD_BASE, exportRunner, type Json } from './export-support.js';

type Setup = Awaited<ReturnType<typeof publicationSetup>>;

let ctx: Setup;
let api: ApiClient;
let jobs: RecordingJobQueue;
let files: ExportFiles;
let s3: S3Client;
let runExport: ReturnType<typeof exportRunner>;
const ids = { gift: '', loyalty: '', discount: '' };

const tick = () => ctx.clock.advance(1000);

async function ok(reply: Promise<{ status: number; json: Json }>): Promise<Json> {
  const r = await reply;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

/** Every transaction of a campaign as GET /v1/campaigns/{campaignId}/transactions lists it (newest first), paged by its cursor. */
async function campaignTransactions(campaignId: string): Promise<Json[]> {
  const all: Json[] = [];
  let after = '';
  for (;;) {
    const page = await ok(api.call('list-campaign-transactions', { params: { campaignId }, query: `limit=2${after ? `&starting_after_id=${after}` : ''}` }));
    all.push(...(page.data as Json[]));
    if (!page.has_more) return all;
    after = page.more_starting_after as string;
  }
}

/** A listed transaction's cells for the given columns, as the export writes them. */
function cellsOf(t: Json, fields: string[]): Array<string | number> {
  const balance = ((t.details as Json).balance ?? {}) as Json;
  const cell: Record<string, string | number> = {
    id: t.id as string,
    type: t.type as string,
    source_id: (t.source_id ?? '') as string,
    reason: (t.reason ?? '') as string,
    voucher_id: t.voucher_id as string,
    campaign_id: (t.campaign_id ?? '') as string,
    amount: (balance.points ?? balance.amount) as number,
    balance: balance.balance as number,
    created_at: t.created_at as string,
  };
  return fields.map((f) => cell[f] ?? '');
}

beforeAll(async () => {
  const e = engines();
  ctx = await publicationSetup();
  jobs = new RecordingJobQueue();
  files = createS3ExportFiles({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint }, { partBytes: 1024 });
  s3 = new S3Client({ region: e.region, endpoint: e.s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  api = apiClient(
    {
      runtime: ctx.runtime,
      jobs,
      files,
      links: createS3Presigner({ region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint }),
      downloadBaseUrl: () => DOWNLOAD_BASE,
    },
    ctx.headers,
  );
  runExport = exportRunner({ api, jobs, files, runtime: ctx.runtime, projectId: ctx.projectId });
  for (const [source_id, amount, status] of [
    ['or-1', 1000, 'PAID'],
    ['or-2', 3000, 'CREATED'],
    ['or-3', 2000, 'PAID'],
  ] as const) {
    tick();
    await ok(api.call('create-order', { json: { source_id, amount, status } }));
  }
  ids.gift = (await newCampaign(ctx.campaigns, campaignBodies.GIFT_VOUCHERS('Gifts'))).id as string;
  ids.loyalty = (await newCampaign(ctx.campaigns, campaignBodies.LOYALTY_PROGRAM('Points'))).id as string;
  ids.discount = (await newCampaign(ctx.campaigns, campaignBodies.DISCOUNT_COUPONS('Plain'))).id as string;
  for (const code of ['G-1', 'G-2']) await ok(ctx.campaigns.addVoucher(ids.gift, { code }));
  for (const code of ['L-1', 'L-2']) await ok(ctx.campaigns.addVoucher(ids.loyalty, { code }));
  // A standalone gift card: its transactions belong to no campaign's export.
  await ok(api.call('create-voucher', { params: { code: 'SOLO' }, json: { type: 'GIFT_VOUCHER', gift: { amount: 100 } } }));
  const changes: Array<[string, string, Json]> = [
    ['update-voucher-balance', 'G-1', { amount: 700, source_id: 'g1-a', reason: 'goodwill' }],
    ['update-voucher-balance', 'G-2', { amount: 300, source_id: 'g2-a' }],
    ['update-voucher-balance', 'SOLO', { amount: 50 }],
    ['update-voucher-balance', 'G-1', { amount: -200, source_id: 'g1-b' }],
    ['update-loyalty-card-balance', 'L-1', { points: 40, source_id: 'l1-a', reason: 'welcome' }],
    ['update-loyalty-card-balance', 'L-2', { points: 15 }],
    ['update-loyalty-card-balance', 'L-1', { points: -10, source_id: 'l1-b' }],
  ];
  for (const [operationId, code, json] of changes) {
    tick();
    await ok(api.call(operationId, operationId === 'update-voucher-balance' ? { params: { code }, json } : { params: { memberId: code }, json }));
  }
}, 120_000);

afterAll(() => s3.destroy());

describe('GET /v1/campaigns/{campaignId}/transactions', () => {
  it("lists a gift campaign's card transactions newest first, paged by starting_after_id, none of another campaign's or card's", async () => {
    const listed = await campaignTransactions(ids.gift);
    expect(listed.map((t) => [t.source_id, t.type, t.campaign_id])).toEqual([
      ['g1-b', 'CREDITS_REMOVAL', ids.gift],
      ['g2-a', 'CREDITS_ADDITION', ids.gift],
      ['g1-a', 'CREDITS_ADDITION', ids.gift],
    ]);
    const oldest = await ok(api.call('list-campaign-transactions', { params: { campaignId: 'Gifts' }, query: 'order=id&limit=1' }));
    expect((oldest.data as Json[]).map((t) => t.source_id)).toEqual(['g1-a']);
    expect(oldest).toMatchObject({ has_more: true, more_starting_after: (oldest.data as Json[])[0]?.id });
  });

  it('lists a loyalty program by name as GET /v1/loyalties/{campaignId}/transactions does', async () => {
    const listed = await ok(api.call('list-campaign-transactions', { params: { campaignId: 'Points' } }));
    const loyalty = await ok(api.call('list-loyalty-campaign-transactions', { params: { campaignId: 'Points' } }));
    expect(listed).toEqual(loyalty);
    expect((listed.data as Json[]).map((t) => t.source_id)).toEqual(['l1-b', null, 'l1-a']);
  });

  it('refuses a campaign that keeps no transactions (400 invalid_campaign), an unknown one (404), filters and a foreign cursor (400)', async () => {
    expect(await api.call('list-campaign-transactions', { params: { campaignId: ids.discount } })).toMatchObject({
      status: 400,
      json: { key: 'invalid_campaign' },
    });
    expect((await api.call('list-campaign-transactions', { params: { campaignId: 'camp_nope' } })).status).toBe(404);
    const filtered = await api.call('list-campaign-transactions', { params: { campaignId: ids.gift }, query: 'filters[voucher_id][conditions][$is]=x' });
    expect(filtered).toMatchObject({ status: 400, json: { key: 'invalid_query_params' } });
    const loyaltyTx = (await campaignTransactions(ids.loyalty))[0]?.id as string;
    const foreign = await api.call('list-campaign-transactions', { params: { campaignId: ids.gift }, query: `starting_after_id=${loyaltyTx}` });
    expect(foreign).toMatchObject({ status: 400, json: { key: 'invalid_query_params' } });
  });
});

describe('POST /v1/orders/export', () => {
  it('an empty body: the default columns id, source_id, status, newest first', async () => {
    const { csv: file, created } = await runExport('create-order-export', { json: {} });
    expect(created).toMatchObject({ exported_object: 'order', parameters: {} });
    const orders = ((await ok(api.call('list-orders', { query: 'limit=100' }))).orders as Json[]).sort((a, b) =>
      String(b.created_at).localeCompare(String(a.created_at)),
    );
    expect(orders).toHaveLength(3);
    expect(file).toBe(
      csv(
        ['id', 'source_id', 'status'],
        orders.map((o) => [o.id as string, o.source_id as string, o.status as string]),
      ),
    );
  });

  it('fields, order and filters as POST /v1/exports takes them for orders', async () => {
    const { csv: file } = await runExport('create-order-export', {
      json: { parameters: { fields: ['source_id', 'amount'], order: 'created_at', filters: { status: { conditions: { $is: 'PAID' } } } } },
    });
    expect(file).toBe(
      csv(
        ['source_id', 'amount'],
        [
          ['or-1', 1000],
          ['or-3', 2000],
        ],
      ),
    );
  });
});

describe('POST /v1/vouchers/{code}/transactions/export', () => {
  it("exports one voucher's transactions (its list, oldest first), naming the voucher in parameters.filters", async () => {
    const fields = ['id', 'type', 'source_id', 'reason', 'balance', 'amount', 'created_at', 'voucher_id', 'campaign_id'];
    const { csv: file, created } = await runExport('export-voucher-transactions', {
      params: { code: 'G-1' },
      json: { parameters: { fields, order: 'created_at' } },
    });
    const listed = (await ok(api.call('list-voucher-transactions', { params: { code: 'G-1' } }))).data as Json[];
    expect(listed).toHaveLength(2);
    expect(file).toBe(
      csv(
        fields,
        [...listed].reverse().map((t) => cellsOf(t, fields)),
      ),
    );
    const voucherId = listed[0]?.voucher_id;
    expect(created).toMatchObject({
      exported_object: 'voucher_transactions',
      parameters: { fields, order: 'created_at', filters: { voucher_id: { conditions: { $in: [voucherId] } } } },
    });
  });

  it('an empty body: the default columns, newest first; a voucher with no transactions is a header-only file', async () => {
    const { csv: file } = await runExport('export-voucher-transactions', { params: { code: 'G-2' }, json: {} });
    const fields = ['id', 'type', 'source_id', 'reason', 'balance', 'amount', 'created_at'];
    const listed = (await ok(api.call('list-voucher-transactions', { params: { code: 'G-2' } }))).data as Json[];
    expect(file).toBe(
      csv(
        fields,
        listed.map((t) => cellsOf(t, fields)),
      ),
    );
    await ok(ctx.campaigns.addVoucher(ids.gift, { code: 'G-3' }));
    expect((await runExport('export-voucher-transactions', { params: { code: 'G-3' }, json: {} })).csv).toBe(csvRow(fields));
  });
});

describe('POST /v1/campaigns/{campaignId}/transactions/export', () => {
  it("exports every card's transactions of the campaign as its list shows them; filters narrow them", async () => {
    const fields = ['id', 'voucher_id', 'type', 'source_id', 'amount', 'balance', 'created_at'];
    const listed = await campaignTransactions(ids.gift);
    const all = await runExport('export-campaign-transactions', { params: { campaignId: 'Gifts' }, json: { parameters: { fields } } });
    expect(all.csv).toBe(
      csv(
        fields,
        listed.map((t) => cellsOf(t, fields)),
      ),
    );
    expect(all.created).toMatchObject({ parameters: { filters: { campaign_id: { conditions: { $in: [ids.gift] } } } } });

    const g2 = listed.find((t) => t.source_id === 'g2-a')?.voucher_id as string;
    const narrowed = await runExport('export-campaign-transactions', {
      params: { campaignId: ids.gift },
      json: { parameters: { fields, order: 'created_at', filters: { voucher_id: { conditions: { $is_not: g2 } } } } },
    });
    expect(narrowed.csv).toBe(
      csv(
        fields,
        [...listed]
          .reverse()
          .filter((t) => t.voucher_id !== g2)
          .map((t) => cellsOf(t, fields)),
      ),
    );
  });

  it('junction "or" does not widen the export past the campaign', async () => {
    const fields = ['id', 'campaign_id'];
    const listed = await campaignTransactions(ids.gift);
    const { csv: file } = await runExport('export-campaign-transactions', {
      params: { campaignId: ids.gift },
      json: {
        parameters: { fields, filters: { junction: 'or', type: { conditions: { $is: 'CREDITS_ADDITION' } }, source_id: { conditions: { $is: 'g1-b' } } } },
      },
    });
    expect(file).toBe(
      csv(
        fields,
        listed.map((t) => cellsOf(t, fields)),
      ),
    );
  });

  it('refuses an unknown field, filter, operator or order with a 400 naming it, and a campaign of another type', async () => {
    for (const [parameters, named] of [
      [{ fields: ['id', 'shoe_size'] }, /shoe_size/],
      [{ filters: { shoe_size: { conditions: { $is: '1' } } } }, /shoe_size/],
      [{ filters: { type: { conditions: { $sounds_like: 'x' } } } }, /\$sounds_like/],
      [{ order: 'amount' }, /amount/],
    ] as const) {
      const reply = await api.call('export-campaign-transactions', { params: { campaignId: ids.gift }, json: { parameters } });
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.json)).toMatch(named);
    }
    expect(await api.call('export-campaign-transactions', { params: { campaignId: ids.discount }, json: {} })).toMatchObject({
      status: 400,
      json: { key: 'invalid_campaign' },
    });
    expect((await api.call('export-voucher-transactions', { params: { code: 'G-1' }, json: { parameters: { filters: {} } } })).status).toBe(400);
    expect(jobs.sent).toEqual([]);
  });
});

describe('the loyalty transaction exports', () => {
  const fields = ['id', 'voucher_id', 'campaign_id', 'type', 'source_id', 'reason', 'amount', 'balance', 'created_at'];

  it("POST /v1/loyalties/{campaignId}/transactions/export: the program's transactions as its list shows them", async () => {
    const listed = (await ok(api.call('list-loyalty-campaign-transactions', { params: { campaignId: 'Points' } }))).data as Json[];
    const { csv: file } = await runExport('export-loyalty-campaign-transactions', { params: { campaignId: 'Points' }, json: { parameters: { fields } } });
    expect(file).toBe(
      csv(
        fields,
        listed.map((t) => cellsOf(t, fields)),
      ),
    );
    expect((await api.call('export-loyalty-campaign-transactions', { params: { campaignId: 'Gifts' }, json: {} })).status).toBe(404);
  });

  it('POST /v1/loyalties/members/{memberId}/transactions/export and its program form: one card', async () => {
    const listed = (await ok(api.call('list-loyalty-card-transactions', { params: { memberId: 'L-1' } }))).data as Json[];
    expect(listed).toHaveLength(2);
    const expected = csv(
      fields,
      listed.map((t) => cellsOf(t, fields)),
    );
    expect((await runExport('export-loyalty-card-transactions', { params: { memberId: 'L-1' }, json: { parameters: { fields } } })).csv).toBe(expected);
    const inProgram = await runExport('export-loyalty-card-transactions-1', {
      params: { campaignId: 'Points', memberId: 'L-1' },
      json: { parameters: { fields } },
    });
    expect(inProgram.csv).toBe(expected);
    expect(inProgram.created).toMatchObject({ parameters: { filters: { voucher_id: { conditions: { $in: [listed[0]?.voucher_id] } } } } });
  });

  it('a gift card is no member (404), nor a card of another program', async () => {
    expect((await api.call('export-loyalty-card-transactions', { params: { memberId: 'G-1' }, json: {} })).status).toBe(404);
    const other = await newCampaign(ctx.campaigns, campaignBodies.LOYALTY_PROGRAM('Other'));
    expect((await api.call('export-loyalty-card-transactions-1', { params: { campaignId: other.id as string, memberId: 'L-1' }, json: {} })).status).toBe(404);
    expect(jobs.sent).toEqual([]);
  });
});
