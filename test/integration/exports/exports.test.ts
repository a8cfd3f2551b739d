import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { csvRow } from '../../../lib/exports/csv.js';
import type { ExportFiles } from '../../../lib/exports/export-files.js';
import { exportListReplySchema, exportReplySchema } from '../../../lib/exports/export.reply.js';
import { startExport } from '../../../lib/exports/export.repo.js';
import { createS3ExportFiles } from '../../../lib/exports/s3-export-files.js';
import { createS3Presigner } from '../../../lib/exports/s3-presigner.js';
import { campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { apiClient, type ApiClient } from '../../support/api-client.js';
import { makeJobWorkers } from '../../support/job-workers.js';
import { engines } from '../../support/runtime.js';
import { seedBuckets } from '../../support/seed-buckets.js';
import { sqsRecord } from '../../support/sqs-record.js';
import { publicationSetup } from '../publications/support.js';

const DOWNLOAD_BASE = 'http://download.test';

type Json = Record<string, unknown>;
type Setup = Awaited<ReturnType<typeof publicationSetup>>;

let ctx: Setup;
let api: ApiClient;
let jobs: RecordingJobQueue;
let files: ExportFiles;
let s3: S3Client;
/** The seeded objects as the API shows them. */
const seen: { vouchers: Json[]; customers: Json[]; orders: Json[]; redemptions: Json[]; publications: Json[]; gift: Json; loyaltyCampaignId: string } = {
  vouchers: [],
  customers: [],
  orders: [],
  redemptions: [],
  publications: [],
  gift: {},
  loyaltyCampaignId: '',
};

/** Lets time pass between writes, so creation orders are strict. */
const tick = () => ctx.clock.advance(1000);

async function ok(reply: Promise<{ status: number; json: Json }>): Promise<Json> {
  const r = await reply;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

/** Creates an export, runs its job through the export worker (s3rver), and returns the CSV downloaded through its link. */
async function exportCsv(body: Json): Promise<{ id: string; csv: string; reply: Json }> {
  const created = await api.call('create-export', { json: body });
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  const reply = exportReplySchema.parse(created.json);
  expect(reply).toMatchObject({ object: 'export', status: 'SCHEDULED', channel: 'API', result: null, user_id: null, exported_object: body.exported_object });
  expect(jobs.sent).toEqual([{ type: 'export', projectId: ctx.projectId, exportId: reply.id }]);
  await deliver();
  const done = await api.call('get-export', { params: { exportId: reply.id } });
  expect(done.json).toMatchObject({ status: 'DONE' });
  const url = new URL((done.json.result as { url: string }).url);
  expect(url.origin).toBe(DOWNLOAD_BASE);
  const file = await api.call('download-export', { params: { exportId: reply.id }, query: url.search.slice(1), headers: {} });
  expect(file.status).toBe(200);
  return { id: reply.id, csv: file.text ?? '', reply: done.json };
}

async function deliver(workerFiles: ExportFiles = files): Promise<void> {
  const sent = jobs.sent.splice(0);
  const result = await makeJobWorkers({ runtime: ctx.runtime, files: workerFiles })({ Records: sent.map((j) => sqsRecord(JSON.stringify(j))) }, {} as never);
  expect(result.batchItemFailures).toEqual([]);
}

/** Text order by UTF-16 code units, as the worker sorts (not the locale's). */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Every voucher of the project as GET /v1/vouchers shows it now. */
const allVouchers = async (): Promise<Json[]> => (await ok(api.call('list-vouchers', { query: 'limit=100' }))).vouchers as Json[];

const csv = (header: string[], rows: Array<Array<string | number | null | undefined>>): string => csvRow(header) + rows.map((r) => csvRow(r)).join('');

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
  // Vouchers: two discounts and a gift card (its balance change is a voucher transaction).
  for (const [code, body] of [
    ['EXP-B', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, metadata: { note: 'says "hi", twice' } }],
    ['EXP-A', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } }],
    ['EXP-G', { type: 'GIFT_VOUCHER', gift: { amount: 10000 } }],
  ] as const) {
    tick();
    seen.vouchers.push(await ok(api.call('create-voucher', { params: { code }, json: body })));
  }
  for (const [source_id, name, city] of [
    ['cu-b', 'Bea', 'Oslo'],
    ['cu-a', 'Ann', 'Berlin'],
    ['cu-c', 'Cy', 'Oslo'],
  ]) {
    tick();
    seen.customers.push(await ok(api.call('create-customer', { json: { source_id, name, email: `${source_id}@example.com`, address: { city } } })));
  }
  for (const [source_id, amount, status] of [
    ['or-1', 1000, 'PAID'],
    ['or-2', 3000, 'CREATED'],
    ['or-3', 2000, 'PAID'],
  ] as const) {
    tick();
    seen.orders.push(await ok(api.call('create-order', { json: { source_id, amount, status } })));
  }
  tick();
  await ctx.campaignWith('Pubs', ['PUB-1', 'PUB-2']);
  for (const customer of ['cu-a', 'cu-b']) {
    tick();
    seen.publications.push(await ok(api.call('create-publication', { json: { customer: { source_id: customer }, campaign: { name: 'Pubs' } } })));
  }
  for (const [code, customer, amount] of [
    ['EXP-A', 'cu-a', 2000],
    ['EXP-B', 'cu-c', 4000],
  ]) {
    tick();
    seen.redemptions.push(
      await ok(
        api.call('redeem-stacked-discounts', {
          json: { redeemables: [{ object: 'voucher', id: code }], customer: { source_id: customer }, order: { amount } },
        }),
      ),
    );
  }
  tick();
  await ok(api.call('update-voucher-balance', { params: { code: 'EXP-G' }, json: { amount: 700, source_id: 'bal-1', reason: 'goodwill' } }));
  tick();
  await ok(api.call('update-voucher-balance', { params: { code: 'EXP-G' }, json: { amount: -200, source_id: 'bal-2' } }));
  seen.gift = await ok(api.call('get-voucher', { params: { code: 'EXP-G' } }));
  const loyalty = await newCampaign(ctx.campaigns, campaignBodies.LOYALTY_PROGRAM('Points'));
  seen.loyaltyCampaignId = loyalty.id as string;
  await seedBuckets(ctx.runtime, ctx.projectId, seen.loyaltyCampaignId, 40);
}, 120_000);

