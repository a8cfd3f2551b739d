import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable } from '../../../infra/local/engines.js';
import { type Campaign, CAMPAIGN_TYPES, type CampaignStatus } from '../../../lib/campaigns/campaign.js';
import { backfillCampaignFilters } from '../../../lib/campaigns/campaign-backfill.js';
import { listCampaignsQuery } from '../../../lib/campaigns/campaign-list.schema.js';
import { campaignViews, MAX_NOT_DONE } from '../../../lib/campaigns/campaign-views.js';
import {
  bulkCampaignItems,
  campaignCounterItem,
  campaignItem,
  getCampaign,
  getCampaignCounter,
  listCampaignEntries,
  listEntryItem,
  setCampaignStatus,
} from '../../../lib/campaigns/campaign.repo.js';
import { listCampaigns } from '../../../lib/campaigns/campaign.service.js';
import { putAll } from '../../../lib/db/batch-write.js';
import * as entities from '../../../lib/db/entities.js';
import { keys } from '../../../lib/db/keys.js';
import type { Runtime } from '../../../lib/runtime.js';
import { main } from '../../../scripts/admin/cli.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { engines, newProject, testRuntime } from '../../support/runtime.js';
import { seededCampaign } from '../../support/seeded-campaigns.js';

/** Runs the CLI in-process against the test DynamoDB Local (another table when given). */
async function admin(argv: string[], table = engines().tableName) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main(
    [...argv, '--endpoint', engines().dynamoEndpoint, '--table', table],
    { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) },
    {},
  );
  return { code, stderr, json: (stdout.length ? JSON.parse(stdout.join('\n')) : undefined) as { projects: Record<string, unknown>[] } };
}

const STATUSES: CampaignStatus[] = ['DONE', 'DONE', 'FAILED', 'DONE', 'IN_PROGRESS', 'DONE', 'DONE'];

/** The i-th campaign of an old project: the five types, referral programs with and without referral codes, a few not DONE. */
function oldCampaign(projectId: string, i: number): Campaign {
  const c = seededCampaign(projectId, i, 'Old', 3);
  const campaignType = CAMPAIGN_TYPES[i % CAMPAIGN_TYPES.length] ?? 'DISCOUNT_COUPONS';
  const status = STATUSES[i % STATUSES.length] ?? 'DONE';
  return {
    ...c,
    campaignType,
    voucher: c.voucher && { ...c.voucher, isReferralCode: campaignType === 'REFERRAL_PROGRAM' && i % 2 === 0 },
    creationStatus: status,
    vouchersGenerationStatus: status,
  };
}

/** Items as the code before the filter views wrote them: campaign, list entry without view numbers, a counter without views. */
async function writeOldForm(runtime: Pick<Runtime, 'ddb' | 'tableName'>, campaigns: Campaign[]): Promise<void> {
  const last = campaigns.at(-1) as Campaign;
  await putAll(runtime, [
    ...campaigns.flatMap((c, i) => [campaignItem(c), listEntryItem(c, i + 1)]),
    campaignCounterItem(last.projectId, { campaignCount: campaigns.length, lastCreatedAt: last.createdAt }),
  ]);
}

const query = (raw: Record<string, string>) => listCampaignsQuery.parse({ limit: '100', ...raw });
const LISTINGS: Record<string, string>[] = [
  {},
  { campaign_type: 'REFERRAL_PROGRAM' },
  { campaign_type: 'REFERRAL_PROGRAM', is_referral_code: 'true', order: 'created_at' },
  { is_referral_code: 'false', order: '-updated_at' },
  { campaign_status: 'FAILED' },
  { campaign_status: 'DONE', campaign_type: 'GIFT_VOUCHERS' },
  { campaign_status: 'IN_PROGRESS', is_referral_code: 'false', order: 'created_at' },
];

/** Each listing's ids and total, and whether answering it read the list partition. */
async function listingsOf(runtime: Runtime, p: string) {
  const out: Array<{ raw: Record<string, string>; total: number; ids: string[]; fullRead: boolean }> = [];
  for (const raw of LISTINGS) {
    const queried: string[] = [];
    const send = runtime.ddb.send.bind(runtime.ddb);
    runtime.ddb.send = ((command: { constructor: { name: string }; input: { ExpressionAttributeValues?: Record<string, unknown> } }) => {
      if (command.constructor.name === 'QueryCommand') queried.push(String(command.input.ExpressionAttributeValues?.[':pk']));
      return send(command as never);
    }) as typeof runtime.ddb.send;
    try {
      const page = await listCampaigns(runtime, p, query(raw));
      out.push({ raw, total: page.total, ids: page.campaigns.map((c) => c.id), fullRead: queried.includes(keys.campaignListPartition(p)) });
    } finally {
      runtime.ddb.send = send as typeof runtime.ddb.send;
    }
  }
  return out;
}

