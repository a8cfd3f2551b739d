import { describe, expect, it } from 'vitest';
import type { Campaign } from '../../../lib/campaigns/campaign.js';
import { bulkCampaignItems } from '../../../lib/campaigns/campaign.repo.js';
import { putAll } from '../../../lib/db/batch-write.js';
import { keys } from '../../../lib/db/keys.js';
import type { Runtime } from '../../../lib/runtime.js';
import { campaignApi } from '../../support/api.js';
import { newProject, testRuntime } from '../../support/runtime.js';
import { seededCampaign } from '../../support/seeded-campaigns.js';

const COUNT = 5000;

/**
 * The i-th seeded campaign, with some variety for the filters: every tenth a referral program
 * with referral codes (and every tenth + 4 one without), every 97th FAILED, every 211th IN_PROGRESS.
 */
function variedCampaign(projectId: string, i: number): Campaign {
  const c = seededCampaign(projectId, i, 'Scale', 5);
  const referral = i % 10 === 3 ? true : i % 10 === 7 ? false : null;
  const status = i % 97 === 5 ? 'FAILED' : i % 211 === 11 ? 'IN_PROGRESS' : 'DONE';
  return {
    ...c,
    ...(referral === null ? {} : { campaignType: 'REFERRAL_PROGRAM' as const, voucher: c.voucher && { ...c.voucher, isReferralCode: referral } }),
    creationStatus: status,
    vouchersGenerationStatus: status,
  };
}

interface Sent {
  name: string;
  input: Record<string, unknown>;
  items: number;
}

/** Wraps the runtime's client to record each command and the items its reply carried (Item, Items, BatchGet responses). */
function recordReads(runtime: Runtime): Sent[] {
  const sent: Sent[] = [];
  const send = runtime.ddb.send.bind(runtime.ddb);
  runtime.ddb.send = (async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
    const out = (await send(command as never)) as Record<string, unknown>;
    const responses = Object.values((out.Responses ?? {}) as Record<string, unknown[]>);
    const items = (out.Item ? 1 : 0) + (Array.isArray(out.Items) ? out.Items.length : 0) + responses.reduce((n, list) => n + list.length, 0);
    if (!(command.constructor.name === 'GetCommand' && String((command.input.Key as { PK: string }).PK).startsWith('APPKEY#'))) {
      sent.push({ name: command.constructor.name, input: command.input, items });
    }
    return out;
  }) as typeof runtime.ddb.send;
  return sent;
}

describe('GET /v1/campaigns with 5,000 campaigns', () => {
  it('serves unfiltered and filtered deep pages from the counter, key ranges and one batch read: at most 2 × limit + 1 items', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const p = pair.project_id;
    const campaigns = Array.from({ length: COUNT }, (_, i) => variedCampaign(p, i));
    // The repo's item layout, written with BatchWriteItem: seeding 5,000 through transactions takes longer than this file may.
    await putAll(runtime, bulkCampaignItems(campaigns));
    const sent = recordReads(runtime);
    const api = campaignApi(runtime, pair);

    const reply = await api.listCampaigns('limit=100&page=50&order=created_at');
    expect(reply.status).toBe(200);
    expect(reply.json.total).toBe(COUNT);
    const page = reply.json.campaigns as { name: string }[];
    expect(page).toHaveLength(100);
    expect(page[0]?.name).toBe('Scale 04900');
    expect(page[99]?.name).toBe('Scale 04999');
    expect(sent.map((c) => c.name)).toEqual(['GetCommand', 'QueryCommand', 'BatchGetCommand']);
    expect(sent[0]?.input.Key).toEqual(keys.campaignCounter(p));
    expect(sent[1]?.input).toMatchObject({
      IndexName: 'GSI1',
      ExpressionAttributeValues: {
        ':pk': keys.campaignSequencePartition(p),
        ':from': keys.campaignSequenceSortKey(4901),
        ':to': keys.campaignSequenceSortKey(5000),
      },
    });
    expect(sent.reduce((n, c) => n + c.items, 0)).toBe(201);

    const newest = await api.listCampaigns('limit=3&page=2');
    expect((newest.json.campaigns as { name: string }[]).map((c) => c.name)).toEqual(['Scale 04996', 'Scale 04995', 'Scale 04994']);

    const matching = (f: (c: Campaign) => boolean) => campaigns.filter(f);
    const cases: Array<[string, Campaign[], boolean]> = [
      ['campaign_type=GIFT_VOUCHERS&page=12', matching((c) => c.campaignType === 'GIFT_VOUCHERS'), true],
      ['campaign_status=DONE&page=45&order=created_at', matching((c) => c.creationStatus === 'DONE'), false],
      ['campaign_status=FAILED', matching((c) => c.creationStatus === 'FAILED'), true],
      ['is_referral_code=false&page=38&order=-updated_at', matching((c) => !(c.voucher?.isReferralCode ?? false)), true],
      [
        'campaign_type=REFERRAL_PROGRAM&is_referral_code=true&campaign_status=DONE&page=4',
        matching((c) => c.campaignType === 'REFERRAL_PROGRAM' && c.voucher?.isReferralCode === true && c.creationStatus === 'DONE'),
        true,
      ],
      [
        'campaign_type=DISCOUNT_COUPONS&campaign_status=IN_PROGRESS&order=created_at',
        matching((c) => c.campaignType === 'DISCOUNT_COUPONS' && c.creationStatus === 'IN_PROGRESS'),
        false,
      ],
    ];
    for (const [q, expected, descending] of cases) {
      sent.length = 0;
      const filtered = await api.listCampaigns(`limit=100&${q}`);
      const pageNumber = Number(/page=(\d+)/.exec(q)?.[1] ?? 1);
      const ordered = descending ? [...expected].reverse() : expected;
      const want = ordered.slice((pageNumber - 1) * 100, pageNumber * 100).map((c) => c.name);
      expect(filtered.json.total, q).toBe(expected.length);
      expect(
        (filtered.json.campaigns as { name: string }[]).map((c) => c.name),
        q,
      ).toEqual(want);
      expect(want.length, q).toBeGreaterThan(0);
      // The counter, the page's view entries, the page's campaigns: never the list partition.
      expect(
        sent.reduce((n, c) => n + c.items, 0),
        q,
      ).toBeLessThanOrEqual(2 * 100 + 1);
      expect(sent[0], q).toMatchObject({ name: 'GetCommand', items: 1 });
      expect(sent.at(-1), q).toMatchObject({ name: 'BatchGetCommand', items: want.length });
      expect(
        sent.slice(1, -1).reduce((n, c) => n + c.items, 0),
        q,
      ).toBeLessThanOrEqual(want.length);
      for (const c of sent.filter((s) => s.name === 'QueryCommand')) {
        expect((c.input.ExpressionAttributeValues as Record<string, unknown>)[':pk'], q).not.toBe(keys.campaignListPartition(p));
      }
      expect(sent.some((c) => c.name.includes('Scan'))).toBe(false);
    }
    expect((await api.listCampaigns('limit=100&page=51')).json).toMatchObject({ campaigns: [], total: COUNT });
  }, 120_000);
});