afterAll(() => s3.destroy());

describe('POST /v1/exports, per exported object', () => {
  it('voucher: the columns asked, in their order, ordered by code, filtered by type; CSV quoting of metadata', async () => {
    const { csv: file } = await exportCsv({
      exported_object: 'voucher',
      parameters: {
        fields: ['code', 'voucher_type', 'value', 'discount_type', 'active', 'metadata', 'id'],
        order: 'code',
        filters: { junction: 'and', voucher_type: { conditions: { $in: ['DISCOUNT_VOUCHER'] } } },
      },
    });
    const rows = (await allVouchers())
      .filter((v) => v.type === 'DISCOUNT_VOUCHER')
      .sort((a, b) => byText(String(a.code), String(b.code)))
      .map((v) => {
        const d = v.discount as Json;
        return [
          v.code as string,
          v.type as string,
          (d.amount_off ?? d.percent_off) as number,
          d.type as string,
          String(v.active),
          JSON.stringify(v.metadata),
          v.id as string,
        ];
      });
    expect(rows).toHaveLength(4);
    expect(file).toBe(csv(['code', 'voucher_type', 'value', 'discount_type', 'active', 'metadata', 'id'], rows));
    expect(file).toContain('"{""note"":""says \\""hi\\"", twice""}"');
  });

  it("voucher: no fields or order given: the reference's default columns, newest first", async () => {
    const { csv: file } = await exportCsv({ exported_object: 'voucher' });
    const rows = (await allVouchers())
      .sort((a, b) => byText(String(b.created_at), String(a.created_at)) || byText(String(b.id), String(a.id)))
      .map((v) => {
        const d = v.discount as Json | null;
        const value = d ? (d.amount_off ?? d.percent_off) : (v.gift as Json | null)?.amount;
        return [v.code as string, v.type as string, value as number, (d?.type ?? '') as string];
      });
    expect(rows).toHaveLength(5);
    expect(file).toBe(csv(['code', 'voucher_type', 'value', 'discount_type'], rows));
  });

  it('redemption: columns from the redemptions, oldest first, filtered by customer', async () => {
    const { csv: file } = await exportCsv({
      exported_object: 'redemption',
      parameters: { fields: ['id', 'voucher_code', 'customer_id', 'result', 'order_amount'], order: 'created_at' },
    });
    const list = (await ok(api.call('list-redemptions', { query: 'order=created_at' }))).redemptions as Json[];
    const codeOf = (r: Json) => ((r.voucher as Json | undefined)?.code ?? '') as string;
    const rows = list.map((r) => [r.id as string, codeOf(r), r.customer_id as string, r.result as string, (r.order as Json | null)?.total_amount as number]);
    // Two stacked redemptions: each a parent and its one child.
    expect(rows).toHaveLength(4);
    expect(file).toBe(csv(['id', 'voucher_code', 'customer_id', 'result', 'order_amount'], rows));
    const ann = seen.customers.find((c) => c.source_id === 'cu-a') as Json;
    const only = await exportCsv({
      exported_object: 'redemption',
      parameters: { fields: ['voucher_code'], order: 'created_at', filters: { customer_id: { conditions: { $is: ann.id } } } },
    });
    expect(only.csv).toBe(
      csv(
        ['voucher_code'],
        list.filter((r) => r.customer_id === ann.id).map((r) => [codeOf(r)]),
      ),
    );
    expect(only.csv).toContain('EXP-A');
  });

  it('customer: ordered by source_id, filtered by city', async () => {
    const { csv: file } = await exportCsv({
      exported_object: 'customer',
      parameters: { fields: ['source_id', 'name', 'email', 'address_city', 'id'], order: '-source_id', filters: { city: { conditions: { $is: 'Oslo' } } } },
    });
    const rows = seen.customers
      .filter((c) => (c.address as Json).city === 'Oslo')
      .sort((a, b) => byText(String(b.source_id), String(a.source_id)))
      .map((c) => [c.source_id as string, c.name as string, c.email as string, 'Oslo', c.id as string]);
    expect(file).toBe(csv(['source_id', 'name', 'email', 'address_city', 'id'], rows));
    const defaults = await exportCsv({ exported_object: 'customer' });
    expect(defaults.csv).toBe(
      csv(
        ['name', 'source_id'],
        [...seen.customers].reverse().map((c) => [c.name as string, c.source_id as string]),
      ),
    );
  });

  it('publication: voucher, customer and channel of each, newest first, filtered by customer_id', async () => {
    const { csv: file } = await exportCsv({ exported_object: 'publication', parameters: { fields: ['voucher_code', 'customer_id', 'channel', 'campaign'] } });
    const rows = [...seen.publications].reverse().map((p) => [(p.voucher as Json).code as string, p.customer_id as string, p.channel as string, 'Pubs']);
    expect(file).toBe(csv(['voucher_code', 'customer_id', 'channel', 'campaign'], rows));
    const first = seen.publications[0] as Json;
    const one = await exportCsv({
      exported_object: 'publication',
      parameters: { fields: ['voucher_code'], filters: { customer_id: { conditions: { $in: [first.customer_id] } } } },
    });
    expect(one.csv).toBe(csv(['voucher_code'], [[(first.voucher as Json).code as string]]));
  });

  it('order: ordered by status, filtered by amount with $more_than', async () => {
    const { csv: file } = await exportCsv({
      exported_object: 'order',
      parameters: {
        fields: ['source_id', 'status', 'amount', 'total_amount', 'id'],
        order: 'status',
        filters: { amount: { conditions: { $more_than: [1500] } } },
      },
    });
    const orders = (await ok(api.call('list-orders', { query: 'limit=100' }))).orders as Json[];
    const rows = orders
      .filter((o) => (o.amount as number) > 1500)
      .sort((a, b) => byText(String(a.status), String(b.status)) || byText(String(a.id), String(b.id)))
      .map((o) => [o.source_id as string, o.status as string, o.amount as number, o.total_amount as number, o.id as string]);
    expect(rows.length).toBeGreaterThan(1);
    expect(file).toBe(csv(['source_id', 'status', 'amount', 'total_amount', 'id'], rows));
  });

  it('points_expiration: the same file as the loyalty path for the campaign its filter names', async () => {
    const campaignId = seen.loyaltyCampaignId;
    const parameters = { fields: ['id', 'voucher_id', 'points', 'expires_at'], order: '-expires_at' };
    const { csv: file } = await exportCsv({
      exported_object: 'points_expiration',
      parameters: { ...parameters, filters: { campaign_id: { conditions: { $is: campaignId } } } },
    });
    const loyaltyPath = await api.call('create-points-expiration-export', { params: { campaignId }, json: { parameters } });
    expect(loyaltyPath.status).toBe(200);
    expect(jobs.sent.map((j) => j.type)).toEqual(['export-points-expiration']);
    await deliver();
    const done = await api.call('get-export', { params: { exportId: loyaltyPath.json.id as string } });
    const url = new URL((done.json.result as { url: string }).url);
    const other = await api.call('download-export', { params: { exportId: loyaltyPath.json.id as string }, query: url.search.slice(1), headers: {} });
    expect(file.split('\r\n')).toHaveLength(42);
    expect(file).toBe(other.text);
  });

  it('voucher_transactions: one voucher by its voucher_id filter, and the whole project sorted', async () => {
    const tx = (await ok(api.call('list-voucher-transactions', { params: { code: 'EXP-G' } }))).data as Json[];
    const fields = ['id', 'voucher_id', 'type', 'source_id', 'reason', 'amount', 'balance'];
    const rows = [...tx]
      .reverse()
      .map((t) => [
        t.id as string,
        t.voucher_id as string,
        t.type as string,
        t.source_id as string,
        (t.reason ?? '') as string,
        (t.details as Json).balance ? (((t.details as Json).balance as Json).amount as number) : 0,
        ((t.details as Json).balance as Json).balance as number,
      ]);
    const one = await exportCsv({
      exported_object: 'voucher_transactions',
      parameters: { fields, order: 'created_at', filters: { voucher_id: { conditions: { $is: seen.gift.id } } } },
    });
    expect(one.csv).toBe(csv(fields, rows));
    const all = await exportCsv({ exported_object: 'voucher_transactions', parameters: { fields, order: 'created_at' } });
    expect(all.csv).toBe(one.csv);
  });

  it('an export of zero rows is a header-only file', async () => {
    const { csv: file, reply } = await exportCsv({ exported_object: 'order', parameters: { filters: { status: { conditions: { $is: 'CANCELED' } } } } });
    expect(file).toBe(csvRow(['id', 'source_id', 'status']));
    expect(reply.status).toBe('DONE');
  });

  it('dates compare with $after / $before', async () => {
    const second = seen.customers[1] as Json;
    const { csv: file } = await exportCsv({
      exported_object: 'customer',
      parameters: { fields: ['source_id'], order: 'created_at', filters: { created_at: { conditions: { $after: second.created_at } } } },
    });
    expect(file).toBe(csv(['source_id'], [['cu-c']]));
  });
});