/** The answer by brute force over what was written. */
function expectedListings(campaigns: Campaign[]) {
  return LISTINGS.map((raw) => {
    const matching = campaigns.filter(
      (c) =>
        (raw.campaign_type === undefined || c.campaignType === raw.campaign_type) &&
        (raw.is_referral_code === undefined || String(c.voucher?.isReferralCode ?? false) === raw.is_referral_code) &&
        (raw.campaign_status === undefined || c.creationStatus === raw.campaign_status),
    );
    const ordered = raw.order === 'created_at' ? matching : [...matching].reverse();
    return { raw, total: matching.length, ids: ordered.map((c) => c.id) };
  });
}

/** Every view of the project numbered 1..n in creation order, the counter's counts and not-DONE set matching the list entries. */
async function expectViewsMatchEntries(runtime: Runtime, p: string): Promise<void> {
  const counter = await getCampaignCounter(runtime, p);
  const entries = (await listCampaignEntries(runtime, p, { consistent: true })).sort((a, b) => a.sequence - b.sequence);
  const members = new Map<string, string[]>();
  for (const e of entries) for (const view of campaignViews(e.campaignType, e.isReferralCode)) members.set(view, [...(members.get(view) ?? []), e.id]);
  expect(counter?.views).toEqual(Object.fromEntries([...members].map(([view, ids]) => [view, ids.length])));
  for (const [view, ids] of members) {
    expect(
      (await entities.campaignViewEntry.query(runtime, { key: [p, view] }, { consistent: true })).map((e) => e.id),
      view,
    ).toEqual(ids);
  }
  expect(Object.fromEntries(Object.entries(counter?.notDone ?? {}).map(([id, r]) => [id, r.s]))).toEqual(
    Object.fromEntries(entries.filter((e) => e.creationStatus !== 'DONE').map((e) => [e.id, e.creationStatus])),
  );
  for (const e of entries) expect(e.viewNumbers, e.id).toBeDefined();
}

