import { gunzipSync } from 'node:zlib';
import { BatchWriteCommand, type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHandler as makeWorker } from '../../../functions/workers/jobs-worker.js';
import { lambdaContext } from '../../../infra/local/api-gateway-event.js';
import { type Clock, systemClock } from '../../../lib/clock.js';
import { getCustomerErasure } from '../../../lib/customers/customer-erasure.service.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { resumeOpenJobs } from '../../../lib/jobs/resume-open-jobs.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { createOwnTable, type OwnTable } from '../../support/hostile/route-harness.js';
import { keyPairHeaders, newProject } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';
import { stoppingAfterTransactions } from '../../support/job-workers.js';

/**
 * POST /v1/customers/{customerId}/permanent-deletion (lib/customers/customer-erasure.*): the
 * customer goes at once, and the `erase-customer` job leaves no personal value of it anywhere in
 * the table while redemptions stay counted. On a table of its own, so a Scan is cheap and sees
 * only this file's items.
 */

let table: OwnTable;
let runtime: Runtime;
/** The job's clock: past the erasure's settling time, so the worker does not wait for in-flight requests. */
let jobRuntime: Runtime;

beforeAll(async () => {
  table = await createOwnTable('customer-erasure');
  runtime = table.runtime({ clock: systemClock });
  const later: Clock = { now: () => new Date(Date.now() + 60_000) };
  jobRuntime = table.runtime({ clock: later });
});

afterAll(async () => {
  await table.drop();
});

type Json = Record<string, unknown>;

async function work(jobs: JobMessage[], options: { stop?: AbortSignal; ddb?: DynamoDBDocumentClient; receives?: number } = {}) {
  const records: SQSRecord[] = jobs.map((job) => sqsRecord(JSON.stringify(job), options.receives ?? 1));
  const worker = makeWorker({ runtime: { ...jobRuntime, ddb: options.ddb ?? jobRuntime.ddb }, ...(options.stop ? { stop: options.stop } : {}) });
  return worker({ Records: records }, lambdaContext('jobs-worker'));
}

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

    const before = await projectItems(projectId);
    const values = personalValues(person);
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
    await work(jobs.sent.splice(0));

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
});
