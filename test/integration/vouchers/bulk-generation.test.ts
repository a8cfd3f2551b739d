import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHandler as makeTokenHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { makeHandler as makeWorker } from '../../../functions/workers/jobs-worker.js';
import { startSqsPoller, type SqsPoller } from '../../../infra/local/sqs-poller.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { systemClock } from '../../../lib/clock.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { createSqsJobQueue } from '../../../lib/jobs/sqs-job-queue.js';
import { silentLogger } from '../../../lib/logger.js';
import type { Runtime } from '../../../lib/runtime.js';
import { matchesConfig, resolveCodeConfig } from '../../../lib/vouchers/code-generator.js';
import { listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { campaignApi, campaignBodies, type CampaignApi, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { call } from '../../support/invoke.js';
import { createQueueWithDlq, deleteQueues } from '../../support/queues.js';
import { engines, keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord as record } from '../../support/sqs-record.js';

let runtime: Runtime;
let sqs: SQSClient;
let queueUrl: string;
const queueUrls: string[] = [];
const pollers: SqsPoller[] = [];

/** This file's own jobs queue (other files share the engines' queue), with a DLQ, fed to the real worker by three pollers (Lambda's concurrency). */
beforeAll(async () => {
  const e = engines();
  runtime = testRuntime({ clock: systemClock });
  sqs = new SQSClient({ region: e.region, endpoint: e.sqsEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const queue = await createQueueWithDlq(sqs, `bulk-${randomUUID().slice(0, 8)}`, { visibilityTimeoutSeconds: 60 });
  queueUrl = queue.url;
  queueUrls.push(queue.url, queue.dlqUrl);
  const worker = makeWorker({ runtime });
  for (let i = 0; i < 3; i += 1) {
    pollers.push(startSqsPoller({ sqsClient: sqs, queueUrl, handler: worker, batchSize: 1, idleDelayMs: 50, logger: silentLogger, timeoutSeconds: 60 }));
  }
});

afterAll(async () => {
  await Promise.all(pollers.map((p) => p.stop()));
  await deleteQueues(sqs, queueUrls);
  sqs.destroy();
});

async function setup(jobs: 'sqs' | RecordingJobQueue = 'sqs') {
  const pair = await newProject(runtime);
  const e = engines();
  const queue = jobs === 'sqs' ? createSqsJobQueue({ region: e.region, sqsEndpoint: e.sqsEndpoint, jobsQueueUrl: queueUrl }) : jobs;
  return { pair, api: campaignApi(runtime, pair, queue) };
}

async function waitForFinal(api: CampaignApi, id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 400; i += 1) {
    const reply = await api.getAsyncAction(id);
    if (reply.json.status === 'DONE' || reply.json.status === 'FAILED') return reply.json;
    await sleep(100);
  }
  throw new Error(`async action ${id} did not finish`);
}

const deliver = (records: SQSRecord[]) => makeWorker({ runtime })({ Records: records } satisfies SQSEvent, {} as never);

describe('bulk voucher generation', () => {
  it('generates 1,000 codes of a pattern through the queue: 202, the action reaches DONE, every code distinct and matching, the count exact', async () => {
    const { pair, api } = await setup();
    const campaign = await newCampaign(api);
    const codeConfig = { pattern: 'BLK-####-##', charset: 'ABCDEFGH23456789', prefix: 'X' };
    const reply = await api.addVoucher(campaign.id as string, { code_config: codeConfig }, 'vouchers_count=1000');
    expect(reply.status).toBe(202);
    expect(Object.keys(reply.json)).toEqual(['async_action_id']);
    const id = reply.json.async_action_id as string;
    expect(id).toMatch(/^aa_/);
    const done = await waitForFinal(api, id);
    expect(done).toMatchObject({
      id,
      type: 'CAMPAIGN.VOUCHERS_GENERATE',
      status: 'DONE',
      operation_status: 'SUCCESS',
      progress: 100,
      result: { message: 'Generated 1000 vouchers.', done_count: 1000 },
      object: 'async_action',
      request_id: expect.stringMatching(/^v-/),
    });
    expect(done.processing_time).toEqual(expect.any(Number));
    const codes = await listCampaignVoucherCodes(runtime, pair.project_id, campaign.id as string);
    expect(codes).toHaveLength(1000);
    expect(new Set(codes).size).toBe(1000);
    const config = resolveCodeConfig(codeConfig);
    expect(codes.every((c) => matchesConfig(c, config))).toBe(true);
    expect((await api.getCampaign(campaign.id as string)).json.vouchers_count).toBe(1000);
  });

  it('creates a campaign with 250 vouchers: IN_PROGRESS in the reply, DONE with 250 vouchers once the worker is through', async () => {
    const { pair, api } = await setup();
    const reply = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Big'), vouchers_count: 250 });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ creation_status: 'IN_PROGRESS', vouchers_generation_status: 'IN_PROGRESS' });
    const id = reply.json.id as string;
    let campaign = reply.json;
    for (let i = 0; i < 300 && campaign.creation_status === 'IN_PROGRESS'; i += 1) {
      await sleep(100);
      campaign = (await api.getCampaign(id)).json;
    }
    expect(campaign).toMatchObject({ creation_status: 'DONE', vouchers_generation_status: 'DONE', vouchers_count: 250 });
    expect(await listCampaignVoucherCodes(runtime, pair.project_id, id)).toHaveLength(250);
    const listed = await api.listCampaigns('campaign_status=DONE');
    expect((listed.json.campaigns as Array<{ id: string }>).map((c) => c.id)).toContain(id);
  });

  it('handles the same job message delivered twice (at once, then again) once: no duplicates, the count exact, DONE once', async () => {
    const jobs = new RecordingJobQueue();
    const { pair, api } = await setup(jobs);
    const campaign = await newCampaign(api);
    const reply = await api.addVoucher(campaign.id as string, {}, 'vouchers_count=300');
    expect(reply.status).toBe(202);
    expect(jobs.sent).toEqual([{ type: 'generate-vouchers', projectId: pair.project_id, asyncActionId: reply.json.async_action_id }]);
    expect((await api.getAsyncAction(reply.json.async_action_id as string)).json).toMatchObject({ status: 'ENQUEUED', progress: 0 });
    const body = JSON.stringify(jobs.sent[0]);
    const [first, second] = await Promise.all([deliver([record(body)]), deliver([record(body, 2)])]);
    expect(first).toEqual({ batchItemFailures: [] });
    expect(second).toEqual({ batchItemFailures: [] });
    const id = reply.json.async_action_id as string;
    const done = await getAsyncAction(runtime, pair.project_id, id);
    expect(done).toMatchObject({ status: 'DONE', doneCount: 300 });
    expect(await deliver([record(body, 3)])).toEqual({ batchItemFailures: [] });
    expect(await getAsyncAction(runtime, pair.project_id, id)).toEqual(done);
    const codes = await listCampaignVoucherCodes(runtime, pair.project_id, campaign.id as string);
    expect(codes).toHaveLength(300);
    expect(new Set(codes).size).toBe(300);
    expect((await api.getCampaign(campaign.id as string)).json.vouchers_count).toBe(300);
  });

  it('fails a malformed message (so it ends in the DLQ) and marks its action FAILED with the reason when the action id is readable', async () => {
    const jobs = new RecordingJobQueue();
    const { pair, api } = await setup(jobs);
    const campaign = await newCampaign(api);
    const id = (await api.addVoucher(campaign.id as string, {}, 'vouchers_count=5')).json.async_action_id as string;
    const wrongType = record(JSON.stringify({ type: 'delete-everything', projectId: pair.project_id, asyncActionId: id }));
    const notJson = record('{not json');
    const unknownAction = record(JSON.stringify({ type: 'generate-vouchers', projectId: pair.project_id, asyncActionId: 'aa_doesNotExist' }));
    const result = await deliver([wrongType, notJson, unknownAction]);
    expect(new Set(result.batchItemFailures.map((f) => f.itemIdentifier))).toEqual(new Set([wrongType.messageId, notJson.messageId, unknownAction.messageId]));
    const action = (await api.getAsyncAction(id)).json;
    expect(action).toMatchObject({ status: 'FAILED', operation_status: 'FAILED', result: { done_count: 0 } });
    expect((action.result as { message: string }).message).toMatch(/^Malformed job message/);
    // A FAILED action never moves again, even when its real job arrives later.
    expect(await deliver([record(JSON.stringify(jobs.sent[0]))])).toEqual({ batchItemFailures: [] });
    expect((await api.getAsyncAction(id)).json.status).toBe('FAILED');
    expect((await api.getCampaign(campaign.id as string)).json.vouchers_count).toBe(0);
  });

  it('keeps vouchers_count equal to the vouchers stored under 5 concurrent bulk generations into one campaign', async () => {
    const { pair, api } = await setup();
    const campaign = await newCampaign(api);
    const replies = await Promise.all([120, 80, 150, 60, 90].map((n) => api.addVoucher(campaign.id as string, {}, `vouchers_count=${n}`)));
    expect(replies.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    const finals = await Promise.all(replies.map((r) => waitForFinal(api, r.json.async_action_id as string)));
    expect(finals.map((f) => f.status)).toEqual(['DONE', 'DONE', 'DONE', 'DONE', 'DONE']);
    const codes = await listCampaignVoucherCodes(runtime, pair.project_id, campaign.id as string);
    expect(new Set(codes).size).toBe(500);
    expect((await api.getCampaign(campaign.id as string)).json.vouchers_count).toBe(codes.length);
  });

  it('refuses up front, with 400 code_space_exhausted and nothing enqueued, a count the pattern cannot hold', async () => {
    const jobs = new RecordingJobQueue();
    const { api } = await setup(jobs);
    const campaign = await newCampaign(api);
    const reply = await api.addVoucher(campaign.id as string, { code_config: { pattern: 'Q#', charset: 'AB' } }, 'vouchers_count=3');
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('code_space_exhausted');
    const created = await api.createCampaign({
      ...campaignBodies.DISCOUNT_COUPONS('Small space'),
      vouchers_count: 101,
      voucher: { ...campaignBodies.DISCOUNT_COUPONS('x').voucher, code_config: { pattern: '##', charset: 'ABCDEFGHIJ' } },
    });
    expect(created.status).toBe(400);
    expect(created.json.key).toBe('code_space_exhausted');
    expect(jobs.sent).toEqual([]);
  });

  it('marks the action FAILED (and a new campaign FAILED) when the job gives up on its last delivery', async () => {
    const jobs = new RecordingJobQueue();
    const { pair, api } = await setup(jobs);
    const created = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Doomed'), vouchers_count: 150 });
    const job = jobs.sent[0] as Extract<JobMessage, { type: 'generate-vouchers' }>;
    const broken = { ...runtime, ddb: { send: () => Promise.reject(new Error('table unavailable')) } } as unknown as Runtime;
    const worker = makeWorker({ runtime: broken });
    const early = record(JSON.stringify(job), 1);
    expect(await worker({ Records: [early] }, {} as never)).toEqual({ batchItemFailures: [{ itemIdentifier: early.messageId }] });
    expect((await api.getAsyncAction(job.asyncActionId)).json.status).toBe('ENQUEUED');
    // The last delivery: the table is back for the bookkeeping, but the job itself still fails.
    let calls = 0;
    const flaky = {
      ...runtime,
      ddb: { send: (c: never) => (calls++ === 0 ? Promise.reject(new Error('table unavailable')) : runtime.ddb.send(c)) },
    } as unknown as Runtime;
    const last = record(JSON.stringify(job), 3);
    expect(await makeWorker({ runtime: flaky })({ Records: [last] }, {} as never)).toEqual({ batchItemFailures: [{ itemIdentifier: last.messageId }] });
    const action = (await api.getAsyncAction(job.asyncActionId)).json;
    expect(action).toMatchObject({ status: 'FAILED' });
    expect((action.result as { message: string }).message).toMatch(/Gave up after 3 attempts/);
    expect((await api.getCampaign(created.json.id as string)).json.creation_status).toBe('FAILED');
    expect(pair.project_id).toBeTruthy();
  });
});

describe('GET /v1/async-actions/{asyncActionId}', () => {
  it("answers an unknown id, or another project's action, with 404 not_found naming the async_action", async () => {
    const jobs = new RecordingJobQueue();
    const { api } = await setup(jobs);
    const campaign = await newCampaign(api);
    const id = (await api.addVoucher(campaign.id as string, {}, 'vouchers_count=2')).json.async_action_id as string;
    const other = await setup();
    for (const ref of ['aa_unknown123', id, 'not-an-id']) {
      const reply = await other.api.getAsyncAction(ref);
      expect(reply.status).toBe(404);
      expect(reply.json).toMatchObject({ code: 404, key: 'not_found', resource_id: ref, resource_type: 'async_action' });
    }
  });

  it('accepts a token with the async-actions scope and refuses one limited to campaigns with 403', async () => {
    const jobs = new RecordingJobQueue();
    const { pair, api } = await setup(jobs);
    const campaign = await newCampaign(api);
    const id = (await api.addVoucher(campaign.id as string, {}, 'vouchers_count=2')).json.async_action_id as string;
    const tokens = makeTokenHandler({ runtime });
    const token = async (scope: string) =>
      (await call(tokens, { path: '/v1/oauth/token', headers: keyPairHeaders(pair), form: { grant_type: 'client_credentials', scope } })).json
        .access_token as string;
    const allowed = await api.getAsyncAction(id, { authorization: `Bearer ${await token('async-actions')}` });
    expect(allowed.status).toBe(200);
    expect(allowed.json).toMatchObject({ id, status: 'ENQUEUED' });
    const denied = await api.getAsyncAction(id, { authorization: `Bearer ${await token('campaigns')}` });
    expect(denied.status).toBe(403);
    expect(denied.json.key).toBe('missing_required_permission');
  });
});
