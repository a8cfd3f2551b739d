import { describe, expect, it } from 'vitest';
import { makeHandler as makeWorker } from '../../../functions/workers/jobs-worker.js';
import { addVouchersToCampaignRoute, createCampaignRoute, getAsyncActionRoute, getCampaignRoute } from '../../../lib/api/routes.js';
import { systemClock } from '../../../lib/clock.js';
import { listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { defaultExtras, routeClient } from '../../support/hostile/route-harness.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { sqsRecord as record } from '../../support/sqs-record.js';

/**
 * Races the issue lists that no other file covers. Covered elsewhere: 20 parallel adds of one code
 * (vouchers/add-campaign-vouchers), 50 tokens at 990 live (oauth/token-cap), 20 deletes of one
 * voucher (vouchers/delete-voucher), 20 assignments of one reward (rewards/create-reward-assignment),
 * 5 bulk generations into one campaign (vouchers/bulk-generation), one event retried 20 times with
 * one idempotency key (events/idempotency).
 */

async function setup() {
  const runtime = testRuntime({ clock: systemClock });
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = routeClient(runtime, { ...defaultExtras(), jobs });
  const headers = keyPairHeaders(pair);
  const created = await api(createCampaignRoute, { json: campaignBodies.DISCOUNT_COUPONS('Race'), headers });
  expect(created.status).toBe(200);
  const campaignId = (created.body as { id: string }).id;
  const vouchersCount = async () => ((await api(getCampaignRoute, { params: { campaignId }, headers })).body as { vouchers_count: number }).vouchers_count;
  return { runtime, pair, jobs, api, headers, campaignId, vouchersCount };
}

describe('races, fired in parallel and counted', () => {
  it('lets exactly one of 50 parallel adds of the same code succeed; the other 49 get 409 duplicate_found and the count is 1', async () => {
    const { runtime, pair, api, headers, campaignId, vouchersCount } = await setup();
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => api(addVouchersToCampaignRoute, { params: { campaignId }, json: { code: 'SAME-CODE' }, headers })),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of replies.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ code: 409, key: 'duplicate_found' });
    expect(await listCampaignVoucherCodes(runtime, pair.project_id, campaignId)).toEqual(['SAME-CODE']);
    expect(await vouchersCount()).toBe(1);
  });

  it('keeps vouchers_count equal to the vouchers stored under 20 concurrent bulk generations of 30 codes into one campaign, run by 20 concurrent workers', async () => {
    const { runtime, pair, jobs, api, headers, campaignId, vouchersCount } = await setup();
    const accepted = await Promise.all(
      Array.from({ length: 20 }, () => api(addVouchersToCampaignRoute, { params: { campaignId }, query: 'vouchers_count=30', headers })),
    );
    expect(accepted.map((r) => r.status)).toEqual(Array(20).fill(202));
    expect(jobs.sent).toHaveLength(20);
    const worker = makeWorker({ runtime });
    const results = await Promise.all(jobs.sent.splice(0).map((job) => worker({ Records: [record(JSON.stringify(job))] }, {} as never)));
    expect(results.flatMap((r) => r.batchItemFailures)).toEqual([]);
    const actions = await Promise.all(
      accepted.map((r) => api(getAsyncActionRoute, { params: { asyncActionId: (r.body as { async_action_id: string }).async_action_id }, headers })),
    );
    expect(actions.map((a) => (a.body as { status: string }).status)).toEqual(Array(20).fill('DONE'));
    const codes = await listCampaignVoucherCodes(runtime, pair.project_id, campaignId);
    expect(codes).toHaveLength(600);
    expect(new Set(codes).size).toBe(600);
    expect(await vouchersCount()).toBe(600);
  }, 120_000);
});
