import { gunzipSync } from 'node:zlib';
import { BatchWriteCommand, type DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHandler as makeWorker } from '../../../functions/workers/export-jobs-worker.js';
import { lambdaContext } from '../../../infra/local/api-gateway-event.js';
import { type Clock, systemClock } from '../../../lib/clock.js';
import { getCustomerErasure } from '../../../lib/customers/customer-erasure.service.js';
import { exportObjectKey } from '../../../lib/exports/export.js';
import type { ExportFiles, ReadableExportFiles } from '../../../lib/exports/export-files.js';
import { getExport } from '../../../lib/exports/export.repo.js';
import { downloadExport } from '../../../lib/exports/export.service.js';
import { createS3ExportFiles } from '../../../lib/exports/s3-export-files.js';
import { createS3Presigner } from '../../../lib/exports/s3-presigner.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { resumeOpenJobs } from '../../../lib/jobs/resume-open-jobs.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { createOwnTable, type OwnTable } from '../../support/hostile/route-harness.js';
import { engines, keyPairHeaders, newProject } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';
import { stoppingAfterTransactions } from '../../support/job-workers.js';

/**
 * POST /v1/customers/{customerId}/permanent-deletion (lib/customers/customer-erasure.*): the
 * customer goes at once, and the `erase-customer` job leaves no personal value of it anywhere in
 * the table or in the project's export files (s3rver) while redemptions stay counted. On a table
 * of its own, so a Scan is cheap and sees only this file's items.
 */

let table: OwnTable;
let runtime: Runtime;
/** The job's clock: past the erasure's settling time, so the worker does not wait for in-flight requests. */
let jobRuntime: Runtime;
/** The export bucket (s3rver), in small parts so that a rewritten file is a multipart upload. */
let files: ReadableExportFiles;

const bucket = () => {
  const e = engines();
  return { region: e.region, bucketName: e.bucketName, s3Endpoint: e.s3Endpoint };
};

beforeAll(async () => {
  files = createS3ExportFiles(bucket(), { partBytes: 1024 });
  table = await createOwnTable('customer-erasure');
  runtime = table.runtime({ clock: systemClock });
  const later: Clock = { now: () => new Date(Date.now() + 60_000) };
  jobRuntime = table.runtime({ clock: later });
});

afterAll(async () => {
  await table.drop();
});

type Json = Record<string, unknown>;

/** Runs jobs on the export jobs worker: the erasure's lane (and the exports'). */
async function work(jobs: JobMessage[], options: { stop?: AbortSignal; ddb?: DynamoDBDocumentClient; receives?: number; files?: ExportFiles } = {}) {
  const records: SQSRecord[] = jobs.map((job) => sqsRecord(JSON.stringify(job), options.receives ?? 1));
  const worker = makeWorker({
    runtime: { ...jobRuntime, ddb: options.ddb ?? jobRuntime.ddb },
    files: options.files ?? files,
    ...(options.stop ? { stop: options.stop } : {}),
  });
  return worker({ Records: records }, lambdaContext('export-jobs-worker'));
}

/** An export's file as the bucket holds it now; null when there is none. */
async function fileOf(projectId: string, exportId: string): Promise<string | null> {
  const body = await files.read(exportObjectKey(projectId, exportId));
  if (body === 'missing') return null;
  const chunks: Buffer[] = [];
  for await (const piece of body) chunks.push(Buffer.from(piece));
  return Buffer.concat(chunks).toString('utf8');
}

const lines = (csv: string) => csv.split('\r\n').filter((l, i, all) => i < all.length - 1 || l !== '');

/** Creates exports (POST /v1/exports) and runs their jobs; their ids, in the order of `bodies`. */
async function exportsOf(api: Awaited<ReturnType<typeof shop>>['api'], jobs: RecordingJobQueue, bodies: Json[]): Promise<string[]> {
  const ids: string[] = [];
  for (const body of bodies) {
    const created = await api.call('create-export', { json: body });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    ids.push(created.json.id as string);
  }
  const sent = jobs.sent.splice(0);
  expect(sent.every((j) => j.type === 'export')).toBe(true);
  expect((await work(sent)).batchItemFailures).toEqual([]);
  return ids;
}

