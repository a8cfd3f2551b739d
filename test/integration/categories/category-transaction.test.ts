import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../lib/db/keys.js';
import type { Runtime } from '../../../lib/runtime.js';
import { campaignApi, campaignBodies, newCampaign, RecordingJobQueue } from '../../support/api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  return { runtime, projectId: pair.project_id, api: campaignApi(runtime, pair, new RecordingJobQueue()) };
}

/** The category id reserved for a name, or null when no category has that name. */
async function categoryIdByName(runtime: Runtime, projectId: string, name: string): Promise<string | null> {
  const res = await runtime.ddb.send(new GetCommand({ TableName: runtime.tableName, Key: keys.categoryName(projectId, name), ConsistentRead: true }));
  return res.Item ? String(res.Item.categoryId) : null;
}

describe('a new category is written with what names it, or not at all', () => {
  it('leaves no category behind when a campaign naming a new one is refused', async () => {
    const { runtime, projectId, api } = await setup();
    await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('Taken'));
    const refused = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Taken'), category: 'Never made' });
    expect(refused.status).toBe(409);
    expect(await categoryIdByName(runtime, projectId, 'Never made')).toBeNull();
    const made = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Fresh'), category: 'Never made' });
    expect(made.json).toMatchObject({ category: 'Never made', category_id: await categoryIdByName(runtime, projectId, 'Never made') });
  });

  it('leaves no category behind when a voucher or a bulk generation naming a new one is refused', async () => {
    const { runtime, projectId, api } = await setup();
    const campaign = await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('Codes'));
    expect((await api.addVoucher(String(campaign.id), { code: 'DUP' })).status).toBe(200);
    const duplicate = await api.addVoucher(String(campaign.id), { code: 'DUP', category: 'Orphan A' });
    expect(duplicate.status).toBe(409);
    const tooMany = await api.addVoucher(String(campaign.id), { category: 'Orphan B', code_config: { pattern: '#', charset: 'AB' } }, 'vouchers_count=5');
    expect(tooMany.status).toBe(400);
    expect(await categoryIdByName(runtime, projectId, 'Orphan A')).toBeNull();
    expect(await categoryIdByName(runtime, projectId, 'Orphan B')).toBeNull();
  });

  it('gives one category to concurrent first uses of a name, on campaigns and vouchers alike', async () => {
    const { runtime, projectId, api } = await setup();
    const campaign = await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('Host'));
    const replies = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS(`Race ${i}`), category: 'Shared' })),
      ...Array.from({ length: 5 }, (_, i) => api.addVoucher(String(campaign.id), { code: `RACE-${i}`, category: 'Shared' })),
    ]);
    const id = await categoryIdByName(runtime, projectId, 'Shared');
    expect(id).toMatch(/^cat_/);
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(replies.map((r) => r.json.category_id))).toEqual(new Set([id]));
  });
});
