import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { activateDuePendingPoints } from '../../../lib/loyalties/pending-points.job.js';
import { getPendingEntry } from '../../../lib/loyalties/pending-points.repo.js';
import { activatePendingEntry } from '../../../lib/loyalties/pending-points.service.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { watchCalls } from '../../support/read-rounds.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const DAY = 86_400_000;

/** A program whose order.paid rule holds 10 points for a day, and a member with one paid order's PENDING entry. */
async function setup() {
  const clock = new ManualClock(Date.UTC(2026, 1, 10, 12, 0, 0));
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  await newCampaign(campaignApi(runtime, pair), {
    name: 'Club',
    campaign_type: 'LOYALTY_PROGRAM',
    type: 'AUTO_UPDATE',
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
  });
  const rules = await loyaltyApi(runtime, pair).createEarningRules('Club', [
    { event: 'order.paid', loyalty: { type: 'FIXED', points: 10 }, source: { banner: 'Paid' }, pending_points: { period_type: 'DAY', period_value: 1 } },
  ]);
  expect(rules.status).toBe(200);
  const member = (await api.call('add-member', { params: { campaignId: 'Club' }, json: { customer: { source_id: 'ann' } } })).json as {
    id: string;
    code: string;
  };
  expect((await api.call('create-order', { json: { amount: 1000, customer: { source_id: 'ann' }, status: 'PAID' } })).status).toBe(200);
  const listed = (await api.call('list-member-pending-points', { params: { memberId: member.code } })).json as { data: { id: string }[] };
  const entryId = listed.data[0]?.id ?? '';
  const card = async () =>
    ((await api.call('get-member', { params: { memberId: member.code } })).json as { loyalty_card: { balance: number; pending_points: number } }).loyalty_card;
  return { clock, runtime, pair, api, member, entryId, card };
}

describe('the pending points worker reads the entry from the due index', () => {
  it('activates a due entry without reading it again from the table (the index projects it whole)', async () => {
    const { clock, runtime, pair, member, entryId, card } = await setup();
    clock.advance(DAY);
    const entryReads: unknown[] = [];
    watchCalls(runtime, ({ name, input }) => {
      const key = (input.Key ?? {}) as Record<string, unknown>;
      if (name === 'Get' && String(key.SK ?? '').includes(entryId)) entryReads.push(key);
    });
    expect((await activateDuePendingPoints(runtime, { projectId: pair.project_id })).activated).toBe(1);
    expect(entryReads).toEqual([]);
    expect(await card()).toMatchObject({ balance: 10, pending_points: 0 });
    expect((await getPendingEntry(runtime, pair.project_id, member.id, entryId))?.status).toBe('ACTIVATED');
  });

  it('activates what the entry holds when the copy it was given is stale: the first try fails its condition, the retry reads the table', async () => {
    const { runtime, pair, api, member, entryId, card } = await setup();
    const stale = await getPendingEntry(runtime, pair.project_id, member.id, entryId);
    if (!stale) throw new Error('no entry');
    expect((await api.call('adjust-member-pending-points', { params: { memberId: member.code, pendingPointsId: entryId }, json: { points: 5 } })).status).toBe(
      200,
    );
    const done = await activatePendingEntry(runtime, stale, null, stale);
    expect(done.value.points).toBe(15);
    expect(await card()).toMatchObject({ balance: 15, pending_points: 0 });
    const again = await getPendingEntry(runtime, pair.project_id, member.id, entryId);
    await expect(activatePendingEntry(runtime, stale, null, stale)).rejects.toMatchObject({ status: 400 });
    expect(again?.status).toBe('ACTIVATED');
    expect(await card()).toMatchObject({ balance: 15 });
  });
});
