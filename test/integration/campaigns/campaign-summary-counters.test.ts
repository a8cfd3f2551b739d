import { describe, expect, it } from 'vitest';
import { CAMPAIGN_SUMMARY_SHARDS } from '../../../lib/campaigns/campaign-summary.js';
import { readCampaignSummary, summaryCounterUpdates } from '../../../lib/campaigns/campaign-summary.repo.js';
import { campaign as campaignEntity } from '../../../lib/db/entities.js';
import { mustExist, transact } from '../../../lib/db/transact.js';
import { newProject, testRuntime } from '../../support/runtime.js';

/**
 * The campaign summary counters (get-campaign-summary's figures) against DynamoDB Local: sharded
 * daily items ADDed to inside the transactions that do what they count (lib/campaigns/campaign-summary.repo.ts).
 */
async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  return { runtime, projectId: pair.project_id, campaignId: `camp_${pair.project_id}` };
}

describe('campaign summary counters', () => {
  it('counts each of 40 parallel transactions exactly once, spread over the day’s shards', async () => {
    const { runtime, projectId, campaignId } = await setup();
    const at = '2026-07-02T10:00:00.000Z';
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        transact(
          runtime,
          summaryCounterUpdates(runtime, projectId, campaignId, at, { publications: 1, publicationsSucceeded: 1, discountedAmount: 100 }, () => (i % 8) / 8),
        ),
      ),
    );
    // A lost race is a conflict the caller retries: count the winners, retry the rest as a caller would.
    let retried = 0;
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.ok) continue;
      retried += 1;
      expect(
        (
          await transact(
            runtime,
            summaryCounterUpdates(runtime, projectId, campaignId, at, { publications: 1, publicationsSucceeded: 1, discountedAmount: 100 }, () => (i % 8) / 8),
          )
        ).ok,
      ).toBe(true);
    }
    expect(retried).toBeLessThan(40);
    const totals = await readCampaignSummary(runtime, projectId, campaignId);
    expect(totals).toMatchObject({ publications: 40, publicationsSucceeded: 40, discountedAmount: 4000, redemptions: 0, vouchersCreated: 0 });
    expect(CAMPAIGN_SUMMARY_SHARDS).toBe(8);
  });

  it('counts nothing when the transaction it rides in fails, and nothing for an all-zero delta', async () => {
    const { runtime, projectId, campaignId } = await setup();
    const failed = await transact(runtime, [
      mustExist(runtime, campaignEntity.key(projectId, 'camp_missing')),
      ...summaryCounterUpdates(runtime, projectId, campaignId, '2026-07-02T10:00:00.000Z', { redemptions: 1 }),
    ]);
    expect(failed.ok).toBe(false);
    expect(summaryCounterUpdates(runtime, projectId, campaignId, '2026-07-02T10:00:00.000Z', { redemptions: 0 })).toEqual([]);
    expect((await readCampaignSummary(runtime, projectId, campaignId)).redemptions).toBe(0);
  });

  it('sums the UTC days between start and end (both included), takes back negative deltas, and keeps campaigns apart', async () => {
    const { runtime, projectId, campaignId } = await setup();
    const add = (at: string, delta: Record<string, number>, campaign = campaignId) =>
      transact(runtime, summaryCounterUpdates(runtime, projectId, campaign, at, delta));
    await add('2026-07-01T23:59:59.999Z', { redemptions: 1, ordersAmount: 1000 });
    await add('2026-07-02T00:00:00.000Z', { redemptions: 2, ordersAmount: 500 });
    await add('2026-07-03T12:00:00.000Z', { redemptions: 4, rollbacks: 1 });
    await add('2026-07-03T13:00:00.000Z', { ordersAmount: -200, ordersRolledbackAmount: 200 });
    await add('2026-07-02T08:00:00.000Z', { redemptions: 100 }, 'camp_other');
    const read = (startDay?: string, endDay?: string) =>
      readCampaignSummary(runtime, projectId, campaignId, { ...(startDay ? { startDay } : {}), ...(endDay ? { endDay } : {}) });
    expect(await read()).toMatchObject({ redemptions: 7, rollbacks: 1, ordersAmount: 1300, ordersRolledbackAmount: 200 });
    expect(await read('2026-07-02', '2026-07-02')).toMatchObject({ redemptions: 2, ordersAmount: 500, rollbacks: 0 });
    expect(await read('2026-07-02')).toMatchObject({ redemptions: 6, ordersAmount: 300 });
    expect(await read(undefined, '2026-07-02')).toMatchObject({ redemptions: 3, ordersAmount: 1500 });
    expect(await read('2026-07-04')).toMatchObject({ redemptions: 0, ordersAmount: 0 });
  });

  it('refuses a delta that is not an integer', async () => {
    const { runtime, projectId, campaignId } = await setup();
    expect(() => summaryCounterUpdates(runtime, projectId, campaignId, '2026-07-02T10:00:00.000Z', { ordersAmount: 1.5 })).toThrow(/integer/);
  });
});