describe('POST /v1/exports, refused', () => {
  const cases: Array<[string, Json, RegExp]> = [
    ['an unknown field', { exported_object: 'voucher', parameters: { fields: ['code', 'shoe_size'] } }, /shoe_size/],
    ['a field the service does not store', { exported_object: 'customer', parameters: { fields: ['loyalty_points'] } }, /loyalty_points.*not exported/],
    ['an unknown filter field', { exported_object: 'order', parameters: { filters: { shoe_size: { conditions: { $is: '1' } } } } }, /shoe_size/],
    ['an unknown operator', { exported_object: 'order', parameters: { filters: { status: { conditions: { $sounds_like: 'PAID' } } } } }, /\$sounds_like/],
    ['$after on a text field', { exported_object: 'order', parameters: { filters: { status: { conditions: { $after: '2026-01-01' } } } } }, /\$after/],
    ['an unknown order', { exported_object: 'redemption', parameters: { order: 'shoe_size' } }, /shoe_size/],
    ['an unknown exported_object', { exported_object: 'shoe' }, /shoe/],
    ['a points_expiration export with no campaign', { exported_object: 'points_expiration' }, /campaign_id/],
  ];
  for (const [what, body, named] of cases) {
    it(`refuses ${what} with a 400 naming it`, async () => {
      const reply = await api.call('create-export', { json: body });
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.json)).toMatch(named);
      expect(jobs.sent).toEqual([]);
    });
  }
});

