import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { getAsyncAction } from '../../../lib/async-actions/async-action.repo.js';
import { type Campaign, CAMPAIGN_TYPES } from '../../../lib/campaigns/campaign.js';
import { listCampaignsQuery } from '../../../lib/campaigns/campaign-list.schema.js';
import { getCampaign, getCampaignCounter, listCampaignEntries, setCampaignStatus } from '../../../lib/campaigns/campaign.repo.js';
import { listCampaigns } from '../../../lib/campaigns/campaign.service.js';
import { ManualClock } from '../../../lib/clock.js';
import * as entities from '../../../lib/db/entities.js';
import { keys } from '../../../lib/db/keys.js';
import type { Runtime } from '../../../lib/runtime.js';
import { listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, type CampaignApi, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/**
 * enable-campaign, disable-campaign, update-campaign and delete-campaign (issue 16 item 4) against
 * DynamoDB Local: each rule, the list entries, view entries and counter staying true to the final
 * state under races, and the deleted campaign's vouchers going through CAMPAIGN.VOUCHERS_DELETE.
 * Crash safety of that job: test/integration/jobs/campaign-deletion-job.test.ts.
 */

async function setup() {
  const clock = new ManualClock(Date.UTC(2026, 3, 1));
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  const api = apiClient({ runtime, jobs }, keyPairHeaders(pair));
  return { clock, runtime, p: pair.project_id, pair, jobs, api, campaigns: campaignApi(runtime, pair, jobs) };
}

const kinds = [
  (name: string) => campaignBodies.DISCOUNT_COUPONS(name),
  (name: string) => campaignBodies.GIFT_VOUCHERS(name),
  (name: string) => campaignBodies.LOYALTY_PROGRAM(name),
  (name: string) => campaignBodies.REFERRAL_PROGRAM(name),
  (name: string) => ({ ...campaignBodies.REFERRAL_PROGRAM(name), voucher: { ...campaignBodies.REFERRAL_PROGRAM(name).voucher, is_referral_code: false } }),
  (name: string) => campaignBodies.PROMOTION(name),
];

async function createMix(runtime: Runtime, p: string, api: CampaignApi, clock: ManualClock, n: number): Promise<Campaign[]> {
  const out: Campaign[] = [];
  for (let i = 0; i < n; i += 1) {
    clock.advance(1000);
    const made = await newCampaign(api, (kinds[i % kinds.length] as (name: string) => Record<string, unknown>)(`Mix ${String(i).padStart(3, '0')}`));
    out.push((await getCampaign(runtime, p, made.id as string)) as Campaign);
  }
  return out;
}

const query = (raw: Record<string, string>) => listCampaignsQuery.parse(raw);
const fullRead = { 'filters[campaigns][conditions][$has_value]': '' };

/** Every page of a listing (limit 3) against the full read of the list entries. */
async function expectSameAsFullRead(runtime: Runtime, p: string, raw: Record<string, string>): Promise<number> {
  const all = await listCampaigns(runtime, p, query({ ...raw, ...fullRead, limit: '100' }));
  const ids: string[] = [];
  for (let page = 1; page <= Math.ceil(all.total / 3) + 1; page += 1) {
    const got = await listCampaigns(runtime, p, query({ ...raw, limit: '3', page: String(page) }));
    expect(got.total, JSON.stringify(raw)).toBe(all.total);
    ids.push(...got.campaigns.map((c) => c.id));
  }
  expect(ids, JSON.stringify(raw)).toEqual(all.campaigns.map((c) => c.id));
  return all.total;
}

const protect = (runtime: Runtime, p: string, id: string) =>
  runtime.ddb.send(
    new UpdateCommand({
      TableName: runtime.tableName,
      Key: entities.campaign.key(p, id),
      UpdateExpression: 'SET #p = :t',
      ExpressionAttributeNames: { '#p': 'protected' },
      ExpressionAttributeValues: { ':t': true },
    }),
  );

describe('POST /v1/campaigns/{campaignId}/enable and …/disable', () => {
  it('switches a campaign off and on by id or name; it stays readable with active false, and its list entry follows', async () => {
    const { runtime, p, api, campaigns } = await setup();
    const made = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Switch'), vouchers_count: 1 });
    const id = made.id as string;
    const off = await api.call('disable-campaign', { params: { campaignId: id } });
    expect(off.status).toBe(200);
    expect(off.json).toEqual({});
    const read = await campaigns.getCampaign(id);
    expect(read.json).toMatchObject({ id, active: false, updated_at: expect.any(String) });
    const [code] = await listCampaignVoucherCodes(runtime, p, id);
    expect((await campaigns.getVoucher(code as string)).status).toBe(200);
    const disabled = await listCampaigns(runtime, p, query({ 'filters[active][conditions][$disabled]': '' }));
    expect(disabled.campaigns.map((c) => c.id)).toEqual([id]);

    expect((await api.call('enable-campaign', { params: { campaignId: 'Switch' } })).status).toBe(200);
    expect((await campaigns.getCampaign(id)).json.active).toBe(true);
    const entries = await listCampaignEntries(runtime, p, { consistent: true });
    expect(entries.find((e) => e.id === id)?.active).toBe(true);
  });

  it('answers 404 not_found for an unknown campaign and for another project’s campaign', async () => {
    const { runtime, api, campaigns } = await setup();
    const made = await newCampaign(campaigns);
    const missing = await api.call('disable-campaign', { params: { campaignId: 'camp_nothere' } });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ key: 'not_found', resource_type: 'campaign', resource_id: 'camp_nothere' });
    const other = apiClient({ runtime, jobs: new RecordingJobQueue() }, keyPairHeaders(await newProject(runtime)));
    for (const op of ['disable-campaign', 'enable-campaign', 'delete-campaign']) {
      expect((await other.call(op, { params: { campaignId: made.id as string } })).status, op).toBe(404);
    }
    expect((await other.call('update-campaign', { params: { campaignId: made.id as string }, json: { description: 'x' } })).status).toBe(404);
    expect((await campaigns.getCampaign(made.id as string)).json.active).toBe(true);
  });

  it('refuses every change of a protected campaign with 400 resource_protected', async () => {
    const { runtime, p, api, campaigns } = await setup();
    const made = await newCampaign(campaigns);
    const id = made.id as string;
    await protect(runtime, p, id);
    for (const [op, json] of [
      ['disable-campaign', undefined],
      ['enable-campaign', undefined],
      ['update-campaign', { description: 'x' }],
      ['delete-campaign', undefined],
    ] as const) {
      const reply = await api.call(op, { params: { campaignId: id }, ...(json ? { json } : {}) });
      expect(reply.status, op).toBe(400);
      expect(reply.json, op).toMatchObject({ key: 'resource_protected', resource_id: id, resource_type: 'campaign' });
    }
    expect((await campaigns.getCampaign(id)).json).toMatchObject({ active: true, protected: true });
  });
});

