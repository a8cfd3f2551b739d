import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHandler as makeWorker } from '../../../functions/workers/jobs-worker.js';
import { lambdaContext } from '../../../infra/local/api-gateway-event.js';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { runCampaignVouchersDeletion } from '../../../lib/campaigns/campaign-deletion.js';
import { systemClock } from '../../../lib/clock.js';
import { openJob } from '../../../lib/db/entities.js';
import { closeDeadLetteredJob, deadLetterReason } from '../../../lib/jobs/dead-letter.js';
import type { JobMessage } from '../../../lib/jobs/job.js';
import { openJobKey } from '../../../lib/jobs/open-job.repo.js';
import { resumeOpenJobs } from '../../../lib/jobs/resume-open-jobs.js';
import type { Runtime } from '../../../lib/runtime.js';
import { listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { createOwnTable, type OwnTable } from '../../support/hostile/route-harness.js';
import { keyPairHeaders, newProject } from '../../support/runtime.js';
import { sqsRecord } from '../../support/sqs-record.js';
import { stoppingAfterTransactions } from '../../support/job-workers.js';

/**
 * Crash safety of CAMPAIGN.VOUCHERS_DELETE (lib/campaigns/campaign-deletion.ts), as the generation
 * job's (test/integration/jobs/open-jobs.test.ts): its open-job marker, the stop signal between
 * checkpoints, the start-up reconcile that puts it back on the queue, two runs of one action at
 * once, and the dead-letter consumer marking it FAILED. On a table of its own, so the reconcile
 * sees only this file's markers.
 */

let table: OwnTable;
let runtime: Runtime;

beforeAll(async () => {
  table = await createOwnTable('campaign-deletion');
  runtime = table.runtime({ clock: systemClock });
});

afterAll(async () => {
  await table.drop();
});

const markerOf = (projectId: string, subjectId: string) => openJob.get(runtime, openJobKey(projectId, subjectId));

async function work(jobs: JobMessage[], options: { stop?: AbortSignal; ddb?: DynamoDBDocumentClient; receives?: number } = {}) {
  const worker = makeWorker({ runtime: { ...runtime, ddb: options.ddb ?? runtime.ddb }, ...(options.stop ? { stop: options.stop } : {}) });
  const records: SQSRecord[] = jobs.map((job) => sqsRecord(JSON.stringify(job), options.receives ?? 1));
  return worker({ Records: records }, lambdaContext('jobs-worker'));
}

/** A campaign with `count` vouchers, deleted (to the bin unless `force`): its deletion job is in `jobs.sent`. */
async function deletedCampaign(count: number, force = false) {
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const campaigns = campaignApi(runtime, pair, jobs);
  const made = await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Doomed'));
  const campaignId = made.id as string;
  expect((await campaigns.addVoucher(campaignId, {}, `vouchers_count=${count}`)).status).toBe(202);
  await jobs.deliver(runtime);
  expect(await listCampaignVoucherCodes(runtime, pair.project_id, campaignId)).toHaveLength(count);
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  const reply = await api.call('delete-campaign', { params: { campaignId }, query: force ? 'force=true' : '' });
  expect(reply.status).toBe(202);
  return { projectId: pair.project_id, campaignId, actionId: reply.json.async_action_id as string, jobs, campaigns };
}

const binnedVouchers = async (campaigns: ReturnType<typeof campaignApi>, campaignId: string) => {
  const data = (await campaigns.listBinEntries('limit=100')).json.data as Array<Record<string, unknown>>;
  return data.filter((e) => e.resource_type === 'voucher' && e.resource_parent_id === campaignId);
};

describe('the CAMPAIGN.VOUCHERS_DELETE job', () => {
  it('puts an open-job marker with the delete and removes it in the transaction that makes the action DONE', async () => {
    const { projectId, actionId, jobs } = await deletedCampaign(10);
    expect(await markerOf(projectId, actionId)).toEqual({ type: 'delete-campaign-vouchers', projectId, subjectId: actionId, createdAt: expect.any(String) });
    await jobs.deliver(runtime);
    expect((await getAsyncAction(runtime, projectId, actionId))?.status).toBe('DONE');
    expect(await markerOf(projectId, actionId)).toBeNull();
  });

  it('stopped mid-job it stays IN_PROGRESS at a checkpoint; the start-up reconcile re-enqueues it and it finishes with every voucher binned once', async () => {
    const { projectId, campaignId, actionId, jobs, campaigns } = await deletedCampaign(90);
    const [job] = jobs.sent.splice(0);
    const stop = new AbortController();
    // The last delivery: a failure would mark the action FAILED, a stop must not.
    const reply = await work([job as JobMessage], { stop: stop.signal, ddb: stoppingAfterTransactions(runtime.ddb, stop, 2), receives: 3 });
    expect(reply.batchItemFailures).toHaveLength(1);
    const stopped = await getAsyncAction(runtime, projectId, actionId);
    expect(stopped?.status).toBe('IN_PROGRESS');
    expect(stopped?.doneCount).toBeGreaterThan(0);
    expect(stopped?.doneCount).toBeLessThan(90);
    expect(await listCampaignVoucherCodes(runtime, projectId, campaignId)).toHaveLength(90 - (stopped?.doneCount ?? 0));

    const queue = new RecordingJobQueue();
    const report = await resumeOpenJobs(runtime, queue);
    expect(queue.sent).toContainEqual({ type: 'delete-campaign-vouchers', projectId, asyncActionId: actionId });
    expect(report.resumed.map((j) => j.subjectId)).toContain(actionId);
    await work(queue.sent.splice(0).filter((j) => 'asyncActionId' in j && j.asyncActionId === actionId));
    expect(await getAsyncAction(runtime, projectId, actionId)).toMatchObject({ status: 'DONE', doneCount: 90, requested: 90 });
    expect(await listCampaignVoucherCodes(runtime, projectId, campaignId)).toEqual([]);
    expect(await binnedVouchers(campaigns, campaignId)).toHaveLength(90);
  });

  it('two runs of one action at once remove and count each voucher once', async () => {
    const { projectId, campaignId, actionId, jobs, campaigns } = await deletedCampaign(70);
    const [job] = jobs.sent.splice(0);
    await Promise.all([
      runCampaignVouchersDeletion(runtime, projectId, actionId),
      runCampaignVouchersDeletion(runtime, projectId, actionId),
      work([job as JobMessage]),
    ]);
    expect(await getAsyncAction(runtime, projectId, actionId)).toMatchObject({ status: 'DONE', doneCount: 70 });
    expect(await binnedVouchers(campaigns, campaignId)).toHaveLength(70);
  });

  it('a dead-lettered deletion is marked FAILED with its marker deleted, and a DONE one stays DONE', async () => {
    const { projectId, actionId, jobs } = await deletedCampaign(5, true);
    const [job] = jobs.sent.splice(0);
    expect(await closeDeadLetteredJob(runtime, sqsRecord(JSON.stringify(job), 3), 3)).toBe('closed');
    expect(await getAsyncAction(runtime, projectId, actionId)).toMatchObject({ status: 'FAILED', failure: deadLetterReason(3) });
    expect(await markerOf(projectId, actionId)).toBeNull();

    const finished = await deletedCampaign(5, true);
    const [done] = finished.jobs.sent.splice(0);
    await work([done as JobMessage]);
    expect(await closeDeadLetteredJob(runtime, sqsRecord(JSON.stringify(done), 3), 3)).toBe('not-open');
    expect((await getAsyncAction(runtime, finished.projectId, finished.actionId))?.status).toBe('DONE');
  });

  it('a failing last delivery marks the action FAILED', async () => {
    const { projectId, actionId, jobs } = await deletedCampaign(5);
    const [job] = jobs.sent.splice(0);
    const broken = new Proxy(runtime.ddb, {
      get(target, prop, receiver) {
        if (prop !== 'send') return Reflect.get(target, prop, receiver) as unknown;
        return async (command: { constructor: { name: string } }) => {
          if (command.constructor.name === 'QueryCommand') throw new Error('table unavailable');
          return (target.send as (c: unknown) => Promise<unknown>)(command);
        };
      },
    });
    const reply = await work([job as JobMessage], { ddb: broken as DynamoDBDocumentClient, receives: 3 });
    expect(reply.batchItemFailures).toHaveLength(1);
    expect(await getAsyncAction(runtime, projectId, actionId)).toMatchObject({ status: 'FAILED' });
  });
});
