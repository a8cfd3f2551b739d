import { describe, expect, it } from 'vitest';
import { ReadHints } from '../../../lib/validations/read-hints.js';
import { getVoucher } from '../../../lib/vouchers/voucher.service.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { readRounds } from '../../support/read-rounds.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  return { runtime, api: campaignApi(runtime, pair) };
}

/** A project with a limitless voucher `code` of a new campaign, and one validation rule assigned to it. */
async function withRule(code: string, fields: Record<string, unknown> = {}) {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const api = campaignApi(runtime, pair);
  const call = apiClient({ runtime }, keyPairHeaders(pair));
  const campaign = await newCampaign(api);
  const voucher = (await api.addVoucher(campaign.id as string, { code, ...fields, redemption: { quantity: null } })).json;
  const rule = (
    await call.call('create-validation-rules', {
      json: { name: 'Big carts', rules: { 1: { name: 'order.amount', conditions: { $more_than: [1000] } }, logic: '1' } },
    })
  ).json;
  const assigned = (
    await call.call('create-validation-rule-assignment', { params: { validationRuleId: rule.id as string }, json: { related_object_id: voucher.id } })
  ).json;
  return { runtime, pair, api, call, campaign, voucher, assigned };
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

  it("reads the voucher's uses, category and rule assignments in one round after it, and beside it once the container knows the code's id", async () => {
    const { runtime, pair, api, call, campaign, voucher, assigned } = await withRule('ROUNDS-1', { category: 'Food' });
    // A voucher with no redemption limit counts its uses on shards.
    const redeemed = await call.call('redeem-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: 'ROUNDS-1' }], order: { amount: 5000 } } });
    expect(redeemed.status, JSON.stringify(redeemed.json)).toBe(200);

    const rounds = readRounds(runtime);
    const shape = () => rounds.take().map((r) => [...r].sort());
    const expectWhole = (read: Awaited<ReturnType<typeof getVoucher>>, assignmentIds: unknown[], uses: number) => {
      expect(read.voucher.category?.name).toBe('Food');
      expect(read.voucher.redeemedQuantity).toBe(uses);
      expect(read.assignments.map((a) => a.id)).toEqual(assignmentIds);
    };
    runtime.readHints = new ReadHints(() => Date.now());
    const cold = await getVoucher(runtime, pair.project_id, 'ROUNDS-1');
    // Round 1 reads the voucher by code; round 2 its shards, category and assignments together.
    expect(shape()).toEqual([['Get'], ['Get', 'Get', 'Query']]);
    expectWhole(cold, [assigned.id], 1);

    // Warm: the shards and assignments come with the voucher; only its category is left for round 2.
    const warm = await getVoucher(runtime, pair.project_id, 'ROUNDS-1');
    expect(shape()).toEqual([['Get', 'Get', 'Query'], ['Get']]);
    expectWhole(warm, [assigned.id], 1);

    // The code deleted and made again is another voucher: the stale id costs a round, the reply is the new voucher's.
    expect((await api.deleteVoucher('ROUNDS-1', 'force=true')).status).toBe(204);
    const again = (await api.addVoucher(campaign.id as string, { code: 'ROUNDS-1', category: 'Food', redemption: { quantity: null } })).json;
    expect(again.id).not.toBe(voucher.id);
    rounds.take();
    const fresh = await getVoucher(runtime, pair.project_id, 'ROUNDS-1');
    expect(shape()).toEqual([
      ['Get', 'Get', 'Query'],
      ['Get', 'Get', 'Query'],
    ]);
    expect(fresh.voucher.id).toBe(again.id);
    expectWhole(fresh, [], 0);

    const reply = await api.getVoucher(voucher.id as string);
    expect(reply.status).toBe(404);
    expect((await api.getVoucher('ROUNDS-1')).json).toMatchObject({ id: again.id, category: 'Food', validation_rules_assignments: { total: 0 } });
  });

  it('replies by id with the shards and assignments read beside the voucher', async () => {
    const { runtime, pair, voucher, assigned } = await withRule('BY-ID-1');
    const rounds = readRounds(runtime);
    const read = await getVoucher(runtime, pair.project_id, voucher.id as string);
    // Read as a code first (an id may be a code), then id → code → voucher. The id's shards and
    // assignments start in round 1 (they may still be in flight as the chain goes on) and nothing follows the voucher.
    const seen = rounds.take();
    expect(seen[0]).toContain('Query');
    expect(seen.flat().sort()).toEqual(['Get', 'Get', 'Get', 'Get', 'Query']);
    expect(seen.length).toBeLessThanOrEqual(3);
    expect(read.voucher.code).toBe('BY-ID-1');
    expect(read.assignments.map((a) => a.id)).toEqual([assigned.id]);
  });
});