/** Export bodies whose files carry a customer's personal data, each way an export can. */
const EXPORTS_WITH_CUSTOMERS: Json[] = [
  {
    exported_object: 'customer',
    parameters: {
      fields: [
        'id',
        'name',
        'email',
        'source_id',
        'phone',
        'description',
        'birthdate',
        'address_city',
        'address_line_1',
        'address_postal_code',
        'address_country',
        'metadata',
        'created_at',
      ],
    },
  },
  { exported_object: 'customer', parameters: { fields: ['name', 'source_id'] } },
  { exported_object: 'redemption', parameters: { fields: ['id', 'voucher_code', 'customer_id', 'customer_source_id', 'metadata', 'result'] } },
  { exported_object: 'publication', parameters: { fields: ['voucher_code', 'customer_id', 'customer_source_id', 'metadata'] } },
  { exported_object: 'order', parameters: { fields: ['id', 'customer_id', 'metadata', 'amount'] } },
];
/** A customer export whose columns cannot tell the customer's row from another's: its file is deleted. */
const UNTIED_EXPORT: Json = { exported_object: 'customer', parameters: { fields: ['name', 'address_city'] } };

/** Erin's personal values: every one must be gone from the table after the job. */
const erin = (tag: string) => ({
  source_id: `erin-src-${tag}`,
  name: `Erin Erasable ${tag}`,
  email: `erin.${tag}@shop.example`,
  phone: `+48 600 ${tag}`,
  birthdate: '1990-04-05',
  description: `VIP note ${tag}`,
  address: { city: `Oliwa-${tag}`, line_1: `Ul. Prywatna ${tag}`, postal_code: `80-${tag}`, country: `PL-${tag}` },
  metadata: { favourite: `blue-gnomes-${tag}` },
});
const personalValues = (c: ReturnType<typeof erin>) => [
  c.source_id,
  c.name,
  c.email,
  c.phone,
  c.description,
  c.address.city,
  c.address.line_1,
  c.address.postal_code,
  c.address.country,
  c.metadata.favourite,
];

/**
 * Every item of the table, whole (nested maps included; a gzipped stored reply unzipped), as JSON
 * text: what "no personal value remains anywhere" is checked against.
 */
