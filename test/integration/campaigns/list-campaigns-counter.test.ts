import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { getCampaignCounter } from '../../../lib/campaigns/campaign.repo.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const names = (reply: { json: Record<string, unknown> }): string[] => (reply.json.campaigns as { name: string }[]).map((c) => c.name);

describe('GET /v1/campaigns without filters (campaign counter and creation numbers)', () => {
  it('counts 12 campaigns created at once exactly and lists each of them once across the pages', async () => {
    const runtime = testRuntime({ clock: new ManualClock(Date.UTC(2026, 0, 1)) });
    const pair = await newProject(runtime);
    const api = campaignApi(runtime, pair);
    const wanted = Array.from({ length: 12 }, (_, i) => `Race ${String(i).padStart(2, '0')}`);

    const replies = await Promise.all(wanted.map((name) => api.createCampaign(campaignBodies.DISCOUNT_COUPONS(name))));

    expect(replies.map((r) => r.status)).toEqual(wanted.map(() => 200));
    expect(await getCampaignCounter(runtime, pair.project_id)).toMatchObject({ campaignCount: 12 });
    const pages = await Promise.all([1, 2, 3].map((page) => api.listCampaigns(`limit=5&page=${page}`)));
    expect(pages.map((p) => p.json.total)).toEqual([12, 12, 12]);
    const listed = pages.flatMap(names);
    expect([...listed].sort()).toEqual(wanted);
    const ascending = (await Promise.all([1, 2, 3].map((page) => api.listCampaigns(`limit=5&page=${page}&order=created_at`)))).flatMap(names);
    expect(ascending).toEqual([...listed].reverse());
  });

  it('stamps a campaign created while the clock is behind the newest one with the newest created_at and lists it as newer', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
    const runtime = testRuntime({ clock });
    const pair = await newProject(runtime);
    const api = campaignApi(runtime, pair);
    const first = await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('Ahead'));
    clock.advance(-60_000);

    const second = await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('Behind'));

    expect(second.created_at).toBe(first.created_at);
    expect(names(await api.listCampaigns())).toEqual(['Behind', 'Ahead']);
    expect(names(await api.listCampaigns('filters[campaigns][conditions][$has_value]='))).toEqual(['Behind', 'Ahead']);
  });

  it('refuses a duplicate name without counting it', async () => {
    const runtime = testRuntime();
    const pair = await newProject(runtime);
    const api = campaignApi(runtime, pair);
    await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('Once'));

    const again = await api.createCampaign(campaignBodies.DISCOUNT_COUPONS('Once'));

    expect(again.status).toBe(409);
    expect((await api.listCampaigns()).json.total).toBe(1);
  });
});