describe('GET /v1/exports and DELETE /v1/exports/{exportId}', () => {
  it('lists the exports newest first, paged, with the total; oldest first with order=created_at', async () => {
    const first = await ok(api.call('list-exports', { query: 'limit=2' }));
    const parsed = exportListReplySchema.parse(first);
    expect(parsed).toMatchObject({ object: 'list', data_ref: 'exports' });
    expect(parsed.total).toBeGreaterThan(10);
    const everything = exportListReplySchema.parse(await ok(api.call('list-exports', { query: 'limit=100' })));
    expect(everything.exports).toHaveLength(everything.total);
    const created = everything.exports.map((e) => e.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(parsed.exports.map((e) => e.id)).toEqual(everything.exports.slice(0, 2).map((e) => e.id));
    const second = exportListReplySchema.parse(await ok(api.call('list-exports', { query: 'limit=2&page=2' })));
    expect(second.exports.map((e) => e.id)).toEqual(everything.exports.slice(2, 4).map((e) => e.id));
    const oldest = exportListReplySchema.parse(await ok(api.call('list-exports', { query: 'limit=100&order=created_at' })));
    expect(oldest.exports.map((e) => e.id)).toEqual([...everything.exports].reverse().map((e) => e.id));
    expect(everything.exports.every((e) => e.status !== 'DONE' || (e.result as { url?: string }).url?.startsWith(DOWNLOAD_BASE))).toBe(true);
    expect((await api.call('list-exports', { query: 'order=-status' })).status).toBe(400);
  });

  it('deletes an export and its file; a link minted before answers 401 afterwards, and the export is 404', async () => {
    const { id, reply } = await exportCsv({ exported_object: 'customer' });
    const url = new URL((reply.result as { url: string }).url);
    const key = `exports/${ctx.projectId}/${id}.csv`;
    const e = engines();
    await s3.send(new HeadObjectCommand({ Bucket: e.bucketName, Key: key }));
    const deleted = await api.call('delete-export', { params: { exportId: id } });
    expect(deleted.status).toBe(204);
    await expect(s3.send(new HeadObjectCommand({ Bucket: e.bucketName, Key: key }))).rejects.toMatchObject({ name: 'NotFound' });
    const download = await api.call('download-export', { params: { exportId: id }, query: url.search.slice(1), headers: {} });
    expect(download.status).toBe(401);
    expect((await api.call('get-export', { params: { exportId: id } })).status).toBe(404);
    const again = await api.call('delete-export', { params: { exportId: id } });
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ code: 404, key: 'not_found' });
    const listed = exportListReplySchema.parse(await ok(api.call('list-exports', { query: 'limit=100' })));
    expect(listed.exports.map((x) => x.id)).not.toContain(id);
  });

  it('a job whose export was deleted while queued writes no file (its message fails as one for an unknown subject)', async () => {
    const created = await ok(api.call('create-export', { json: { exported_object: 'order' } }));
    expect((await api.call('delete-export', { params: { exportId: created.id as string } })).status).toBe(204);
    const sent = jobs.sent.splice(0);
    const result = await makeJobWorkers({ runtime: ctx.runtime, files })({ Records: sent.map((j) => sqsRecord(JSON.stringify(j))) }, {} as never);
    expect(result.batchItemFailures).toHaveLength(1);
    const key = `exports/${ctx.projectId}/${created.id as string}.csv`;
    await expect(s3.send(new HeadObjectCommand({ Bucket: engines().bucketName, Key: key }))).rejects.toMatchObject({ name: 'NotFound' });
  });
});

