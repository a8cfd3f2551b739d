import { describe, expect, it } from 'vitest';
import { makeHandler as makeTokenHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { getCampaign } from '../../../lib/campaigns/campaign.repo.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { call } from '../../support/invoke.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const api = campaignApi(runtime, pair);
  const campaign = await newCampaign(api);
  return { runtime, pair, api, campaignId: campaign.id as string };
}

describe('DELETE /v1/vouchers/{code}', () => {
  it('moves a deleted voucher to the bin with 204 and no body, frees its code and lowers the count', async () => {
    const { api, campaignId } = await setup();
    const voucher = (await api.addVoucher(campaignId, { code: 'BIN-ME' })).json;
    expect((await api.getCampaign(campaignId)).json.vouchers_count).toBe(1);

    const reply = await api.deleteVoucher('BIN-ME');
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    expect(reply.headers['Content-Type']).toBeUndefined();

    expect((await api.getVoucher('BIN-ME')).status).toBe(404);
    expect((await api.getVoucher(voucher.id as string)).status).toBe(404);
    expect((await api.getCampaign(campaignId)).json.vouchers_count).toBe(0);
    const bin = await api.listBinEntries();
    expect(bin.json.data).toEqual([
      {
        id: expect.stringMatching(/^tbe_/),
        created_at: expect.any(String),
        deleted_by_user_id: null,
        resource_id: voucher.id,
        resource_type: 'voucher',
        resource_name: 'BIN-ME',
        resource_parent_id: campaignId,
        object: 'voucher',
      },
    ]);
  });

  it('lets the same code be created again after a soft delete', async () => {
    const { api, campaignId } = await setup();
    const first = (await api.addVoucher(campaignId, { code: 'AGAIN' })).json;
    expect((await api.deleteVoucher('AGAIN')).status).toBe(204);
    const second = await api.addVoucher(campaignId, { code: 'AGAIN' });
    expect(second.status).toBe(200);
    expect(second.json.id).not.toBe(first.id);
    expect((await api.getVoucher('AGAIN')).json.id).toBe(second.json.id);
    expect((await api.getCampaign(campaignId)).json.vouchers_count).toBe(1);
    expect((await api.listBinEntries()).json.data).toHaveLength(1);
  });

  it('removes a voucher permanently with force=true: 204, gone, and not in the bin', async () => {
    const { api, campaignId } = await setup();
    await api.addVoucher(campaignId, { code: 'FORCE' });
    expect((await api.deleteVoucher('FORCE', 'force=true')).status).toBe(204);
    expect((await api.getVoucher('FORCE')).status).toBe(404);
    expect((await api.listBinEntries()).json).toMatchObject({ data: [], total: 0, has_more: false });
    expect((await api.getCampaign(campaignId)).json.vouchers_count).toBe(0);
    expect((await api.addVoucher(campaignId, { code: 'FORCE' })).status).toBe(200);
  });

  it('treats force=false as a move to the bin', async () => {
    const { api, campaignId } = await setup();
    await api.addVoucher(campaignId, { code: 'SOFT' });
    expect((await api.deleteVoucher('SOFT', 'force=false')).status).toBe(204);
    expect((await api.listBinEntries()).json.total).toBe(1);
  });

  it("answers 204 then 404 with the spec's error object naming the code", async () => {
    const { api, campaignId } = await setup();
    await api.addVoucher(campaignId, { code: '10OFF' });
    expect((await api.deleteVoucher('10OFF')).status).toBe(204);
    const again = await api.deleteVoucher('10OFF');
    expect(again.status).toBe(404);
    expect(again.json).toEqual({
      code: 404,
      key: 'not_found',
      message: 'Resource not found',
      details: 'Cannot find voucher with id 10OFF',
      request_id: expect.stringMatching(/^v-[0-9a-f]{18}$/),
      resource_id: '10OFF',
      resource_type: 'voucher',
    });
    expect(again.headers['X-Request-Id']).toBe(again.json.request_id);
  });

  it('lets exactly one of 20 parallel deletes of a voucher succeed; the rest get 404', async () => {
    const { runtime, pair, api, campaignId } = await setup();
    await api.addVoucher(campaignId, { code: 'ONCE' });
    await api.addVoucher(campaignId, { code: 'STAYS' });
    const replies = await Promise.all(Array.from({ length: 20 }, () => api.deleteVoucher('ONCE')));
    expect(replies.filter((r) => r.status === 204)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 404)).toHaveLength(19);
    expect((await getCampaign(runtime, pair.project_id, campaignId))?.vouchersCount).toBe(1);
    expect((await api.listBinEntries()).json.data).toHaveLength(1);
    expect((await api.getVoucher('STAYS')).status).toBe(200);
  });

  it('keeps the count exact while vouchers are added and deleted in parallel', async () => {
    const { runtime, pair, api, campaignId } = await setup();
    for (let i = 0; i < 10; i += 1) await api.addVoucher(campaignId, { code: `OLD-${i}` });
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => api.deleteVoucher(`OLD-${i}`)),
      ...Array.from({ length: 15 }, () => api.addVoucher(campaignId)),
    ]);
    expect((await getCampaign(runtime, pair.project_id, campaignId))?.vouchersCount).toBe(15);
  });

  it('deletes by voucher id too', async () => {
    const { api, campaignId } = await setup();
    const voucher = (await api.addVoucher(campaignId, { code: 'BY-ID' })).json;
    expect((await api.deleteVoucher(voucher.id as string)).status).toBe(204);
    expect((await api.getVoucher('BY-ID')).status).toBe(404);
  });

  it('accepts an OAuth token in X-Service-OAuth or Authorization: Bearer, within the vouchers scope', async () => {
    const { runtime, pair, api, campaignId } = await setup();
    const tokens = makeTokenHandler({ runtime });
    const token = async (scope: string) =>
      (await call(tokens, { path: '/v1/oauth/token', headers: keyPairHeaders(pair), form: { grant_type: 'client_credentials', scope } })).json
        .access_token as string;
    await api.addVoucher(campaignId, { code: 'T1' });
    await api.addVoucher(campaignId, { code: 'T2' });
    expect((await api.deleteVoucher('T1', '', { 'x-service-oauth': await token('vouchers') })).status).toBe(204);
    expect((await api.deleteVoucher('T2', '', { authorization: `Bearer ${await token('api')}` })).status).toBe(204);
    const wrongScope = await api.deleteVoucher('T2', '', { 'x-service-oauth': await token('campaigns') });
    expect(wrongScope.status).toBe(403);
    expect((await api.deleteVoucher('T2', '', {})).status).toBe(401);
    expect((await api.deleteVoucher('T2', '', { 'x-service-oauth': 'not-a-token' })).status).toBe(401);
  });

  it.each(['force=yes', 'force=1', 'force=true&force=false'])('refuses %s with 400 invalid_query_params', async (query) => {
    const { api, campaignId } = await setup();
    await api.addVoucher(campaignId, { code: 'Q' });
    const reply = await api.deleteVoucher('Q', query);
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('invalid_query_params');
    expect((await api.getVoucher('Q')).status).toBe(200);
  });

  it("does not delete another project's voucher", async () => {
    const { runtime, api, campaignId } = await setup();
    await api.addVoucher(campaignId, { code: 'OURS' });
    const other = campaignApi(runtime, await newProject(runtime));
    expect((await other.deleteVoucher('OURS')).status).toBe(404);
    expect((await api.getVoucher('OURS')).status).toBe(200);
  });
});
