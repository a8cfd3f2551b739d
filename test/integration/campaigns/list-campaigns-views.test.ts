import { describe, expect, it } from 'vitest';
import { type Campaign, CAMPAIGN_TYPES, type CampaignStatus } from '../../../lib/campaigns/campaign.js';
import { listCampaignsQuery } from '../../../lib/campaigns/campaign-list.schema.js';
import { campaignViews, MAX_NOT_DONE } from '../../../lib/campaigns/campaign-views.js';
import { bulkCampaignItems, getCampaign, getCampaignCounter, listCampaignEntries, setCampaignStatus } from '../../../lib/campaigns/campaign.repo.js';
import { listCampaigns } from '../../../lib/campaigns/campaign.service.js';
import { ManualClock } from '../../../lib/clock.js';
import { putAll } from '../../../lib/db/batch-write.js';
import * as entities from '../../../lib/db/entities.js';
import { keys } from '../../../lib/db/keys.js';
import type { Runtime } from '../../../lib/runtime.js';
import { campaignApi, campaignBodies, type CampaignApi, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { newProject, testRuntime } from '../../support/runtime.js';
import { seededCampaign } from '../../support/seeded-campaigns.js';

async function setup() {
  const clock = new ManualClock(Date.UTC(2026, 3, 1));
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  return { clock, runtime, p: pair.project_id, jobs, api: campaignApi(runtime, pair, jobs) };
}

/** The six kinds of campaign the filters tell apart: each type, and referral programs with and without referral codes. */
const kinds = [
  (name: string) => campaignBodies.DISCOUNT_COUPONS(name),
  (name: string) => campaignBodies.GIFT_VOUCHERS(name),
  (name: string) => campaignBodies.LOYALTY_PROGRAM(name),
  (name: string) => campaignBodies.REFERRAL_PROGRAM(name),
  (name: string) => ({ ...campaignBodies.REFERRAL_PROGRAM(name), voucher: { ...campaignBodies.REFERRAL_PROGRAM(name).voucher, is_referral_code: false } }),
  (name: string) => campaignBodies.PROMOTION(name),
];

/** Creates `n` campaigns cycling through the kinds, one second apart; returns them as stored. */
async function createMix(runtime: Runtime, p: string, api: CampaignApi, clock: ManualClock, n: number, from = 0): Promise<Campaign[]> {
  const out: Campaign[] = [];
  for (let i = from; i < from + n; i += 1) {
    clock.advance(1000);
    const made = await newCampaign(api, (kinds[i % kinds.length] as (name: string) => Record<string, unknown>)(`Mix ${String(i).padStart(3, '0')}`));
    out.push((await getCampaign(runtime, p, made.id as string)) as Campaign);
  }
  return out;
}

const query = (raw: Record<string, string>) => listCampaignsQuery.parse(raw);
/** `filters[…]` that every campaign matches: the same listing, served by the full read of the list partition. */
const fullRead = { 'filters[campaigns][conditions][$has_value]': '' };

/** Records the partitions the runtime's Queries read. */
function queriedPartitions(runtime: Runtime): string[] {
  const seen: string[] = [];
  const send = runtime.ddb.send.bind(runtime.ddb);
  runtime.ddb.send = ((command: { constructor: { name: string }; input: { ExpressionAttributeValues?: Record<string, unknown> } }) => {
    if (command.constructor.name === 'QueryCommand') seen.push(String(command.input.ExpressionAttributeValues?.[':pk']));
    return send(command as never);
  }) as typeof runtime.ddb.send;
  return seen;
}

/**
 * Every page of a listing (limit 3) against the full read; the views' answer must equal it, and
 * (when `queried` records the runtime's Queries) the view-served pages never read the list partition.
 */
async function expectSameAsFullRead(runtime: Runtime, p: string, raw: Record<string, string>, queried?: string[]): Promise<number> {
  const all = await listCampaigns(runtime, p, query({ ...raw, ...fullRead, limit: '100' }));
  const mark = queried?.length ?? 0;
  const ids: string[] = [];
  for (let page = 1; page <= Math.ceil(all.total / 3) + 1; page += 1) {
    const got = await listCampaigns(runtime, p, query({ ...raw, limit: '3', page: String(page) }));
    expect(got.total, JSON.stringify(raw)).toBe(all.total);
    ids.push(...got.campaigns.map((c) => c.id));
  }
  expect(ids, JSON.stringify(raw)).toEqual(all.campaigns.map((c) => c.id));
  if (queried) expect(queried.slice(mark), JSON.stringify(raw)).not.toContain(keys.campaignListPartition(p));
  return all.total;
}

const FILTERS: Record<string, string>[] = [];
for (const type of [undefined, ...CAMPAIGN_TYPES]) {
  for (const ref of [undefined, 'true', 'false']) {
    for (const status of [undefined, 'DONE', 'IN_PROGRESS', 'FAILED', 'DRAFT']) {
      FILTERS.push({
        ...(type ? { campaign_type: type } : {}),
        ...(ref ? { is_referral_code: ref } : {}),
        ...(status ? { campaign_status: status } : {}),
      });
    }
  }
}

/** What the project's stored views hold: per view, the numbers 1..n in order, each naming a campaign once. */
async function expectDenseViews(runtime: Runtime, p: string): Promise<void> {
  const counter = await getCampaignCounter(runtime, p);
  const entries = (await listCampaignEntries(runtime, p, { consistent: true })).sort((a, b) => a.sequence - b.sequence);
  expect(counter?.campaignCount).toBe(entries.length);
  const members = new Map<string, string[]>();
  for (const e of entries) {
    for (const view of campaignViews(e.campaignType, e.isReferralCode)) members.set(view, [...(members.get(view) ?? []), e.id]);
  }
  expect(counter?.views).toEqual(Object.fromEntries([...members].map(([view, ids]) => [view, ids.length])));
  for (const [view, ids] of members) {
    const stored = await entities.campaignViewEntry.query(runtime, { key: [p, view] }, { consistent: true });
    expect(
      stored.map((s) => s.id),
      view,
    ).toEqual(ids);
  }
  const notDone = entries.filter((e) => e.creationStatus !== 'DONE');
  expect(Object.keys(counter?.notDone ?? {}).sort()).toEqual(notDone.map((e) => e.id).sort());
  for (const e of notDone) expect(counter?.notDone?.[e.id]?.s).toBe(e.creationStatus);
}

describe('GET /v1/campaigns from filter views', () => {
  it('answers every combination of campaign_type, is_referral_code and campaign_status, page by page, as the full read does', async () => {
    const { runtime, p, api, clock } = await setup();
    const campaigns = await createMix(runtime, p, api, clock, 18);
    // Statuses through the real status change: some in progress, some failed (and one failed after being DONE).
    for (const [i, status] of [
      [1, 'IN_PROGRESS'],
      [4, 'FAILED'],
      [9, 'IN_PROGRESS'],
      [10, 'FAILED'],
      [16, 'FAILED'],
    ] as const) {
      await setCampaignStatus(runtime, campaigns[i] as Campaign, status);
    }
    await expectDenseViews(runtime, p);
    const queried = queriedPartitions(runtime);

    for (const raw of FILTERS) {
      const total = await expectSameAsFullRead(runtime, p, { ...raw, order: '-created_at' }, queried);
      if (raw.campaign_type === undefined || raw.campaign_status !== undefined)
        await expectSameAsFullRead(runtime, p, { ...raw, order: 'updated_at' }, queried);
      if (raw.campaign_status === 'DRAFT') expect(total).toBe(0);
    }
    for (const order of ['created_at', '-created_at', 'updated_at', '-updated_at']) {
      await expectSameAsFullRead(runtime, p, { campaign_type: 'REFERRAL_PROGRAM', is_referral_code: 'false', campaign_status: 'DONE', order }, queried);
      await expectSameAsFullRead(runtime, p, { campaign_status: 'FAILED', order }, queried);
    }
    expect(queried.some((pk) => pk.startsWith(keys.campaignViewPartition(p, '')))).toBe(true);

    const reply = await api.listCampaigns('campaign_type=REFERRAL_PROGRAM&is_referral_code=true&limit=2&order=created_at');
    expect(reply.json).toMatchObject({ object: 'list', data_ref: 'campaigns', total: 3 });
    expect((reply.json.campaigns as { name: string }[]).map((c) => c.name)).toEqual(['Mix 003', 'Mix 009']);
  });

  it('moves a campaign between the status totals in the transaction that changes its status', async () => {
    const { runtime, p, api, jobs, clock } = await setup();
    await createMix(runtime, p, api, clock, 3);
    const voucher = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 }, code_config: { pattern: 'B-####', charset: '0123456789' } };
    const totals = async () =>
      Object.fromEntries(
        await Promise.all(
          ['DONE', 'IN_PROGRESS', 'FAILED'].map(async (s) => [s, (await api.listCampaigns(`campaign_status=${s}&campaign_type=DISCOUNT_COUPONS`)).json.total]),
        ),
      );

    for (const name of ['Bulk 1', 'Bulk 2']) await newCampaign(api, { ...campaignBodies.DISCOUNT_COUPONS(name), vouchers_count: 5, voucher });
    expect(await totals()).toEqual({ DONE: 1, IN_PROGRESS: 2, FAILED: 0 });
    expect(Object.keys((await getCampaignCounter(runtime, p))?.notDone ?? {})).toHaveLength(2);

    await jobs.deliver(runtime);
    expect(await totals()).toEqual({ DONE: 3, IN_PROGRESS: 0, FAILED: 0 });
    expect((await getCampaignCounter(runtime, p))?.notDone).toEqual({});

    // Generation within the request that fails: IN_PROGRESS, then FAILED.
    const tight = { ...voucher, code_config: { pattern: 'Z#', charset: 'a' } };
    await newCampaign(api, { ...campaignBodies.DISCOUNT_COUPONS('Fits'), vouchers_count: 1, voucher: tight });
    expect((await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Full'), vouchers_count: 1, voucher: tight })).status).toBe(400);
    expect(await totals()).toEqual({ DONE: 4, IN_PROGRESS: 0, FAILED: 1 });

    // DONE → FAILED (a generation failed after its campaign was marked DONE), then the same status again: counted once.
    const bulk = (await getCampaign(runtime, p, (await api.getCampaign('Bulk 1')).json.id as string)) as Campaign;
    await setCampaignStatus(runtime, bulk, 'FAILED');
    await setCampaignStatus(runtime, bulk, 'FAILED');
    expect(await totals()).toEqual({ DONE: 3, IN_PROGRESS: 0, FAILED: 2 });
    expect((await api.listCampaigns('campaign_status=FAILED&order=created_at')).json.campaigns).toMatchObject([{ name: 'Bulk 1' }, { name: 'Full' }]);
    await setCampaignStatus(runtime, bulk, 'DONE');
    expect(await totals()).toEqual({ DONE: 4, IN_PROGRESS: 0, FAILED: 1 });
    await expectDenseViews(runtime, p);
  });

  it('keeps views, counts and the not-DONE set exact under concurrent creations and status changes', async () => {
    const { runtime, p, api, jobs, clock } = await setup();
    const voucher = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 }, code_config: { pattern: 'C-#####', charset: '0123456789' } };
    const body = (i: number) => {
      const base = (kinds[i % kinds.length] as (name: string) => Record<string, unknown>)(`Race ${String(i).padStart(2, '0')}`);
      return i % 3 === 0 && i % kinds.length !== 5
        ? { ...base, vouchers_count: 3, voucher: { ...voucher, ...(base.voucher as object), code_config: voucher.code_config } }
        : base;
    };
    clock.advance(1000);
    const first = await Promise.all(Array.from({ length: 18 }, (_, i) => api.createCampaign(body(i))));
    expect(first.map((r) => r.status)).toEqual(first.map(() => 200));
    const inProgress = first.filter((r) => r.json.creation_status === 'IN_PROGRESS').length;
    expect((await api.listCampaigns('campaign_status=IN_PROGRESS')).json.total).toBe(inProgress);

    // The worker finishes generations while more campaigns are created and others fail.
    const failing = (await getCampaign(runtime, p, first[1]?.json.id as string)) as Campaign;
    const second = await Promise.all([
      jobs.deliver(runtime),
      setCampaignStatus(runtime, failing, 'FAILED'),
      ...Array.from({ length: 12 }, (_, i) => api.createCampaign(body(18 + i))),
    ]);
    expect(second.slice(2).map((r) => (r as { status: number }).status)).toEqual(Array.from({ length: 12 }, () => 200));
    await expectDenseViews(runtime, p);

    // Racing status changes of one campaign: whichever commits last is what the views say.
    const target = (await getCampaign(runtime, p, first[2]?.json.id as string)) as Campaign;
    const moves: CampaignStatus[] = ['FAILED', 'IN_PROGRESS', 'DONE', 'FAILED', 'IN_PROGRESS', 'DONE', 'FAILED'];
    await Promise.all(moves.map((s) => setCampaignStatus(runtime, target, s)));
    await expectDenseViews(runtime, p);

    const checks: Record<string, string>[] = [
      {},
      { campaign_status: 'DONE' },
      { campaign_status: 'IN_PROGRESS' },
      { campaign_status: 'FAILED' },
      { campaign_type: 'GIFT_VOUCHERS' },
    ];
    for (const raw of checks) {
      await expectSameAsFullRead(runtime, p, raw);
    }
    const totalsByType = await Promise.all(CAMPAIGN_TYPES.map(async (t) => (await api.listCampaigns(`campaign_type=${t}`)).json.total as number));
    expect(totalsByType.reduce((a, b) => a + b, 0)).toBe(30);
  });

  it(`drops the not-DONE set when a creation or a status change would take it past ${MAX_NOT_DONE}, and answers status filters from the full read`, async () => {
    const { runtime, p, api, jobs } = await setup();
    const failed = Array.from({ length: MAX_NOT_DONE }, (_, i) => ({ ...seededCampaign(p, i, 'Cap', 4), creationStatus: 'FAILED' as const }));
    await putAll(runtime, bulkCampaignItems([...failed, seededCampaign(p, MAX_NOT_DONE, 'Cap', 4)]));
    expect(Object.keys((await getCampaignCounter(runtime, p))?.notDone ?? {})).toHaveLength(MAX_NOT_DONE);
    const voucher = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 5 }, code_config: { pattern: 'O-####', charset: '0123456789' } };

    await newCampaign(api, { ...campaignBodies.DISCOUNT_COUPONS('One too many'), vouchers_count: 2, voucher });

    expect(await getCampaignCounter(runtime, p)).toMatchObject({ campaignCount: MAX_NOT_DONE + 2, notDoneOverflow: true, notDone: {} });
    const queried = queriedPartitions(runtime);
    expect((await api.listCampaigns('campaign_status=IN_PROGRESS')).json).toMatchObject({ total: 1, campaigns: [{ name: 'One too many' }] });
    expect(queried).toContain(keys.campaignListPartition(p));
    await jobs.deliver(runtime);
    expect((await api.listCampaigns('campaign_status=DONE&order=created_at')).json).toMatchObject({
      total: 2,
      campaigns: [{ name: 'Cap 1000' }, { name: 'One too many' }],
    });
    expect((await getCampaignCounter(runtime, p))?.statusMoves).toBe(1);
    queried.length = 0;
    expect((await api.listCampaigns('campaign_type=DISCOUNT_COUPONS&limit=1')).json).toMatchObject({ total: 502, campaigns: [{ name: 'One too many' }] });
    expect(queried).not.toContain(keys.campaignListPartition(p));
  }, 120_000);

  it(`drops the not-DONE set when a DONE campaign fails while ${MAX_NOT_DONE} others are not DONE`, async () => {
    const { runtime, p, api } = await setup();
    const campaigns = Array.from({ length: MAX_NOT_DONE + 1 }, (_, i) => ({
      ...seededCampaign(p, i, 'Cap', 4),
      creationStatus: i === 0 ? ('DONE' as const) : ('IN_PROGRESS' as const),
    }));
    await putAll(runtime, bulkCampaignItems(campaigns));

    await setCampaignStatus(runtime, (await getCampaign(runtime, p, campaigns[0]?.id as string)) as Campaign, 'FAILED');

    expect(await getCampaignCounter(runtime, p)).toMatchObject({ notDoneOverflow: true, notDone: {}, statusMoves: 1 });
    expect((await api.listCampaigns('campaign_status=FAILED')).json).toMatchObject({ total: 1, campaigns: [{ name: 'Cap 0000' }] });
    expect((await api.listCampaigns('campaign_status=IN_PROGRESS')).json.total).toBe(MAX_NOT_DONE);
  }, 120_000);
});