describe('npm run admin -- backfill campaign-filters', () => {
  it('lists campaigns written before the views from the full read, then, once backfilled, from the views; a rerun changes nothing', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const p = pair.project_id;
    const campaigns = Array.from({ length: 40 }, (_, i) => oldCampaign(p, i));
    await writeOldForm(runtime, campaigns);

    const before = await listingsOf(runtime, p);
    expect(before.map(({ raw, total, ids }) => ({ raw, total, ids }))).toEqual(expectedListings(campaigns));
    expect(before.filter((l) => l.fullRead).map((l) => l.raw)).toEqual(LISTINGS.slice(1));

    // Before the backfill, the project keeps working: a status change is only counted, a new campaign gets no view entries.
    await setCampaignStatus(runtime, campaigns[4] as Campaign, 'DONE');
    campaigns[4] = { ...(campaigns[4] as Campaign), creationStatus: 'DONE', vouchersGenerationStatus: 'DONE' };
    expect(await getCampaignCounter(runtime, p)).toMatchObject({ campaignCount: 40, statusMoves: 1 });
    expect((await getCampaignCounter(runtime, p))?.views).toBeUndefined();

    const run = await admin(['backfill', 'campaign-filters', '--project', p]);
    expect(run.code).toBe(0);
    expect(run.json.projects).toEqual([{ project_id: p, campaigns: 40, outcome: 'indexed', not_done: 11, attempts: 1 }]);
    await expectViewsMatchEntries(runtime, p);
    const after = await listingsOf(runtime, p);
    expect(after.map(({ raw, total, ids }) => ({ raw, total, ids }))).toEqual(expectedListings(campaigns));
    expect(after.filter((l) => l.fullRead)).toEqual([]);

    const counter = await getCampaignCounter(runtime, p);
    const again = await admin(['backfill', 'campaign-filters', '--project', p]);
    expect(again.json.projects).toEqual([{ project_id: p, campaigns: 40, outcome: 'already-indexed', not_done: 11, attempts: 1 }]);
    expect(await getCampaignCounter(runtime, p)).toEqual(counter);

    // Campaigns created after the backfill continue the numbering.
    const api = campaignApi(runtime, pair);
    const made = await newCampaign(api, campaignBodies.REFERRAL_PROGRAM('After backfill'));
    await expectViewsMatchEntries(runtime, p);
    const referral = await api.listCampaigns('campaign_type=REFERRAL_PROGRAM&is_referral_code=true&limit=1');
    expect(referral.json).toMatchObject({ total: 5, campaigns: [{ id: made.id }] });
  });

  it('finishes on a rerun after stopping before the counter, counting campaigns created in between once', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const p = pair.project_id;
    const campaigns = Array.from({ length: 15 }, (_, i) => oldCampaign(p, i));
    await writeOldForm(runtime, campaigns);
    const send = runtime.ddb.send.bind(runtime.ddb);
    runtime.ddb.send = ((command: { constructor: { name: string }; input: { Key?: { SK?: string } } }) => {
      if (command.constructor.name === 'UpdateCommand' && command.input.Key?.SK === 'CAMPAIGN_COUNTER') return Promise.reject(new Error('stopped'));
      return send(command as never);
    }) as typeof runtime.ddb.send;
    await expect(backfillCampaignFilters(runtime, p)).rejects.toThrow('stopped');
    runtime.ddb.send = send as typeof runtime.ddb.send;
    expect((await getCampaignCounter(runtime, p))?.views).toBeUndefined();

    await newCampaign(campaignApi(runtime, pair), campaignBodies.GIFT_VOUCHERS('Between runs'));

    expect(await backfillCampaignFilters(runtime, p)).toMatchObject({ outcome: 'indexed', campaigns: 16 });
    await expectViewsMatchEntries(runtime, p);
    expect((await getCampaignCounter(runtime, p))?.views?.['TYPE#GIFT_VOUCHERS']).toBe(4);
  });

  it('reads the project again when a status changes while it is read, so the not-DONE set is the one after the change', async () => {
    const runtime = testRuntime();
    const p = (await newProject(runtime)).project_id;
    const campaigns = Array.from({ length: 10 }, (_, i) => oldCampaign(p, i));
    await writeOldForm(runtime, campaigns);
    const other = testRuntime();
    const send = runtime.ddb.send.bind(runtime.ddb);
    let raced = false;
    runtime.ddb.send = (async (command: { constructor: { name: string }; input: { ExpressionAttributeValues?: Record<string, unknown> } }) => {
      const out = await send(command as never);
      if (!raced && command.constructor.name === 'QueryCommand' && command.input.ExpressionAttributeValues?.[':pk'] === keys.campaignListPartition(p)) {
        raced = true;
        await setCampaignStatus(other, campaigns[2] as Campaign, 'DONE');
      }
      return out;
    }) as typeof runtime.ddb.send;

    const report = await backfillCampaignFilters(runtime, p);

    expect(report).toMatchObject({ outcome: 'indexed', attempts: 2, notDone: 2 });
    await expectViewsMatchEntries(runtime, p);
    expect(Object.keys((await getCampaignCounter(runtime, p))?.notDone ?? {}).sort()).toEqual([campaigns[4]?.id, campaigns[9]?.id].sort());
  });

  it(`rebuilds the not-DONE set after more than ${MAX_NOT_DONE} campaigns were not DONE; status filters read the full list meanwhile`, async () => {
    const runtime = testRuntime();
    const p = (await newProject(runtime)).project_id;
    const campaigns = Array.from({ length: MAX_NOT_DONE + 2 }, (_, i) => ({
      ...seededCampaign(p, i, 'Many', 4),
      creationStatus: i === 0 ? ('DONE' as const) : ('FAILED' as const),
    }));
    await putAll(runtime, bulkCampaignItems(campaigns));
    expect(await getCampaignCounter(runtime, p)).toMatchObject({ notDoneOverflow: true, notDone: {} });
    const failed = await listingsOf(runtime, p);
    expect(failed.find((l) => l.raw.campaign_status === 'FAILED')).toMatchObject({ total: MAX_NOT_DONE + 1, fullRead: true });
    expect(failed.find((l) => l.raw.campaign_type === 'REFERRAL_PROGRAM' && !l.raw.campaign_status)).toMatchObject({ fullRead: false });
    expect(await backfillCampaignFilters(runtime, p)).toMatchObject({ outcome: 'still-overflowing', notDone: MAX_NOT_DONE + 1 });

    for (const i of [1, 2]) await setCampaignStatus(runtime, (await getCampaign(runtime, p, campaigns[i]?.id as string)) as Campaign, 'DONE');
    expect(await getCampaignCounter(runtime, p)).toMatchObject({ notDoneOverflow: true, statusMoves: 2 });

    expect(await backfillCampaignFilters(runtime, p)).toMatchObject({ outcome: 'rebuilt', notDone: MAX_NOT_DONE - 1 });
    const counter = await getCampaignCounter(runtime, p);
    expect(counter?.notDoneOverflow).toBeUndefined();
    expect(Object.keys(counter?.notDone ?? {})).toHaveLength(MAX_NOT_DONE - 1);
    const page = await listCampaigns(runtime, p, query({ campaign_status: 'DONE', order: 'created_at' }));
    expect(page.campaigns.map((c) => c.id)).toEqual([0, 1, 2].map((i) => campaigns[i]?.id));
  }, 120_000);

  it('finds every project with campaigns by one Scan when no project is named', async () => {
    const tableName = `backfill-${Date.now()}`;
    const e = engines();
    const client = new DynamoDBClient({ region: e.region, endpoint: e.dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await ensureTable(client, tableName);
    client.destroy();
    const target = { ddb: testRuntime().ddb, tableName };
    await writeOldForm(
      target,
      [0, 1, 2].map((i) => oldCampaign('p-one', i)),
    );
    await writeOldForm(
      target,
      [0, 1, 2, 3].map((i) => oldCampaign('p-two', i)),
    );

    const run = await admin(['backfill', 'campaign-filters'], tableName);

    expect(run.code).toBe(0);
    expect(run.json.projects.map((r) => [r.project_id, r.campaigns, r.outcome]).sort()).toEqual([
      ['p-one', 3, 'indexed'],
      ['p-two', 4, 'indexed'],
    ]);
    expect((await admin(['backfill', 'campaign-filters'], tableName)).json.projects.map((r) => r.outcome)).toEqual(['already-indexed', 'already-indexed']);
  });
});
