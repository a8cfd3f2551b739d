import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

/** A project whose bin holds vouchers B0..B(n-1), deleted one second apart in that order. */
async function binOf(n: number) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = campaignApi(runtime, pair);
  const campaign = await newCampaign(api);
  for (let i = 0; i < n; i += 1) await api.addVoucher(campaign.id as string, { code: `B${i}` });
  for (let i = 0; i < n; i += 1) {
    clock.advance(1000);
    expect((await api.deleteVoucher(`B${i}`)).status).toBe(204);
  }
  return { runtime, api };
}

const names = (reply: { json: Record<string, unknown> }): string[] => (reply.json.data as { resource_name: string }[]).map((e) => e.resource_name);

describe('GET /v1/trash-bin', () => {
  it('lists binned vouchers newest first by default, as a list of bin entries', async () => {
    const { api } = await binOf(3);
    const reply = await api.listBinEntries();
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ object: 'list', data_ref: 'data', total: 3, has_more: false });
    expect(reply.json).not.toHaveProperty('more_starting_after');
    expect(names(reply)).toEqual(['B2', 'B1', 'B0']);
    expect((reply.json.data as { created_at: string }[])[0]?.created_at).toBe('2026-01-01T00:00:03.000Z');
  });

  it('orders oldest first with order=id', async () => {
    const { api } = await binOf(3);
    expect(names(await api.listBinEntries('order=id'))).toEqual(['B0', 'B1', 'B2']);
  });

  it('pages with limit and starting_after_id, saying whether more follow', async () => {
    const { api } = await binOf(5);
    const first = await api.listBinEntries('order=id&limit=2');
    expect(names(first)).toEqual(['B0', 'B1']);
    expect(first.json).toMatchObject({ total: 2, has_more: true, more_starting_after: (first.json.data as { id: string }[])[1]?.id });
    const second = await api.listBinEntries(`order=id&limit=2&starting_after_id=${first.json.more_starting_after as string}`);
    expect(names(second)).toEqual(['B2', 'B3']);
    const third = await api.listBinEntries(`order=id&limit=2&starting_after_id=${second.json.more_starting_after as string}`);
    expect(names(third)).toEqual(['B4']);
    expect(third.json.has_more).toBe(false);
    const backwards = await api.listBinEntries(`limit=10&starting_after_id=${second.json.more_starting_after as string}`);
    expect(names(backwards)).toEqual(['B2', 'B1', 'B0']);
  });

  it.each(['limit=0', 'limit=101', 'limit=ten', 'order=created_at', 'starting_after_id=v_123', 'page=2'])(
    'refuses %s with 400 invalid_query_params',
    async (query) => {
      const { api } = await binOf(0);
      const reply = await api.listBinEntries(query);
      expect(reply.status).toBe(400);
      expect(reply.json.key).toBe('invalid_query_params');
    },
  );

  it('shows a project only its own bin', async () => {
    const { runtime } = await binOf(2);
    const other = campaignApi(runtime, await newProject(runtime));
    expect((await other.listBinEntries()).json).toMatchObject({ data: [], total: 0, has_more: false });
  });
});
