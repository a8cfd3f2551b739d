import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { makeHandler as makeWorker } from '../../../functions/workers/jobs-worker.js';
import { lambdaContext } from '../../../infra/local/api-gateway-event.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { getCampaign } from '../../../lib/campaigns/campaign.repo.js';
import { runCampaignVouchersUpdate, VOUCHERS_PER_UPDATE } from '../../../lib/campaigns/campaign-vouchers-update.js';
import { systemClock } from '../../../lib/clock.js';
import * as entities from '../../../lib/db/entities.js';
import { closeDeadLetteredJob, deadLetterReason } from '../../../lib/jobs/dead-letter.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { openJobKey } from '../../../lib/jobs/open-job.repo.js';
import type { Runtime } from '../../../lib/runtime.js';
import { runVoucherGeneration } from '../../../lib/vouchers/bulk-generation.js';
import { listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';

/**
 * PUT /v1/campaigns/{campaignId} with `discount` / `gift` (issue 16 item 4): the campaign's
 * unpublished, unredeemed vouchers follow through CAMPAIGN.VOUCHERS_UPDATE
 * (lib/campaigns/campaign-vouchers-update.ts), run by the real jobs worker against DynamoDB Local;
 * its crash safety; and a bulk generation running meanwhile producing the new discount.
 */

const NEW_DISCOUNT = { type: 'AMOUNT', amount_off: 1500 } as const;

async function setup() {
  const runtime = testRuntime({ clock: systemClock });
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  return { runtime, p: pair.project_id, jobs, api, campaigns: campaignApi(runtime, pair, jobs) };
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** A campaign of `body` with `count` generated vouchers. */
async function campaignWith(s: Setup, count: number, body: Record<string, unknown> = campaignBodies.DISCOUNT_COUPONS('Coupons')) {
  const made = await newCampaign(s.campaigns, body);
  const id = made.id as string;
  if (count > 0) {
    expect([200, 202]).toContain((await s.campaigns.addVoucher(id, {}, `vouchers_count=${count}`)).status);
    await s.jobs.deliver(s.runtime);
  }
  const codes = await listCampaignVoucherCodes(s.runtime, s.p, id);
  expect(codes).toHaveLength(count);
  return { id, codes };
}

const actionIdOf = (reply: { headers: Record<string, string> }): string | undefined =>
  Object.entries(reply.headers).find(([name]) => name.toLowerCase() === 'x-async-action-id')?.[1];

/** Marks a voucher as published to someone or redeemed, as those flows leave it. */
const setVoucher = (runtime: Runtime, p: string, code: string, set: Record<string, unknown>) =>
  runtime.ddb.send(
    new UpdateCommand({
      TableName: runtime.tableName,
      Key: entities.voucher.key(p, code),
      UpdateExpression: `SET ${Object.keys(set)
        .map((_, i) => `#f${i} = :v${i}`)
        .join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(Object.keys(set).map((k, i) => [`#f${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(Object.values(set).map((v, i) => [`:v${i}`, v])),
    }),
  );

const voucherJson = async (s: Setup, code: string) => (await s.campaigns.getVoucher(code)).json;

/** A DynamoDB client that counts the voucher updates the job writes and calls `before(n)` ahead of the n-th transaction. */
function watched(runtime: Runtime, before: (n: number) => Promise<void> = async () => {}) {
  const seen = { transactions: 0, voucherUpdates: 0 };
  const ddb = new Proxy(runtime.ddb, {
    get(target, prop, receiver) {
      if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
      return async (command: { constructor: { name: string }; input?: { TransactItems?: Array<{ Update?: { UpdateExpression?: string } }> } }) => {
        if (command.constructor.name === 'TransactWriteCommand') {
          seen.transactions += 1;
          await before(seen.transactions);
        }
        const result = await (target.send as (c: unknown) => Promise<unknown>)(command);
        if (command.constructor.name === 'TransactWriteCommand') {
          seen.voucherUpdates += (command.input?.TransactItems ?? []).filter((i) =>
            /discount = :discount|gift = :gift/.test(i.Update?.UpdateExpression ?? ''),
          ).length;
        }
        return result;
      };
    },
  }) as DynamoDBDocumentClient;
  return { ddb, seen };
}

describe('PUT /v1/campaigns/{campaignId} with a new discount', () => {
  it("changes the campaign's template at once and, through CAMPAIGN.VOUCHERS_UPDATE in batches, every unpublished unredeemed voucher", async () => {
    const s = await setup();
    const { id, codes } = await campaignWith(s, 120);
    const [published, redeemed] = codes as [string, string];
    await setVoucher(s.runtime, s.p, published, { holderId: 'cust_someone', publishCount: 1 });
    await setVoucher(s.runtime, s.p, redeemed, { redeemedQuantity: 1 });

    const reply = await s.api.call('update-campaign', { params: { campaignId: id }, json: { discount: NEW_DISCOUNT } });
    expect(reply.status).toBe(200);
    expect(reply.json.voucher).toMatchObject({ type: 'DISCOUNT_VOUCHER', discount: NEW_DISCOUNT });
    const actionId = actionIdOf(reply);
    expect(actionId).toMatch(/^aa_/);
    expect(s.jobs.sent).toEqual([{ type: 'update-campaign-vouchers', projectId: s.p, asyncActionId: actionId }]);
    expect((await s.campaigns.getAsyncAction(actionId as string)).json).toMatchObject({
      type: 'CAMPAIGN.VOUCHERS_UPDATE',
      status: 'ENQUEUED',
      progress: 0,
    });

    const [job] = s.jobs.sent.splice(0);
    const { ddb, seen } = watched(s.runtime);
    const worker = makeWorker({ runtime: { ...s.runtime, ddb } });
    expect((await worker({ Records: [sqsRecord(JSON.stringify(job))] }, lambdaContext('jobs-worker'))).batchItemFailures).toEqual([]);
    expect(seen.voucherUpdates).toBe(118);
    expect(seen.transactions).toBeGreaterThanOrEqual(Math.ceil(118 / VOUCHERS_PER_UPDATE));

    expect((await s.campaigns.getAsyncAction(actionId as string)).json).toMatchObject({
      status: 'DONE',
      operation_status: 'SUCCESS',
      progress: 100,
      result: { message: 'Updated 118 vouchers.', done_count: 118 },
    });
    for (const code of codes.slice(2)) expect((await voucherJson(s, code)).discount, code).toMatchObject(NEW_DISCOUNT);
    expect((await voucherJson(s, published)).discount).toMatchObject({ type: 'PERCENT', percent_off: 10 });
    expect((await voucherJson(s, redeemed)).discount).toMatchObject({ type: 'PERCENT', percent_off: 10 });
    expect((await s.campaigns.getCampaign(id)).json.voucher).toMatchObject({ discount: NEW_DISCOUNT });
  });

  it('on a campaign without vouchers changes the template only (no async action), and vouchers made later have the new discount', async () => {
    const s = await setup();
    const { id } = await campaignWith(s, 0);
    const reply = await s.api.call('update-campaign', { params: { campaignId: id }, json: { discount: NEW_DISCOUNT } });
    expect(reply.status).toBe(200);
    expect(actionIdOf(reply)).toBeUndefined();
    expect(s.jobs.sent).toEqual([]);
    expect((await s.campaigns.addVoucher(id, {}, 'vouchers_count=3')).status).toBe(202);
    await s.jobs.deliver(s.runtime);
    for (const code of await listCampaignVoucherCodes(s.runtime, s.p, id)) expect((await voucherJson(s, code)).discount).toMatchObject(NEW_DISCOUNT);
  });

  it('refuses an invalid discount, a discount on gift cards and a gift on discount vouchers with 400 and the error object, changing nothing', async () => {
    const s = await setup();
    const coupons = await campaignWith(s, 2);
    const gifts = await campaignWith(s, 0, campaignBodies.GIFT_VOUCHERS('Gifts'));
    for (const [campaignId, json] of [
      [coupons.id, { discount: { type: 'PERCENT', percent_off: 150 } }],
      [coupons.id, { discount: { type: 'BOGUS' } }],
      [coupons.id, { discount: 'ten' }],
      [coupons.id, { gift: { amount: 100 } }],
      [gifts.id, { discount: NEW_DISCOUNT }],
      [gifts.id, { gift: { amount: -5 } }],
    ] as const) {
      const reply = await s.api.call('update-campaign', { params: { campaignId }, json });
      expect(reply.status, JSON.stringify(json)).toBe(400);
      expect(reply.json, JSON.stringify(json)).toMatchObject({ code: 400, key: 'invalid_payload', request_id: expect.any(String) });
    }
    expect(s.jobs.sent).toEqual([]);
    expect((await s.campaigns.getCampaign(coupons.id)).json.voucher).toMatchObject({ discount: { type: 'PERCENT', percent_off: 10 } });
    expect((await s.campaigns.getCampaign(coupons.id)).json.updated_at).toBeUndefined();
  });

  it('refuses a discount change of a protected campaign with 400 resource_protected', async () => {
    const s = await setup();
    const { id } = await campaignWith(s, 1);
    await s.runtime.ddb.send(
      new UpdateCommand({
        TableName: s.runtime.tableName,
        Key: entities.campaign.key(s.p, id),
        UpdateExpression: 'SET #p = :t',
        ExpressionAttributeNames: { '#p': 'protected' },
        ExpressionAttributeValues: { ':t': true },
      }),
    );
    const reply = await s.api.call('update-campaign', { params: { campaignId: id }, json: { discount: NEW_DISCOUNT } });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'resource_protected', resource_id: id, resource_type: 'campaign' });
    expect(s.jobs.sent).toEqual([]);
  });
});

describe('PUT /v1/campaigns/{campaignId} with a new gift', () => {
  it("gives every unpublished unredeemed card the new credits and leaves a used card's balance alone", async () => {
    const s = await setup();
    const { id, codes } = await campaignWith(s, 6, campaignBodies.GIFT_VOUCHERS('Gifts'));
    const used = codes[0] as string;
    await setVoucher(s.runtime, s.p, used, { redeemedQuantity: 1, gift: { amount: 5000, subtractedAmount: 1200, balance: 3800, effect: 'APPLY_TO_ORDER' } });
    const reply = await s.api.call('update-campaign', { params: { campaignId: id }, json: { gift: { amount: 8000, effect: 'APPLY_TO_ITEMS' } } });
    expect(reply.status).toBe(200);
    expect(reply.json.voucher).toMatchObject({ gift: { amount: 8000, effect: 'APPLY_TO_ITEMS' } });
    const actionId = actionIdOf(reply) as string;
    await s.jobs.deliver(s.runtime);
    expect((await s.campaigns.getAsyncAction(actionId)).json).toMatchObject({ type: 'CAMPAIGN.VOUCHERS_UPDATE', status: 'DONE', result: { done_count: 5 } });
    for (const code of codes.slice(1)) {
      expect((await voucherJson(s, code)).gift).toMatchObject({ amount: 8000, balance: 8000, effect: 'APPLY_TO_ITEMS' });
    }
    expect((await voucherJson(s, used)).gift).toMatchObject({ amount: 5000, balance: 3800 });
  });
});

describe('the CAMPAIGN.VOUCHERS_UPDATE job', () => {
  it('stopped mid-job stays IN_PROGRESS at a checkpoint; the redelivered message finishes it without writing any voucher twice', async () => {
    const s = await setup();
    const { id, codes } = await campaignWith(s, 120);
    const reply = await s.api.call('update-campaign', { params: { campaignId: id }, json: { discount: NEW_DISCOUNT } });
    const actionId = actionIdOf(reply) as string;
    const [job] = s.jobs.sent.splice(0);
    const stop = new AbortController();
    const first = watched(s.runtime, async (n) => {
      if (n === 2) stop.abort();
    });
    const record = (receives: number): SQSRecord => sqsRecord(JSON.stringify(job as JobMessage), receives);
    // The last delivery: a failure would mark the action FAILED, a stop must not.
    const stopped = await makeWorker({ runtime: { ...s.runtime, ddb: first.ddb }, stop: stop.signal })({ Records: [record(3)] }, lambdaContext('jobs-worker'));
    expect(stopped.batchItemFailures).toHaveLength(1);
    const midway = await getAsyncAction(s.runtime, s.p, actionId);
    expect(midway?.status).toBe('IN_PROGRESS');
    expect(midway?.doneCount).toBeGreaterThan(0);
    expect(midway?.doneCount).toBeLessThan(120);
    expect((await s.campaigns.getAsyncAction(actionId)).json.progress).toBe(Math.floor(((midway?.doneCount ?? 0) * 100) / 120));

    const second = watched(s.runtime);
    const again = await makeWorker({ runtime: { ...s.runtime, ddb: second.ddb } })({ Records: [record(1)] }, lambdaContext('jobs-worker'));
    expect(again.batchItemFailures).toEqual([]);
    expect(first.seen.voucherUpdates + second.seen.voucherUpdates).toBe(120);
    expect(await getAsyncAction(s.runtime, s.p, actionId)).toMatchObject({ status: 'DONE', doneCount: 120, requested: 120 });
    for (const code of codes) expect((await voucherJson(s, code)).discount).toMatchObject(NEW_DISCOUNT);
    // A delivery after the end leaves the DONE action alone.
    await makeWorker({ runtime: s.runtime })({ Records: [record(1)] }, lambdaContext('jobs-worker'));
    expect((await getAsyncAction(s.runtime, s.p, actionId))?.status).toBe('DONE');
  });

  it('has an open-job marker from the PUT until it ends; a dead-lettered one is marked FAILED with its reason', async () => {
    const s = await setup();
    const { id } = await campaignWith(s, 3);
    const done = actionIdOf(await s.api.call('update-campaign', { params: { campaignId: id }, json: { discount: NEW_DISCOUNT } })) as string;
    expect(await entities.openJob.get(s.runtime, openJobKey(s.p, done))).toMatchObject({ type: 'update-campaign-vouchers', subjectId: done });
    await s.jobs.deliver(s.runtime);
    expect(await entities.openJob.get(s.runtime, openJobKey(s.p, done))).toBeNull();

    const lost = actionIdOf(
      await s.api.call('update-campaign', { params: { campaignId: id }, json: { discount: { type: 'PERCENT', percent_off: 5 } } }),
    ) as string;
    const [job] = s.jobs.sent.splice(0);
    expect(await closeDeadLetteredJob(s.runtime, sqsRecord(JSON.stringify(job), 3), 3)).toBe('closed');
    expect(await getAsyncAction(s.runtime, s.p, lost)).toMatchObject({ status: 'FAILED', failure: deadLetterReason(3) });
    expect((await s.campaigns.getAsyncAction(lost)).json).toMatchObject({
      status: 'FAILED',
      operation_status: 'FAILED',
      result: { message: deadLetterReason(3) },
    });
    expect(await entities.openJob.get(s.runtime, openJobKey(s.p, lost))).toBeNull();
  });

  it('two runs of one action at once change and count each voucher once', async () => {
    const s = await setup();
    const { id } = await campaignWith(s, 90);
    const actionId = actionIdOf(await s.api.call('update-campaign', { params: { campaignId: id }, json: { discount: NEW_DISCOUNT } })) as string;
    const a = watched(s.runtime);
    const b = watched(s.runtime);
    await Promise.all([
      runCampaignVouchersUpdate({ ...s.runtime, ddb: a.ddb }, s.p, actionId),
      runCampaignVouchersUpdate({ ...s.runtime, ddb: b.ddb }, s.p, actionId),
    ]);
    expect(a.seen.voucherUpdates + b.seen.voucherUpdates).toBe(90);
    expect(await getAsyncAction(s.runtime, s.p, actionId)).toMatchObject({ status: 'DONE', doneCount: 90 });
  });

  it('a second PUT while the first job runs wins: every voucher ends with the newest discount', async () => {
    const s = await setup();
    const { id, codes } = await campaignWith(s, 100);
    const firstId = actionIdOf(await s.api.call('update-campaign', { params: { campaignId: id }, json: { discount: NEW_DISCOUNT } })) as string;
    const newest = { type: 'PERCENT', percent_off: 33 };
    s.jobs.sent.splice(0);
    let secondId = '';
    const racing = watched(s.runtime, async (n) => {
      if (n !== 2) return;
      secondId = actionIdOf(await s.api.call('update-campaign', { params: { campaignId: id }, json: { discount: newest } })) as string;
      await s.jobs.deliver(s.runtime);
    });
    await runCampaignVouchersUpdate({ ...s.runtime, ddb: racing.ddb }, s.p, firstId);
    expect((await getAsyncAction(s.runtime, s.p, secondId))?.status).toBe('DONE');
    expect((await getAsyncAction(s.runtime, s.p, firstId))?.status).toBe('DONE');
    for (const code of codes) expect((await voucherJson(s, code)).discount, code).toMatchObject(newest);
  });
});

describe('parallel discount changes', () => {
  it('10 parallel PUTs with different discounts: each commits at its own revision and, once their jobs ran, every voucher has the campaign’s final discount', async () => {
    const s = await setup();
    const { id, codes } = await campaignWith(s, 60);
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.api.call('update-campaign', { params: { campaignId: id }, json: { discount: { type: 'PERCENT', percent_off: 20 + i } } }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const campaign = (await s.campaigns.getCampaign(id)).json;
    expect((await getCampaign(s.runtime, s.p, id))?.revision).toBe(10);
    const jobs = s.jobs.sent.splice(0);
    expect(new Set(jobs.map((j) => (j as { asyncActionId: string }).asyncActionId)).size).toBe(10);
    await Promise.all(jobs.map((job) => runCampaignVouchersUpdate(s.runtime, s.p, (job as { asyncActionId: string }).asyncActionId)));
    const final = (campaign.voucher as { discount: unknown }).discount;
    for (const code of codes) expect((await voucherJson(s, code)).discount, code).toEqual(final);
  });
});

describe('a bulk generation running while the discount changes', () => {
  it('writes no voucher with the old discount, even a batch built before the PUT and committed after its job finished', async () => {
    const s = await setup();
    const made = await newCampaign(s.campaigns, campaignBodies.DISCOUNT_COUPONS('Growing'));
    const id = made.id as string;
    expect((await s.campaigns.addVoucher(id, {}, 'vouchers_count=150')).status).toBe(202);
    const [generation] = s.jobs.sent.splice(0);
    const generationId = (generation as { asyncActionId: string }).asyncActionId;
    let updateId: string | undefined;
    // Ahead of the generation's second batch (built from the campaign as read before): the PUT, and its job run to the end.
    const racing = watched(s.runtime, async (n) => {
      if (n !== 2) return;
      const reply = await s.api.call('update-campaign', { params: { campaignId: id }, json: { discount: NEW_DISCOUNT } });
      expect(reply.status).toBe(200);
      updateId = actionIdOf(reply);
      await s.jobs.deliver(s.runtime);
    });
    await runVoucherGeneration({ ...s.runtime, ddb: racing.ddb }, s.p, generationId);
    expect(updateId).toBeDefined();
    expect((await getAsyncAction(s.runtime, s.p, updateId as string))?.status).toBe('DONE');
    expect(await getAsyncAction(s.runtime, s.p, generationId)).toMatchObject({ status: 'DONE', doneCount: 150 });
    const codes = await listCampaignVoucherCodes(s.runtime, s.p, id);
    expect(codes).toHaveLength(150);
    expect((await s.campaigns.getCampaign(id)).json.vouchers_count).toBe(150);
    for (const code of codes) expect((await voucherJson(s, code)).discount, code).toMatchObject(NEW_DISCOUNT);
  });
});
