import { describe, expect, it } from 'vitest';
import type { Campaign } from '../../../lib/campaigns/campaign.js';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { campaignCounterItem, campaignItem, listEntryItem } from '../../../lib/campaigns/campaign.repo.js';
import type { Runtime } from '../../../lib/runtime.js';
import { keys } from '../../../lib/db/keys.js';
import { campaignApi } from '../../support/api.js';
import { newProject, testRuntime } from '../../support/runtime.js';
import { seededCampaign } from '../../support/seeded-campaigns.js';

const COUNT = 5000;

/**
 * Writes campaigns, their list entries and the project's counter as the repo does, but with
 * BatchWriteItem: seeding 5,000 through transactions takes longer than this file may.
 */
async function seed(runtime: Runtime, campaigns: Campaign[]): Promise<void> {
  const items = campaigns.flatMap((c, i) => [campaignItem(c), listEntryItem(c, i + 1)]);
  const last = campaigns.at(-1);
  if (last) items.push(campaignCounterItem(last.projectId, { campaignCount: campaigns.length, lastCreatedAt: last.createdAt }));
  const batches: (typeof items)[] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  for (let i = 0; i < batches.length; i += 20) {
    await Promise.all(
      batches.slice(i, i + 20).map(async (batch) => {
        let pending = batch.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const res = await runtime.ddb.send(new BatchWriteCommand({ RequestItems: { [runtime.tableName]: pending } }));
          pending = (res.UnprocessedItems?.[runtime.tableName] ?? []) as typeof pending;
        }
      }),
    );
  }
}

describe('GET /v1/campaigns with 5,000 campaigns', () => {
  it('serves unfiltered page 50 from the counter, one key range of the sequence index and one batch read', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    await seed(
      runtime,
      Array.from({ length: COUNT }, (_, i) => seededCampaign(pair.project_id, i, 'Scale', 5)),
    );

    const sent: { name: string; input: Record<string, unknown> }[] = [];
    const send = runtime.ddb.send.bind(runtime.ddb);
    runtime.ddb.send = ((command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      return send(command as never);
    }) as typeof runtime.ddb.send;
    const api = campaignApi(runtime, pair);

    const reply = await api.listCampaigns('limit=100&page=50&order=created_at');
    expect(reply.status).toBe(200);
    expect(reply.json.total).toBe(COUNT);
    const page = reply.json.campaigns as { name: string }[];
    expect(page).toHaveLength(100);
    expect(page[0]?.name).toBe('Scale 04900');
    expect(page[99]?.name).toBe('Scale 04999');

    const data = sent.filter((c) => !(c.name === 'GetCommand' && String((c.input.Key as { PK: string }).PK).startsWith('APPKEY#')));
    expect(data.some((c) => c.name.includes('Scan'))).toBe(false);
    expect(data.map((c) => c.name)).toEqual(['GetCommand', 'QueryCommand', 'BatchGetCommand']);
    expect(data[0]?.input.Key).toEqual(keys.campaignCounter(pair.project_id));
    expect(data[1]?.input).toMatchObject({
      IndexName: 'GSI1',
      ExpressionAttributeValues: {
        ':pk': keys.campaignSequencePartition(pair.project_id),
        ':from': keys.campaignSequenceSortKey(4901),
        ':to': keys.campaignSequenceSortKey(5000),
      },
    });

    const newest = await api.listCampaigns('limit=3&page=2');
    expect((newest.json.campaigns as { name: string }[]).map((c) => c.name)).toEqual(['Scale 04996', 'Scale 04995', 'Scale 04994']);

    sent.length = 0;
    await api.listCampaigns('campaign_type=GIFT_VOUCHERS&limit=100&page=25');
    const filtered = sent.filter((c) => c.name === 'QueryCommand');
    expect(filtered.length).toBeGreaterThan(0);
    for (const q of filtered) {
      expect(q.input.IndexName).toBeUndefined();
      expect(q.input.ExpressionAttributeValues).toEqual({ ':pk': keys.campaignListPartition(pair.project_id) });
    }

    const gifts = await api.listCampaigns('campaign_type=GIFT_VOUCHERS&limit=100&page=25&order=-created_at');
    expect(gifts.json.total).toBe(COUNT / 2);
    expect((gifts.json.campaigns as { name: string }[]).map((c) => c.name).at(-1)).toBe('Scale 00001');
    expect((await api.listCampaigns('limit=100&page=51')).json).toMatchObject({ campaigns: [], total: COUNT });
  }, 60_000);
});