async function everyItem(): Promise<string[]> {
  const out: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await runtime.ddb.send(new ScanCommand({ TableName: table.tableName, ConsistentRead: true, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      out.push(JSON.stringify(item, (_k, v: unknown) => (v instanceof Uint8Array ? gunzipSync(v).toString('utf8') : v instanceof Set ? [...v] : v)));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/** The items of one project (whole), as everyItem gives them. */
const projectItems = async (projectId: string) =>
  (await everyItem()).filter((i) => i.includes(`"PK":"P#${projectId}`) || i.includes(`"projectId":"${projectId}"`));

const keyOf = (serialised: string) => {
  const item = JSON.parse(serialised) as Json;
  return `${String(item.PK)} | ${String(item.SK)}`;
};

/** A project with a campaign of `codes` vouchers, and its API client. */
async function shop(codes: number) {
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const campaigns = campaignApi(runtime, pair, jobs);
  const made = await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Erasure'));
  expect((await campaigns.addVoucher(made.id as string, {}, `vouchers_count=${codes}`)).status).toBe(202);
  await jobs.deliver(runtime);
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  const vouchers = (await api.call('list-vouchers', { query: `campaign_id=${made.id as string}&limit=100` })).json.vouchers as Json[];
  return { projectId: pair.project_id, api, jobs, headers: keyPairHeaders(pair), codes: vouchers.map((v) => v.code as string) };
}

/** Successful redemptions stored (parents: a redemption of one code stores a parent and its child). */
const redemptionItems = async (projectId: string) =>
  (await projectItems(projectId)).filter((i) => {
    const item = JSON.parse(i) as Json;
    return item.entity === 'redemption' && item.redemption === null && item.result === 'SUCCESS';
  }).length;

describe('POST /v1/customers/{customerId}/permanent-deletion', () => {
  it('erases the customer and every copy of its personal data, keeps the redemption counted, and answers the same deletion when asked again', async () => {
    const { projectId, api, jobs, codes, headers } = await shop(3);
    const person = erin('7781');
    const values = personalValues(person);
    const created = await api.call('create-customer', { json: person, headers: { ...headers, 'idempotency-key': 'erin-create' } });
    expect(created.status).toBe(200);
    const customerId = created.json.id as string;
    const bystander = await api.call('create-customer', { json: { source_id: 'bob', email: 'bob@shop.example', name: 'Bob Stays' } });
    expect(
      (await api.call('create-custom-event-schema', { json: { name: 'visited', schema: { properties: { note: { type: 'string', optional: true } } } } }))
        .status,
    ).toBe(200);
    expect((await api.call('track-custom-event', { json: { event: 'visited', customer: { id: customerId }, metadata: { note: person.email } } })).status).toBe(
      200,
    );
    expect(
      (await api.call('track-custom-event', { json: { event: 'visited', customer: { source_id: 'bob' }, metadata: { note: 'bob was here' } } })).status,
    ).toBe(200);
    const published = await api.call('create-publication', { json: { voucher: codes[0], customer: { id: customerId } } });
    expect(published.status, JSON.stringify(published.json)).toBe(200);
    const redeemed = await api.call('redeem-voucher', {
      params: { code: codes[1] as string },
      json: { customer: { id: customerId }, order: { amount: 1000 } },
    });
    expect(redeemed.status, JSON.stringify(redeemed.json)).toBe(200);
    const order = await api.call('create-order', { json: { amount: 2000, customer: { id: customerId }, metadata: { gift_for: person.name } } });
    expect(order.status, JSON.stringify(order.json)).toBe(200);
    // Export files not downloaded yet: every export that can carry the customer's data, and one that cannot tell rows apart.
    const exportIds = await exportsOf(api, jobs, EXPORTS_WITH_CUSTOMERS);
    const [untied] = await exportsOf(api, jobs, [UNTIED_EXPORT]);
    const filesBefore = await Promise.all(exportIds.map(async (id) => (await fileOf(projectId, id)) ?? ''));
    for (const [i, csv] of filesBefore.entries())
      expect(
        values.some((v) => csv.includes(v)),
        `export ${i} before`,
      ).toBe(true);
    expect(filesBefore[0]).toContain('bob@shop.example');
    expect(await fileOf(projectId, untied as string)).toContain(person.name);

    const before = await projectItems(projectId);
    expect(before.some((i) => values.some((v) => i.includes(v)))).toBe(true);
    const holders = before.filter((i) => values.some((v) => i.includes(v)));
    const entityOf = (i: string) => (JSON.parse(i) as Json).entity as string;
    expect(new Set(holders.map(entityOf))).toEqual(
      new Set(['customer', 'customer_source_id', 'custom_event', 'customer_activity', 'publication', 'redemption', 'order', 'idempotency_record']),
    );
    const redemptionsBefore = await redemptionItems(projectId);
    expect(redemptionsBefore).toBeGreaterThan(0);

    const reply = await api.call('customer-permanently-deletion', { params: { customerId }, json: {} });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    expect(reply.json).toMatchObject({
      id: expect.stringMatching(/^del_/),
      related_object_id: customerId,
      related_object: 'customer',
      status: 'IN_PROGRESS',
      object: 'pernament_deletion',
    });
    // The customer is gone as a whole from the reply on.
    expect((await api.call('get-customer', { params: { customerId } })).status).toBe(404);
    expect((await api.call('get-customer', { params: { customerId: person.source_id } })).status).toBe(404);
    expect(jobs.sent).toEqual([{ type: 'erase-customer', projectId, customerId }]);
    expect((await work(jobs.sent.splice(0))).batchItemFailures).toEqual([]);

    // The export files: no personal value of the customer left, every row still there, the other customers' rows as they were.
    for (const [i, id] of exportIds.entries()) {
      const csv = (await fileOf(projectId, id)) ?? '';
      const was = filesBefore[i] ?? '';
      expect(
        values.filter((v) => csv.includes(v)),
        `export ${i} (${id}) after:\n${csv}`,
      ).toEqual([]);
      expect(lines(csv)).toHaveLength(lines(was).length);
      const untouched = lines(was).filter((l) => !l.includes(customerId) && !values.some((v) => l.includes(v)));
      expect(lines(csv)).toEqual(expect.arrayContaining(untouched));
    }
    expect(lines((await fileOf(projectId, exportIds[0] as string)) ?? '')).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^${customerId},,,,`))]),
    );
    expect(await fileOf(projectId, exportIds[0] as string)).toContain('Bob Stays,bob@shop.example,bob');
    // The file whose rows cannot be told apart is gone, and its export says so.
    expect(await fileOf(projectId, untied as string)).toBeNull();
    expect(await getExport(runtime, projectId, untied as string)).toMatchObject({ status: 'DONE', fileErasedAt: expect.any(String) });
    await expect(downloadExport({ ...runtime, files: createS3Presigner(bucket()) }, projectId, untied as string)).rejects.toMatchObject({
      details: expect.stringContaining('permanent deletion deleted it'),
    });
    expect(await getCustomerErasure(runtime, projectId, customerId)).toMatchObject({ status: 'DONE', filesRewritten: exportIds.length, filesDeleted: 1 });

    const after = await projectItems(projectId);
    const all = await everyItem();
    const remaining = all.filter((i) => values.some((v) => i.includes(v)));
    expect(remaining, `items still holding Erin's data:\n${remaining.map(keyOf).join('\n')}`).toEqual([]);
    // What went: the customer's own items and events; what stayed: the rest, anonymised.
    const gone = before.map(keyOf).filter((k) => !after.map(keyOf).includes(k));
    expect(gone).toEqual(
      expect.arrayContaining([`P#${projectId}#CUSTOMER#${customerId} | CUSTOMER`, `P#${projectId}#CUSTOMER_SRC#${person.source_id} | CUSTOMER_SRC`]),
    );
    expect(gone.some((k) => k.startsWith(`P#${projectId}#CUSTOMER#${customerId}#EVENTS |`))).toBe(true);
    // Copies in other items are anonymised in place, never deleted: the publication, redemption, order and stored reply stay.
    const anonymised = holders.filter((i) => ['publication', 'redemption', 'order', 'idempotency_record'].includes(entityOf(i))).map(keyOf);
    expect(after.map(keyOf)).toEqual(expect.arrayContaining(anonymised));
    expect(await redemptionItems(projectId)).toBe(redemptionsBefore);
    expect((await api.call('get-voucher', { params: { code: codes[1] as string } })).json).toMatchObject({ redemption: { redeemed_quantity: 1 } });
    expect((await api.call('get-order', { params: { orderId: order.json.id as string } })).status).toBe(200);
    expect((await api.call('get-customer', { params: { customerId: bystander.json.id as string } })).json).toMatchObject({
      email: 'bob@shop.example',
      name: 'Bob Stays',
    });

    const again = await api.call('customer-permanently-deletion', { params: { customerId }, json: {} });
    expect(again.json).toMatchObject({ id: reply.json.id, status: 'DONE', data_json: { events: 1, customer: 1 } });
    expect(((again.json.data_json as Json).orders as number) >= 1).toBe(true);
    expect(jobs.sent).toEqual([]);
    expect((await api.call('customer-permanently-deletion', { params: { customerId: person.source_id }, json: {} })).status).toBe(404);
    expect((await api.call('customer-permanently-deletion', { params: { customerId: 'cust_nobody' }, json: {} })).json).toMatchObject({
      code: 404,
      key: 'not_found',
      resource_type: 'customer',
    });
  });

  it('an erasure racing redemptions of the same customer leaves no personal data, and the redemptions that won are counted', async () => {
    const { projectId, api, jobs, codes } = await shop(6);
    const person = erin('5521');
    const customerId = (await api.call('create-customer', { json: person })).json.id as string;
    const [erasure, ...redemptions] = await Promise.all([
      api.call('customer-permanently-deletion', { params: { customerId }, json: {} }),
      ...codes.map((code) => api.call('redeem-voucher', { params: { code }, json: { customer: { id: customerId }, order: { amount: 1000 } } })),
    ]);
    expect(erasure?.status).toBe(200);
    const winners = redemptions.filter((r) => r.status === 200).length;
    expect(redemptions.every((r) => r.status === 200 || r.status === 404)).toBe(true);
    await work(jobs.sent.splice(0).filter((j) => j.type === 'erase-customer'));
    expect((await getCustomerErasure(runtime, projectId, customerId))?.status).toBe('DONE');
    const values = personalValues(person);
    expect((await everyItem()).filter((i) => values.some((v) => i.includes(v)))).toEqual([]);
    expect(await redemptionItems(projectId)).toBe(winners);
    const redeemed = await Promise.all(codes.map(async (code) => (await api.call('get-voucher', { params: { code } })).json.redemption as Json));
    expect(redeemed.reduce((n, r) => n + (r.redeemed_quantity as number), 0)).toBe(winners);
  });

  it('stopped mid-way (between chunks) the customer is already gone as a whole; the start-up reconcile resumes the erasure and it ends with nothing personal left', async () => {
    const { projectId, api, jobs } = await shop(3);
    const person = erin('9034');
    const customerId = (await api.call('create-customer', { json: person })).json.id as string;
    // Volume: 300 items naming the customer with a personal value each (as an order's or an event's copies would).
    for (let i = 0; i < 300; i += 25) {
      const puts = Array.from({ length: 25 }, (_, k) => ({
        PutRequest: { Item: { PK: `P#${projectId}#NOTE#${i + k}`, SK: 'NOTE', entity: 'note', v: 1, customerId, about: { email: person.email, n: i + k } } },
      }));
      await runtime.ddb.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: puts } }));
    }
    expect((await api.call('customer-permanently-deletion', { params: { customerId }, json: {} })).status).toBe(200);
    const [job] = jobs.sent.splice(0);
    const stop = new AbortController();
    const reply = await work([job as JobMessage], { stop: stop.signal, ddb: stoppingAfterTransactions(jobRuntime.ddb, stop, 2), receives: 3 });
    expect(reply.batchItemFailures).toHaveLength(1);
    const stopped = await getCustomerErasure(runtime, projectId, customerId);
    expect(stopped?.status).toBe('IN_PROGRESS');
    const left = (await everyItem()).filter((i) => i.includes(person.email) && !i.includes('"entity":"customer_erasure"')).length;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(300);
    expect((await api.call('get-customer', { params: { customerId } })).status).toBe(404);

    const queue = new RecordingJobQueue();
    await resumeOpenJobs(runtime, queue);
    const resumed = queue.sent.filter((j) => j.type === 'erase-customer' && j.customerId === customerId);
    expect(resumed).toEqual([{ type: 'erase-customer', projectId, customerId }]);
    await work(resumed);
    // The 300 seeded items and the customer's own activity record (customer.created, in its events partition).
    expect(await getCustomerErasure(runtime, projectId, customerId)).toMatchObject({ status: 'DONE', counts: { customerEvents: 301 } });
    expect((await everyItem()).filter((i) => personalValues(person).some((v) => i.includes(v)))).toEqual([]);
  });

  it('export files: a crash mid-file leaves the old file whole and the erasure IN_PROGRESS; the resumed job goes on from the last file done; the last delivery ends it FAILED with the reason', async () => {
    const { projectId, api, jobs, codes } = await shop(2);
    const person = erin('6610');
    const values = personalValues(person);
    const customerId = (await api.call('create-customer', { json: person })).json.id as string;
    expect((await api.call('create-customer', { json: { source_id: 'bob', email: 'bob@shop.example', name: 'Bob Stays' } })).status).toBe(200);
    expect(
      (await api.call('redeem-voucher', { params: { code: codes[0] as string }, json: { customer: { id: customerId }, order: { amount: 1000 } } })).status,
    ).toBe(200);
    const [customers, redemptions] = await exportsOf(api, jobs, [EXPORTS_WITH_CUSTOMERS[0] as Json, EXPORTS_WITH_CUSTOMERS[2] as Json]);
    const redemptionsBefore = (await fileOf(projectId, redemptions as string)) ?? '';
    expect(redemptionsBefore).toContain(person.source_id);
    expect((await api.call('customer-permanently-deletion', { params: { customerId }, json: {} })).status).toBe(200);
    const [job] = jobs.sent.splice(0) as [JobMessage];

    // The process dies as the second file's upload completes: its multipart upload is left behind, never completed.
    let completes = 0;
    const dying: ExportFiles = {
      ...files,
      upload: async (key, options) => {
        const upload = await files.upload(key, options);
        return {
          write: (chunk) => upload.write(chunk),
          complete: async () => {
            if (++completes >= 2) throw new Error('killed mid-file');
            await upload.complete();
          },
          abort: async () => undefined,
        };
      },
    };
    expect((await work([job], { files: dying })).batchItemFailures).toHaveLength(1);
    expect(await getCustomerErasure(runtime, projectId, customerId)).toMatchObject({
      status: 'IN_PROGRESS',
      walkEndedAt: expect.any(String),
      filesRewritten: 1,
    });
    const customersAfter = await fileOf(projectId, customers as string);
    expect(values.filter((v) => (customersAfter ?? '').includes(v))).toEqual([]);
    // The file in hand is the old one, whole.
    expect(await fileOf(projectId, redemptions as string)).toBe(redemptionsBefore);

    // Its last delivery dies the same way: FAILED with the reason, the values it looks for kept for a rerun by hand.
    completes = 1;
    expect((await work([job], { files: dying, receives: 3 })).batchItemFailures).toHaveLength(1);
    const failed = await getCustomerErasure(runtime, projectId, customerId);
    expect(failed).toMatchObject({ status: 'FAILED', failure: expect.stringContaining('killed mid-file') });
    expect(failed?.personal?.values).toEqual(expect.arrayContaining([person.source_id]));
    expect(await fileOf(projectId, redemptions as string)).toBe(redemptionsBefore);

    // Set back to IN_PROGRESS by hand (docs/architecture.md), the job goes on from the last file done and ends DONE.
    await runtime.ddb.send(
      new UpdateCommand({
        TableName: runtime.tableName,
        Key: { PK: `P#${projectId}#CUSTOMER_ERASURE#${customerId}`, SK: 'CUSTOMER_ERASURE' },
        UpdateExpression: 'SET #s = :open REMOVE failure',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':open': 'IN_PROGRESS' },
      }),
    );
    const read: string[] = [];
    const counting: ExportFiles = {
      ...files,
      read: (key) => {
        read.push(key);
        return files.read(key);
      },
    };
    expect((await work([job], { files: counting })).batchItemFailures).toEqual([]);
    expect(read).toEqual([exportObjectKey(projectId, redemptions as string)]);
    expect(await getCustomerErasure(runtime, projectId, customerId)).toMatchObject({ status: 'DONE', filesRewritten: 2 });
    const after = (await fileOf(projectId, redemptions as string)) ?? '';
    expect(values.filter((v) => after.includes(v))).toEqual([]);
    expect(lines(after)).toHaveLength(lines(redemptionsBefore).length);
    expect(after).toContain(customerId);
    expect((await everyItem()).filter((i) => values.some((v) => i.includes(v)))).toEqual([]);
  });

  it('an export still SCHEDULED when the erasure reaches the files is run to its end first and written without the customer; its own job then finds it final', async () => {
    const { projectId, api, jobs, codes } = await shop(2);
    const person = erin('4402');
    const customerId = (await api.call('create-customer', { json: person })).json.id as string;
    expect(
      (await api.call('redeem-voucher', { params: { code: codes[0] as string }, json: { customer: { id: customerId }, order: { amount: 1000 } } })).status,
    ).toBe(200);
    const created = await api.call('create-export', { json: EXPORTS_WITH_CUSTOMERS[2] });
    const exportId = created.json.id as string;
    expect((await api.call('customer-permanently-deletion', { params: { customerId }, json: {} })).status).toBe(200);
    const [exportJob, erasureJob] = jobs.sent.splice(0) as [JobMessage, JobMessage];
    expect(erasureJob.type).toBe('erase-customer');
    expect((await work([erasureJob])).batchItemFailures).toEqual([]);
    expect(await getCustomerErasure(runtime, projectId, customerId)).toMatchObject({ status: 'DONE' });
    expect(await getExport(runtime, projectId, exportId)).toMatchObject({ status: 'DONE', rowCount: expect.any(Number) });
    const csv = (await fileOf(projectId, exportId)) ?? '';
    expect(csv).toContain(customerId);
    expect(personalValues(person).filter((v) => csv.includes(v))).toEqual([]);
    expect((await work([exportJob])).batchItemFailures).toEqual([]);
    expect(await fileOf(projectId, exportId)).toBe(csv);
  });

  it('a large file (20,000 rows, 1.3 MB) is rewritten streamed, in parts, with every row kept; stopped mid-file (Ctrl-C) it stays as it was until the next run', async () => {
    const { projectId, api, jobs } = await shop(2);
    const person = erin('3307');
    const customerId = (await api.call('create-customer', { json: person })).json.id as string;
    const [exportId] = await exportsOf(api, jobs, [{ exported_object: 'customer', parameters: { fields: ['id', 'name', 'email', 'source_id'] } }]);
    // The file as a big project's export would be: the customer's row among 20,000 others.
    const key = exportObjectKey(projectId, exportId as string);
    const upload = await files.upload(key, { contentType: 'text/csv; charset=utf-8', downloadName: 'x.csv' });
    await upload.write(Buffer.from('id,name,email,source_id\r\n'));
    for (let chunk = 0; chunk < 20; chunk += 1) {
      let text = '';
      for (let i = 0; i < 1000; i += 1) {
        const n = chunk * 1000 + i;
        text +=
          n === 10_500
            ? `${customerId},${person.name},${person.email},${person.source_id}\r\n`
            : `cust_other${n},"Other, ${n}",other${n}@shop.example,src-${n}\r\n`;
      }
      await upload.write(Buffer.from(text));
    }
    await upload.complete();
    expect((await api.call('customer-permanently-deletion', { params: { customerId }, json: {} })).status).toBe(200);
    const [job] = jobs.sent.splice(0) as [JobMessage];
    const original = await fileOf(projectId, exportId as string);
    let writes = 0;
    const stop = new AbortController();
    const counting: ExportFiles = {
      ...files,
      upload: async (k, options) => {
        const real = await files.upload(k, options);
        return {
          ...real,
          write: (chunk) => {
            writes += 1;
            if (writes === 2) stop.abort();
            return real.write(chunk);
          },
        };
      },
    };
    // Ctrl-C after the second part: the job stops at its next write, the upload is abandoned, the old file stays whole.
    expect((await work([job], { files: counting, stop: stop.signal })).batchItemFailures).toHaveLength(1);
    expect(await fileOf(projectId, exportId as string)).toBe(original);
    expect(await getCustomerErasure(runtime, projectId, customerId)).toMatchObject({ status: 'IN_PROGRESS', walkEndedAt: expect.any(String) });
    writes = 100;
    const started = Date.now();
    expect((await work([job], { files: counting })).batchItemFailures).toEqual([]);
    const took = Date.now() - started;
    const csv = (await fileOf(projectId, exportId as string)) ?? '';
    expect(lines(csv)).toHaveLength(20_001);
    expect(csv).toContain(`\r\n${customerId},,,\r\n`);
    expect(personalValues(person).filter((v) => csv.includes(v))).toEqual([]);
    expect(csv).toContain('cust_other19999,"Other, 19999",other19999@shop.example,src-19999\r\n');
    expect(writes - 100, `rewritten in ${took} ms`).toBeGreaterThan(4);
  });
});
