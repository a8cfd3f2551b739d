import { describe, expect, it } from 'vitest';
import { summaryCounterUpdates } from '../../../lib/campaigns/campaign-summary.repo.js';
import { transact } from '../../../lib/db/transact.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const summary = (campaignId: string, query = '') => api.call('get-campaign-summary', { params: { campaignId }, query });
  return { runtime, pair, projectId: pair.project_id, api, campaigns: campaignApi(runtime, pair), summary };
}

const base = {
  object: 'campaign_summary',
  redemptions: 0,
  redemptions_succeeded: 0,
  redemptions_failed: 0,
  rollbacks: 0,
  rollbacks_succeeded: 0,
  rollbacks_failed: 0,
  validations: 0,
  validations_succeeded: 0,
  validations_failed: 0,
  orders_amount: 0,
  orders_rolledback_amount: 0,
};
const vouchersAndPublications = { vouchers_created: 0, vouchers_deleted: 0, publications: 0, publications_succeeded: 0, publications_failed: 0 };

describe('GET /v1/campaigns/{campaignId}/summary (get-campaign-summary)', () => {
  it('answers each campaign type with the campaign, the base figures and its own groups, all 0 before anything happens', async () => {
    const { campaigns, summary } = await setup();
    const groups: Record<string, Json> = {
      DISCOUNT_COUPONS: { ...vouchersAndPublications, discounted_amount: 0, rolledback_discounted_amount: 0 },
      PROMOTION: { discounted_amount: 0, rolledback_discounted_amount: 0 },
      GIFT_VOUCHERS: {
        ...vouchersAndPublications,
        created_vouchers_amount: 0,
        amount_added: 0,
        amount_deleted: 0,
        amount_redeemed: 0,
        amount_rolledback: 0,
        amount_subtracted: 0,
      },
      LOYALTY_PROGRAM: {
        ...vouchersAndPublications,
        created_vouchers_points: 0,
        points_deleted: 0,
        points_subtracted: 0,
        points_added: 0,
        points_rewarded: 0,
        points_redeemed: 0,
        points_rolledback: 0,
        points_expired: 0,
        points_transferred_out: 0,
        points_transferred_in: 0,
        pending_points_added: 0,
        pending_points_subtracted: 0,
        pending_points_activated: 0,
        pending_points_canceled: 0,
      },
      REFERRAL_PROGRAM: { ...vouchersAndPublications, referred_customers: 0 },
    };
    for (const type of ['DISCOUNT_COUPONS', 'GIFT_VOUCHERS', 'LOYALTY_PROGRAM', 'REFERRAL_PROGRAM', 'PROMOTION'] as const) {
      const created = await newCampaign(campaigns, campaignBodies[type](`Summary ${type}`));
      const reply = await summary(created.id as string);
      expect(reply.status).toBe(200);
      const { campaign, ...figures } = reply.json as Json;
      expect(figures).toEqual({ ...base, ...groups[type] });
      expect(campaign).toMatchObject({ id: created.id, name: `Summary ${type}`, campaign_type: type, object: 'campaign' });
    }
  });

  it('finds the campaign by name too, and sums only the UTC days between start_date and end_date (both included)', async () => {
    const { runtime, projectId, campaigns, summary } = await setup();
    const created = await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Ranged'));
    const id = created.id as string;
    for (const [at, n] of [
      ['2026-07-01T23:59:59.000Z', 1],
      ['2026-07-02T00:00:00.000Z', 10],
      ['2026-07-03T12:00:00.000Z', 100],
      ['2026-07-04T00:00:00.000Z', 1000],
    ] as const) {
      expect((await transact(runtime, summaryCounterUpdates(runtime, projectId, id, at, { publications: n, publicationsSucceeded: n }))).ok).toBe(true);
    }
    const figure = async (query: string, ref = id) => ((await summary(ref, query)).json as Json).publications;
    expect(await figure('', 'Ranged')).toBe(1111);
    expect(await figure('start_date=2026-07-02&end_date=2026-07-03')).toBe(110);
    expect(await figure('start_date=2026-07-03')).toBe(1100);
    expect(await figure('end_date=2026-07-01')).toBe(1);
    // An instant stands for its UTC day.
    expect(await figure(`start_date=${encodeURIComponent('2026-07-02T18:00:00.000Z')}&end_date=${encodeURIComponent('2026-07-02T01:00:00Z')}`)).toBe(10);
  });

  it('refuses a malformed date or an end before the start with 400, and an unknown campaign with 404', async () => {
    const { campaigns, summary } = await setup();
    const created = await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Strict'));
    for (const query of ['start_date=yesterday', 'end_date=2026-13-01', 'start_date=2026-07-03&end_date=2026-07-02']) {
      const reply = await summary(created.id as string, query);
      expect(reply.status, query).toBe(400);
      expect((reply.json as Json).key, query).toBe('invalid_query_params');
    }
    const unknown = await summary('camp_doesnotexist');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'campaign', resource_id: 'camp_doesnotexist' });
  });

  it('does not show another project the campaign or its figures', async () => {
    const { runtime, campaigns } = await setup();
    const created = await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Private'));
    const other = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    expect((await other.call('get-campaign-summary', { params: { campaignId: created.id as string } })).status).toBe(404);
    expect((await other.call('get-campaign-summary', { params: { campaignId: 'Private' } })).status).toBe(404);
  });
});
