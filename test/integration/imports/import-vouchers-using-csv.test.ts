import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { makeHandler as makeJobsWorker } from '../../../functions/workers/jobs-worker.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { systemClock } from '../../../lib/clock.js';
import { openJob } from '../../../lib/db/entities.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { openJobKey } from '../../../lib/jobs/open-job.repo.js';
import { listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { apiClient } from '../../support/api-client.js';
import { campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';

const runtime = testRuntime({ clock: systemClock });

async function setup() {
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  const takeJob = (): JobMessage => {
    const job = jobs.sent.splice(0)[0];
    if (!job) throw new Error('expected a job');
    return job;
  };
  const work = (job: JobMessage, ddb: DynamoDBDocumentClient = runtime.ddb) =>
    makeJobsWorker({ runtime: { ...runtime, ddb } })({ Records: [sqsRecord(JSON.stringify(job), 1)] }, {} as never);
  const action = async (id: string) => (await api.call('get-async-action', { params: { asyncActionId: id } })).json;
  return { projectId: pair.project_id, jobs, api, takeJob, work, action };
}

/** A table client whose TransactWriteItems after the first `writes` never answer: the process was killed there. */
function killedAfter(ddb: DynamoDBDocumentClient, writes: number) {
  let count = 0;
  const proxy = new Proxy(ddb, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
      return (command: { constructor: { name: string } }) => {
        if (command.constructor.name === 'TransactWriteCommand' && ++count > writes) return new Promise(() => undefined);
        return (target.send as (c: unknown) => Promise<unknown>)(command);
      };
    },
  });
  return { ddb: proxy, transactions: () => count };
}

describe('POST /v1/vouchers/importCSV (import-vouchers-using-csv)', () => {
  it('imports the rows as standalone vouchers; rows that do not map, a code repeated in the file and a taken code are failures in the result', async () => {
    const { projectId, api, takeJob, work, action } = await setup();
    expect((await api.call('create-voucher', { params: { code: 'TAKEN' }, json: { type: 'GIFT_VOUCHER', gift: { amount: 1 } } })).status).toBe(200);
    const file = [
      '\uFEFFCode,Voucher Type,Value,Discount Type,Category,Start Date,Expiration Date,Redemption Limit,Active,Additional Info,Region',
      'P10,DISCOUNT_VOUCHER,10,PERCENT,spring,2026-03-01,2026-03-31T23:59:59Z,2,true,"first, best",EU',
      'G500,GIFT_VOUCHER,500,,,,,,false,,',
      'L20,LOYALTY_CARD,20,,,,,,,,"say ""hi"""',
      'BADVAL,DISCOUNT_VOUCHER,ten,AMOUNT,,,,,,,',
      'SHORT,DISCOUNT_VOUCHER',
      'P10,DISCOUNT_VOUCHER,5,AMOUNT,,,,,,,',
      'TAKEN,DISCOUNT_VOUCHER,5,AMOUNT,,,,,,,',
      'BADDATE,DISCOUNT_VOUCHER,5,AMOUNT,,2026-02-30,,,,,',
      '',
    ].join('\r\n');
    const reply = await api.call('import-vouchers-using-csv', { multipart: { file, webhooks_enable: 'true' } });
    expect(reply.status).toBe(202);
    const id = reply.json.async_action_id as string;
    expect(await action(id)).toMatchObject({ type: 'VOUCHERS.IMPORT_CSV', status: 'ENQUEUED' });
    expect((await work(takeJob())).batchItemFailures).toEqual([]);
    const done = await action(id);
    expect(done).toMatchObject({ status: 'DONE', operation_status: 'SUCCESS', progress: 100, result: { done_count: 3, failed_count: 5 } });
    const failed = (done.result as { failed: { code: string; reason: string; line?: number }[] }).failed;
    expect(failed.slice(0, 3)).toEqual([
      { line: 5, code: 'BADVAL', reason: 'Value must be a number, got "ten"' },
      { line: 6, code: '', reason: '2 fields where the header has 11' },
      { line: 9, code: 'BADDATE', reason: 'Start Date must be an ISO 8601 date or date-time, got "2026-02-30"' },
    ]);
    expect(failed.slice(3)).toEqual([
      { code: 'P10', reason: 'Duplicated code in this import' },
      { code: 'TAKEN', reason: 'Duplicated voucher exists with this code' },
    ]);
    const p10 = (await api.call('get-voucher', { params: { code: 'P10' } })).json;
    expect(p10).toMatchObject({
      code: 'P10',
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'PERCENT', percent_off: 10 },
      category: 'spring',
      start_date: '2026-03-01T00:00:00.000Z',
      expiration_date: '2026-03-31T23:59:59.000Z',
      redemption: { quantity: 2 },
      active: true,
      additional_info: 'first, best',
      metadata: { Region: 'EU' },
      campaign: null,
    });
    expect((await api.call('get-voucher', { params: { code: 'G500' } })).json).toMatchObject({ type: 'GIFT_VOUCHER', gift: { amount: 500 }, active: false });
    expect((await api.call('get-voucher', { params: { code: 'L20' } })).json).toMatchObject({
      type: 'LOYALTY_CARD',
      loyalty_card: { points: 20 },
      metadata: { Region: 'say "hi"' },
    });
    expect((await api.call('get-voucher', { params: { code: 'BADVAL' } })).status).toBe(404);
    expect(await openJob.get(runtime, openJobKey(projectId, id))).toBeNull();
  });

  it('answers 400 naming the line of a file that is not CSV, and 400 for a body without a file, enqueuing nothing', async () => {
    const { api, jobs } = await setup();
    const bad = await api.call('import-vouchers-using-csv', { multipart: { file: 'Code,Value\nA,1\nB,"2\nC,3\n' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      key: 'invalid_payload',
      details: 'Property .file is not a CSV file this import takes: Line 3: a quoted field is never closed',
    });
    const quote = await api.call('import-vouchers-using-csv', { multipart: { file: 'Code,Value\nA,1\nB"x,2\n' } });
    expect(quote.json).toMatchObject({ key: 'invalid_payload', details: expect.stringContaining('Line 3: a quote inside an unquoted field') });
    expect((await api.call('import-vouchers-using-csv', { multipart: { file: 'Code\n' } })).json).toMatchObject({ details: expect.stringContaining('Line 2') });
    expect((await api.call('import-vouchers-using-csv', { multipart: { other: 'x' } })).json).toMatchObject({ key: 'invalid_payload' });
    expect((await api.call('import-vouchers-using-csv', { json: { file: 'Code\nA\n' } })).status).toBe(415);
    const tooMany = `Code,Value\n${Array.from({ length: 1001 }, (_, i) => `C${i},1`).join('\n')}`;
    expect((await api.call('import-vouchers-using-csv', { multipart: { file: tooMany } })).json).toMatchObject({
      details: expect.stringContaining('Line 1002: more than 1000 rows'),
    });
    expect(jobs.sent).toEqual([]);
  });
});