describe('export jobs: crash safety', () => {
  it('a redelivered job of an IN_PROGRESS export writes the whole file again', async () => {
    const created = await ok(api.call('create-export', { json: { exported_object: 'customer', parameters: { fields: ['source_id'], order: 'source_id' } } }));
    const id = created.id as string;
    // A worker took it and died: IN_PROGRESS, a partial file under its key.
    await startExport(ctx.runtime, ctx.projectId, id, ctx.clock.now().toISOString());
    const partial = await files.upload(`exports/${ctx.projectId}/${id}.csv`, { contentType: 'text/csv', downloadName: 'x.csv' });
    await partial.write(Buffer.from('garbage\r\n'));
    await partial.complete();
    await deliver();
    const done = await api.call('get-export', { params: { exportId: id } });
    expect(done.json.status).toBe('DONE');
    const url = new URL((done.json.result as { url: string }).url);
    const file = await api.call('download-export', { params: { exportId: id }, query: url.search.slice(1), headers: {} });
    expect(file.text).toBe(csv(['source_id'], [['cu-a'], ['cu-b'], ['cu-c']]));
  });

  it('a failure on the last delivery ends the export ERROR with the reason', async () => {
    const created = await ok(api.call('create-export', { json: { exported_object: 'voucher' } }));
    const failing: ExportFiles = {
      ...files,
      upload: async (key, options) => {
        const real = await files.upload(key, options);
        return { write: async () => Promise.reject(new Error('disk on fire')), complete: () => real.complete(), abort: () => real.abort() };
      },
    };
    const body = JSON.stringify(jobs.sent.splice(0)[0]);
    const early = await makeJobWorkers({ runtime: ctx.runtime, files: failing })({ Records: [sqsRecord(body, 1)] }, {} as never);
    expect(early.batchItemFailures).toHaveLength(1);
    expect((await api.call('get-export', { params: { exportId: created.id as string } })).json.status).toBe('IN_PROGRESS');
    const last = await makeJobWorkers({ runtime: ctx.runtime, files: failing })({ Records: [sqsRecord(body, 3)] }, {} as never);
    expect(last.batchItemFailures).toHaveLength(1);
    expect((await api.call('get-export', { params: { exportId: created.id as string } })).json).toMatchObject({
      status: 'ERROR',
      result: { message: expect.stringContaining('disk on fire') },
    });
  });
});