describe('PUT /v1/campaigns/{campaignId}', () => {
  it('changes the fields the reference allows, merges metadata, and keeps type, vouchers and status', async () => {
    const { api, campaigns, clock } = await setup();
    const made = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Spring'), metadata: { a: 1, b: 2 }, vouchers_count: 1 });
    clock.advance(5000);
    const reply = await api.call('update-campaign', {
      params: { campaignId: 'Spring' },
      json: {
        description: 'New description',
        start_date: '2026-04-01T00:00:00Z',
        expiration_date: '2026-12-31T00:00:00Z',
        validity_day_of_week: [1, 2],
        metadata: { c: 3 },
        unset_metadata_fields: ['a'],
        category: 'Seasonal',
        join_once: true,
        auto_join: true,
        type: 'STATIC',
        activity_duration_after_publishing: 'P24D',
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      id: made.id,
      name: 'Spring',
      description: 'New description',
      start_date: '2026-04-01T00:00:00.000Z',
      expiration_date: '2026-12-31T00:00:00.000Z',
      validity_day_of_week: [1, 2],
      metadata: { b: 2, c: 3 },
      category: 'Seasonal',
      join_once: true,
      auto_join: true,
      type: 'STATIC',
      activity_duration_after_publishing: 'P24D',
      vouchers_count: 1,
      creation_status: 'DONE',
      updated_at: new Date(Date.UTC(2026, 3, 1) + 5000).toISOString(),
    });
    expect((await campaigns.getCampaign(made.id as string)).json).toEqual(reply.json);
  });

  it("refuses a loyalty program's tier fields, fields of another campaign type and dates out of order, changing nothing", async () => {
    const { api, campaigns } = await setup();
    const coupons = await newCampaign(campaigns);
    const promo = await newCampaign(campaigns, campaignBodies.PROMOTION('Promo'));
    const loyalty = await newCampaign(campaigns, campaignBodies.LOYALTY_PROGRAM('Loyal'));
    // `discount` / `gift` on their own campaign type are built: test/integration/campaigns/update-campaign-vouchers.test.ts.
    for (const [ref, json, says] of [
      [loyalty.id, { options: { recalculate_tiers: true } }, '.options'],
      [promo.id, { discount: { type: 'PERCENT', percent_off: 50 } }, '.discount'],
      [coupons.id, { gift: { amount: 100 } }, '.gift'],
      [coupons.id, { referral_program: { conversion_event_type: 'redemption' } }, '.referral_program'],
      [promo.id, { join_once: true }, '.join_once'],
      [coupons.id, { start_date: '2026-05-01T00:00:00Z', expiration_date: '2026-04-01T00:00:00Z' }, 'expiration_date'],
    ] as const) {
      const reply = await api.call('update-campaign', { params: { campaignId: ref as string }, json });
      expect(reply.status, JSON.stringify(json)).toBe(400);
      expect(reply.json.key).toBe('invalid_payload');
      expect(String(reply.json.details)).toContain(says);
    }
    expect((await campaigns.getCampaign(coupons.id as string)).json.updated_at).toBeUndefined();
  });

  it('serves updated_at orders from the list entries once a campaign has changed', async () => {
    const { runtime, p, api, campaigns, clock } = await setup();
    const made = await createMix(runtime, p, campaigns, clock, 4);
    clock.advance(1000);
    await api.call('update-campaign', { params: { campaignId: (made[0] as Campaign).id }, json: { description: 'newest change' } });
    const byUpdate = await listCampaigns(runtime, p, query({ order: '-updated_at' }));
    expect(byUpdate.campaigns[0]?.id).toBe((made[0] as Campaign).id);
    await expectSameAsFullRead(runtime, p, { order: 'updated_at' });
    expect((await getCampaignCounter(runtime, p))?.campaignsUpdated).toBe(true);
  });
});

describe('concurrent changes of one campaign', () => {
  it('20 parallel enables, disables and updates: each commits once, and the campaign, its list entry and the listings agree with the final state', async () => {
    const { runtime, p, api, campaigns, clock } = await setup();
    const made = await createMix(runtime, p, campaigns, clock, 3);
    const target = made[1] as Campaign;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 3 === 0
          ? api.call('enable-campaign', { params: { campaignId: target.id } })
          : i % 3 === 1
            ? api.call('disable-campaign', { params: { campaignId: target.id } })
            : api.call('update-campaign', { params: { campaignId: target.id }, json: { metadata: { [`k${i}`]: i } } }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    const stored = (await getCampaign(runtime, p, target.id)) as Campaign;
    expect(stored.revision).toBe(20);
    // Every update's key survives: merges were applied on top of each other, none lost.
    expect(Object.keys(stored.metadata).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => i)
        .filter((i) => i % 3 === 2)
        .map((i) => `k${i}`)
        .sort(),
    );
    const entry = (await listCampaignEntries(runtime, p, { consistent: true })).find((e) => e.id === target.id);
    expect(entry).toMatchObject({ active: stored.active, updatedAt: stored.updatedAt });
    const counter = await getCampaignCounter(runtime, p);
    expect(counter).toMatchObject({ campaignCount: 3, campaignsUpdated: true });
    expect(counter?.notDone ?? {}).toEqual({});
    await expectSameAsFullRead(runtime, p, { [stored.active ? 'filters[active][conditions][$enabled]' : 'filters[active][conditions][$disabled]']: '' });
  });
});

describe('DELETE /v1/campaigns/{campaignId}', () => {
  it('moves the campaign to the bin at once, frees its name, and its job moves every voucher to the bin', async () => {
    const { runtime, p, api, jobs, campaigns } = await setup();
    const made = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Doomed'), vouchers_count: 1 });
    const id = made.id as string;
    await campaigns.addVoucher(id, {}, 'vouchers_count=40');
    await jobs.deliver(runtime);
    const codes = await listCampaignVoucherCodes(runtime, p, id);
    expect(codes).toHaveLength(41);

    const reply = await api.call('delete-campaign', { params: { campaignId: 'Doomed' } });
    expect(reply.status).toBe(202);
    const actionId = reply.json.async_action_id as string;
    expect(actionId).toMatch(/^aa_/);
    expect((await campaigns.getCampaign(id)).status).toBe(404);
    expect((await campaigns.getCampaign('Doomed')).status).toBe(404);
    const again = await campaigns.createCampaign(campaignBodies.GIFT_VOUCHERS('Doomed'));
    expect(again.status).toBe(200);
    expect(again.json.id).not.toBe(id);
    const bin = await campaigns.listBinEntries('limit=100');
    expect(bin.json.data).toEqual([expect.objectContaining({ resource_id: id, resource_type: 'campaign', resource_name: 'Doomed', object: 'campaign' })]);
    expect((await campaigns.getAsyncAction(actionId)).json).toMatchObject({ type: 'CAMPAIGN.VOUCHERS_DELETE', status: 'ENQUEUED' });

    await jobs.deliver(runtime);
    const done = await campaigns.getAsyncAction(actionId);
    expect(done.json).toMatchObject({ status: 'DONE', progress: 100, result: { done_count: 41 } });
    expect(await listCampaignVoucherCodes(runtime, p, id)).toEqual([]);
    for (const code of codes.slice(0, 5)) expect((await campaigns.getVoucher(code)).status).toBe(404);
    const binned = (await campaigns.listBinEntries('limit=100')).json.data as Array<Record<string, unknown>>;
    expect(binned.filter((e) => e.resource_type === 'voucher' && e.resource_parent_id === id)).toHaveLength(41);
  });

  it('with force=true removes the campaign and its vouchers for good: nothing in the bin', async () => {
    const { runtime, p, api, jobs, campaigns } = await setup();
    const made = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Gone'), vouchers_count: 1 });
    const reply = await api.call('delete-campaign', { params: { campaignId: made.id as string }, query: 'force=true' });
    expect(reply.status).toBe(202);
    await jobs.deliver(runtime);
    expect((await getAsyncAction(runtime, p, reply.json.async_action_id as string))?.status).toBe('DONE');
    expect(await listCampaignVoucherCodes(runtime, p, made.id as string)).toEqual([]);
    expect((await campaigns.listBinEntries()).json.data).toEqual([]);
  });

  it('deletes a promotion with its tier pointers; of 10 parallel deletes of one campaign exactly one succeeds, the rest find nothing', async () => {
    const { runtime, p, api, campaigns } = await setup();
    const made = await newCampaign(campaigns, campaignBodies.PROMOTION('Promo'));
    const tiers = (made.promotion as { tiers: Array<{ id: string }> }).tiers;
    const replies = await Promise.all(Array.from({ length: 10 }, () => api.call('delete-campaign', { params: { campaignId: made.id as string } })));
    expect(replies.map((r) => r.status).sort()).toEqual([202, ...Array(9).fill(404)]);
    expect((await getCampaignCounter(runtime, p))?.deletedCount).toBe(1);
    for (const tier of tiers) expect(await entities.promotionTierRef.get(runtime, entities.promotionTierRef.key(p, tier.id))).toBeNull();
  });

  it('keeps every listing (type, referral flag, status, order) equal to the full read after deletions, and the views and counter true', async () => {
    const { runtime, p, api, campaigns, clock } = await setup();
    const made = await createMix(runtime, p, campaigns, clock, 14);
    await setCampaignStatus(runtime, made[2] as Campaign, 'IN_PROGRESS');
    await setCampaignStatus(runtime, made[7] as Campaign, 'FAILED');
    for (const i of [0, 2, 5, 9, 13]) {
      expect((await api.call('delete-campaign', { params: { campaignId: (made[i] as Campaign).id } })).status).toBe(202);
    }
    const counter = await getCampaignCounter(runtime, p);
    expect(counter).toMatchObject({ campaignCount: 14, deletedCount: 5 });
    expect(Object.values(counter?.notDone ?? {}).filter((r) => r.s === 'DELETED')).toHaveLength(5);
    expect((await listCampaigns(runtime, p, query({}))).total).toBe(9);
    for (const type of [undefined, ...CAMPAIGN_TYPES]) {
      for (const ref of [undefined, 'true', 'false']) {
        for (const status of [undefined, 'DONE', 'IN_PROGRESS', 'FAILED']) {
          const raw = { ...(type ? { campaign_type: type } : {}), ...(ref ? { is_referral_code: ref } : {}), ...(status ? { campaign_status: status } : {}) };
          await expectSameAsFullRead(runtime, p, { ...raw, order: '-created_at' });
        }
      }
    }
    await expectSameAsFullRead(runtime, p, { order: 'created_at' });
    // No view entry of a deleted campaign is left.
    const deleted = new Set([0, 2, 5, 9, 13].map((i) => (made[i] as Campaign).id));
    const viewEntries = await entities.campaignViewEntry.query(runtime, { key: [p, 'TYPE#PROMOTION'] }, { consistent: true });
    expect(viewEntries.filter((e) => deleted.has(e.id))).toEqual([]);
    // New campaigns after deletions are numbered on, and listed.
    clock.advance(1000);
    await newCampaign(campaigns, campaignBodies.PROMOTION('After'));
    expect((await listCampaigns(runtime, p, query({ campaign_type: 'PROMOTION' }))).total).toBe(2);
    await expectSameAsFullRead(runtime, p, { campaign_type: 'PROMOTION' });
    expect(keys.campaignListPartition(p)).toContain(p);
  });

  it('a voucher of a deleted campaign can still be deleted by hand before the job reaches it', async () => {
    const { runtime, p, api, jobs, campaigns } = await setup();
    const made = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Early'), vouchers_count: 1 });
    const [code] = await listCampaignVoucherCodes(runtime, p, made.id as string);
    const deleted = await api.call('delete-campaign', { params: { campaignId: made.id as string } });
    expect(deleted.status).toBe(202);
    expect((await campaigns.deleteVoucher(code as string)).status).toBe(204);
    await jobs.deliver(runtime);
    expect(await getAsyncAction(runtime, p, deleted.json.async_action_id as string)).toMatchObject({ status: 'DONE', doneCount: 0, requested: 0 });
  });

  it('a voucher created while its campaign is deleted either fails with 404 or is removed by the job: none is left', async () => {
    const { runtime, p, api, jobs, campaigns } = await setup();
    const made = await newCampaign(campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Race'), vouchers_count: 1 });
    const id = made.id as string;
    const [deleted, ...added] = await Promise.all([
      api.call('delete-campaign', { params: { campaignId: id } }),
      ...Array.from({ length: 8 }, () => campaigns.addVoucher(id)),
    ]);
    expect(deleted?.status).toBe(202);
    for (const reply of added) expect([200, 404]).toContain(reply.status);
    await jobs.deliver(runtime);
    const action = await getAsyncAction(runtime, p, deleted?.json.async_action_id as string);
    expect(action?.status).toBe('DONE');
    expect(action?.doneCount).toBe(1 + added.filter((r) => r.status === 200).length);
    expect(await listCampaignVoucherCodes(runtime, p, id)).toEqual([]);
    for (const reply of added.filter((r) => r.status === 200)) expect((await campaigns.getVoucher(reply.json.code as string)).status).toBe(404);
  });

  it('a delete racing updates and disables of the same campaign: the campaign ends deleted, with nothing left in the listings', async () => {
    const { runtime, p, api, campaigns } = await setup();
    const made = await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Contended'));
    const id = made.id as string;
    const replies = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? api.call('disable-campaign', { params: { campaignId: id } })
          : api.call('update-campaign', { params: { campaignId: id }, json: { description: `d${i}` } }),
      ),
      api.call('delete-campaign', { params: { campaignId: id } }),
    ]);
    expect(replies.at(-1)?.status).toBe(202);
    for (const r of replies.slice(0, -1)) expect([200, 404]).toContain(r.status);
    expect(await getCampaign(runtime, p, id)).toBeNull();
    expect(await listCampaignEntries(runtime, p, { consistent: true })).toEqual([]);
    expect((await listCampaigns(runtime, p, query({}))).total).toBe(0);
  });
});