describe('POST /v1/campaigns/{campaignId}/importCSV (import-vouchers-to-campaign-using-csv)', () => {
  it("imports rows into a gift card campaign with the campaign's benefit, a row's Gift Amount overriding it; Redeemed Quantity is refused per row", async () => {
    const { api, takeJob, work, action } = await setup();
    const created = await api.call('create-campaign', { json: { ...campaignBodies.GIFT_VOUCHERS('Cards'), type: 'STATIC' } });
    expect(created.status).toBe(200);
    const campaignId = created.json.id as string;
    const file = 'code,category,active,gift_amount,redeemed_quantity,Note\nCARD-1,,true,,,hello\nCARD-2,vip,false,2500,0,\nCARD-3,,,,4,\nCARD-1,,,,,\n';
    const reply = await api.call('import-vouchers-to-campaign-using-csv', { params: { campaignId: 'Cards' }, multipart: { file } });
    expect(reply.status).toBe(200);
    const id = reply.json.async_action_id as string;
    await work(takeJob());
    expect(await action(id)).toMatchObject({
      type: 'CAMPAIGN.VOUCHERS_IMPORT_CSV',
      status: 'DONE',
      result: {
        done_count: 2,
        failed_count: 2,
        failed: [
          { line: 4, code: 'CARD-3', reason: 'Redeemed Quantity is not imported: vouchers start unredeemed (leave it empty or 0)' },
          { code: 'CARD-1', reason: 'Duplicated code in this import' },
        ],
      },
    });
    expect((await api.call('get-voucher', { params: { code: 'CARD-1' } })).json).toMatchObject({
      campaign_id: campaignId,
      metadata: { Note: 'hello' },
      active: true,
    });
    expect((await api.call('get-voucher', { params: { code: 'CARD-2' } })).json).toMatchObject({ gift: { amount: 2500 }, category: 'vip', active: false });
    expect((await api.call('get-campaign', { params: { campaignId } })).json.vouchers_count).toBe(2);
  });

  it('answers 404 for an unknown campaign', async () => {
    const { api, jobs } = await setup();
    const reply = await api.call('import-vouchers-to-campaign-using-csv', { params: { campaignId: 'nope' }, multipart: { file: 'Code\nA\n' } });
    expect(reply.status).toBe(404);
    expect(jobs.sent).toEqual([]);
  });

  it('resumes after the worker died mid-import: redelivered twice at once, every row is written once and the counts stay exact', async () => {
    const { projectId, api, takeJob, work, action } = await setup();
    const created = await api.call('create-campaign', { json: { ...campaignBodies.DISCOUNT_COUPONS('Crash'), type: 'STATIC' } });
    const campaignId = created.json.id as string;
    const file = `Code\n${Array.from({ length: 130 }, (_, i) => `K-${String(i).padStart(4, '0')}`).join('\n')}\nK-0001\n`;
    const id = (await api.call('import-vouchers-to-campaign-using-csv', { params: { campaignId }, multipart: { file } })).json.async_action_id as string;
    const job = takeJob();
    const killed = killedAfter(runtime.ddb, 1);
    void work(job, killed.ddb);
    for (let i = 0; i < 100 && killed.transactions() <= 1; i += 1) await sleep(50);
    expect(await getAsyncAction(runtime, projectId, id)).toMatchObject({ status: 'IN_PROGRESS', doneCount: 48, import: { chunks: 3, chunksDone: 1 } });
    const reruns = await Promise.all([work(job), work(job)]);
    for (const r of reruns) expect(r.batchItemFailures).toEqual([]);
    expect(await action(id)).toMatchObject({ status: 'DONE', result: { done_count: 130, failed_count: 1, failed: [{ code: 'K-0001' }] } });
    const stored = await listCampaignVoucherCodes(runtime, projectId, campaignId);
    expect(new Set(stored).size).toBe(130);
    expect((await api.call('get-campaign', { params: { campaignId } })).json.vouchers_count).toBe(130);
  }, 30_000);
});
