import { describe, expect, it } from 'vitest';
import { campaignBodies, newCampaign } from '../../support/api.js';
import { countingReads, publicationSetup, putVoucher, standaloneVoucher } from './support.js';

const codes = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(2, '0')}`);
const STATIC = { type: 'STATIC' };

describe('POST /v1/publications with a campaign', () => {
  it('picks an unpublished voucher of the campaign (by name or id) and publishes it', async () => {
    const { publish, campaignWith, campaigns } = await publicationSetup();
    const campaign = await campaignWith('Picks', codes(3, 'PK'), STATIC);
    const byName = await publish({ campaign: { name: 'Picks' }, customer: { source_id: 'ann' } });
    expect(byName.status).toBe(200);
    const code = (byName.json.voucher as { code: string }).code;
    expect(codes(3, 'PK')).toContain(code);
    expect(byName.json).toMatchObject({ voucher: { campaign_id: campaign.id, holder_id: byName.json.customer_id, publish: { count: 1 } } });
    const byId = await publish({ campaign: { name: campaign.id, count: 1 }, customer: { source_id: 'ben' } });
    expect(byId.status).toBe(200);
    expect((byId.json.voucher as { code: string }).code).not.toBe(code);
    expect((await campaigns.getVoucher(code)).json).toMatchObject({ holder_id: byName.json.customer_id });
  });

  it("reads a few candidates of the campaign's pool, not all of it (30 unpublished vouchers, one publication)", async () => {
    const { runtime, publish, campaignWith } = await publicationSetup();
    await campaignWith('Big', codes(30, 'BIG'), STATIC);
    const reads = countingReads(runtime);
    expect((await publish({ campaign: { name: 'Big' }, customer: { source_id: 'ann' } })).status).toBe(200);
    expect(reads.items('#UNPUBLISHED')).toBeLessThanOrEqual(10);
    expect(reads.items('#VOUCHERS')).toBe(0);
  });

  it('takes a bare string as the campaign name, as one of Voucherify’s examples sends it', async () => {
    const { publish, campaignWith } = await publicationSetup();
    await campaignWith('Bare', ['BARE-1'], STATIC);
    const reply = await publish({ campaign: 'Bare', customer: { source_id: 'cat' } });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ voucher: { code: 'BARE-1' } });
  });

  it('publishes count vouchers at once and replies with their codes and ids', async () => {
    const { publish, campaignWith, campaigns } = await publicationSetup();
    await campaignWith('Multi', codes(6, 'MU'), STATIC);
    const reply = await publish({ campaign: { name: 'Multi', count: 4 }, customer: { source_id: 'dee' } });
    expect(reply.status).toBe(200);
    const given = reply.json.vouchers as string[];
    expect(given).toHaveLength(4);
    expect(new Set(given).size).toBe(4);
    expect(reply.json).not.toHaveProperty('voucher');
    expect(reply.json.vouchers_id).toHaveLength(4);
    for (const code of given) expect((await campaigns.getVoucher(code)).json).toMatchObject({ holder_id: reply.json.customer_id, publish: { count: 1 } });
  });

  it('skips vouchers already published by code and disabled ones, and says when too few are left', async () => {
    const { runtime, projectId, publish, campaignWith, campaigns } = await publicationSetup();
    const campaign = await campaignWith('Left', ['LEFT-A', 'LEFT-B', 'LEFT-C'], STATIC);
    expect((await publish({ voucher: 'LEFT-A', customer: { source_id: 'eve' } })).status).toBe(200);
    const b = (await campaigns.getVoucher('LEFT-B')).json;
    // Disabled: the voucher entity leaves it out of the pool when it is written inactive.
    await putVoucher(runtime, {
      ...standaloneVoucher(projectId, 'LEFT-B', { id: b.id as string, active: false }),
      campaignId: campaign.id as string,
      campaignName: 'Left',
    });
    const tooMany = await publish({ campaign: { name: 'Left', count: 2 }, customer: { source_id: 'fox' } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toMatchObject({
      key: 'no_voucher_suitable_for_publication',
      message: "Couldn't find any voucher suitable for publication",
      details: 'Campaign Left has 1 voucher suitable for publication; 2 requested',
    });
    const one = await publish({ campaign: { name: 'Left' }, customer: { source_id: 'fox' } });
    expect(one.json).toMatchObject({ voucher: { code: 'LEFT-C' } });
    const none = await publish({ campaign: { name: 'Left' }, customer: { source_id: 'gil' } });
    expect(none.json).toMatchObject({ key: 'no_voucher_suitable_for_publication' });
  });

  it('answers 404 for an unknown campaign, 400 invalid_campaign for a promotion, and 400 for a count outside 1–50', async () => {
    const { publish, campaigns } = await publicationSetup();
    const unknown = await publish({ campaign: { name: 'Nope' }, customer: { source_id: 'hank' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'campaign', resource_id: 'Nope' });
    await newCampaign(campaigns, campaignBodies.PROMOTION('Promo'));
    const promo = await publish({ campaign: { name: 'Promo' }, customer: { source_id: 'hank' } });
    expect(promo.status).toBe(400);
    expect(promo.json).toMatchObject({ key: 'invalid_campaign' });
    for (const count of [0, 51, 1.5]) {
      const bad = await publish({ campaign: { name: 'Promo', count }, customer: { source_id: 'hank' } });
      expect(bad.status, String(count)).toBe(400);
      expect(bad.json).toMatchObject({ key: 'invalid_payload' });
    }
  });

  it('refuses count above 1 with a source_id (too_many_vouchers_requested)', async () => {
    const { publish, campaignWith } = await publicationSetup();
    await campaignWith('Src', codes(3, 'SRC'), STATIC);
    const reply = await publish({ campaign: { name: 'Src', count: 2 }, customer: { source_id: 'ida' }, source_id: 'p-1' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({
      key: 'too_many_vouchers_requested',
      message: 'Too many vouchers requested',
      details: 'Only up to 1 can be published with a source_id',
    });
  });

  it('hands out exactly the 10 codes of a campaign to 10 of 20 customers publishing at once; the other 10 get a clear error', async () => {
    const { publish, campaignWith, campaigns } = await publicationSetup();
    const pool = codes(10, 'TEN');
    await campaignWith('Ten', pool, STATIC);
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => publish({ campaign: { name: 'Ten' }, customer: { source_id: `c-${i}` } })));
    const won = replies.filter((r) => r.status === 200);
    const lost = replies.filter((r) => r.status !== 200);
    expect(won).toHaveLength(10);
    expect(lost).toHaveLength(10);
    for (const r of lost) expect(r.json).toMatchObject({ code: 400, key: 'no_voucher_suitable_for_publication' });
    const given = won.map((r) => (r.json.voucher as { code: string }).code);
    expect(new Set(given)).toEqual(new Set(pool));
    // No code went to two customers: each voucher names the one customer whose publication gave it.
    for (const r of won) {
      const code = (r.json.voucher as { code: string }).code;
      expect((await campaigns.getVoucher(code)).json).toMatchObject({ holder_id: r.json.customer_id, publish: { count: 1 } });
    }
    expect(new Set(won.map((r) => r.json.customer_id)).size).toBe(10);
  });
});
