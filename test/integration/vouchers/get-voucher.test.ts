import { describe, expect, it } from 'vitest';
import { campaignApi, newCampaign } from '../../support/api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  return { runtime, api: campaignApi(runtime, pair) };
}

describe('GET /v1/vouchers/{code}', () => {
  it('returns the voucher by code and by id, exactly as it was created', async () => {
    const { api } = await setup();
    const campaign = await newCampaign(api);
    const created = (await api.addVoucher(campaign.id as string, { metadata: { a: 1 } })).json;
    const byCode = await api.getVoucher(created.code as string);
    expect(byCode.status).toBe(200);
    expect(byCode.json).toEqual(created);
    const byId = await api.getVoucher(created.id as string);
    expect(byId.status).toBe(200);
    expect(byId.json).toEqual(created);
  });

  it('finds codes with special characters, case-sensitively', async () => {
    const { api } = await setup();
    const campaign = await newCampaign(api);
    expect((await api.addVoucher(campaign.id as string, { code: 'A/b%20?#C' })).status).toBe(200);
    expect((await api.getVoucher('A/b%20?#C')).json.code).toBe('A/b%20?#C');
    expect((await api.getVoucher('a/b%20?#c')).status).toBe(404);
  });

  it("answers 404 not_found naming the code, also for another project's voucher", async () => {
    const { runtime, api } = await setup();
    const missing = await api.getVoucher('NOPE');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ code: 404, key: 'not_found', resource_id: 'NOPE', resource_type: 'voucher' });
    const campaign = await newCampaign(api);
    const created = (await api.addVoucher(campaign.id as string, { code: 'MINE' })).json;
    const other = campaignApi(runtime, await newProject(runtime));
    expect((await other.getVoucher('MINE')).status).toBe(404);
    expect((await other.getVoucher(created.id as string)).status).toBe(404);
    expect((await api.getVoucher('x'.repeat(900))).status).toBe(404);
  });
});
