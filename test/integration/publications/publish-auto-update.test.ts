import { describe, expect, it } from 'vitest';
import { campaignBodies, newCampaign } from '../../support/api.js';
import { publicationSetup } from './support.js';

const autoUpdate = (name: string, codeConfig: Record<string, unknown> = { pattern: 'AU-######', charset: '0123456789' }) => ({
  ...campaignBodies.DISCOUNT_COUPONS(name),
  type: 'AUTO_UPDATE',
  voucher: { ...campaignBodies.DISCOUNT_COUPONS(name).voucher, code_config: codeConfig },
});

describe('POST /v1/publications from an AUTO_UPDATE campaign', () => {
  it('generates the voucher on the spot from the code_config when the pool is empty, and counts it in the campaign', async () => {
    const { publish, campaigns } = await publicationSetup();
    const campaign = await newCampaign(campaigns, autoUpdate('Auto'));
    const reply = await publish({ campaign: { name: 'Auto' }, customer: { source_id: 'amy' } });
    expect(reply.status).toBe(200);
    const voucher = reply.json.voucher as Record<string, unknown>;
    expect(voucher.code).toMatch(/^AU-\d{6}$/);
    expect(voucher).toMatchObject({
      campaign_id: campaign.id,
      holder_id: reply.json.customer_id,
      publish: { count: 1 },
      discount: { type: 'PERCENT', percent_off: 10 },
    });
    expect((await campaigns.getVoucher(voucher.code as string)).json).toEqual(voucher);
    expect((await campaigns.getCampaign('Auto')).json.vouchers_count).toBe(1);
  });

  it('takes the unpublished vouchers the pool has first and generates only the rest', async () => {
    const { publish, campaigns } = await publicationSetup();
    const campaign = await newCampaign(campaigns, autoUpdate('Mixed'));
    for (const code of ['MIX-1', 'MIX-2']) expect((await campaigns.addVoucher(campaign.id as string, { code })).status).toBe(200);
    const reply = await publish({ campaign: { name: 'Mixed', count: 5 }, customer: { source_id: 'bo' } });
    expect(reply.status).toBe(200);
    const given = reply.json.vouchers as string[];
    expect(given).toEqual(expect.arrayContaining(['MIX-1', 'MIX-2']));
    expect(given.filter((c) => /^AU-\d{6}$/.test(c))).toHaveLength(3);
    expect((await campaigns.getCampaign('Mixed')).json.vouchers_count).toBe(5);
  });

  it('publishes 50 at once when the pool is empty, topping the pool up first where one transaction cannot hold them all', async () => {
    const { publish, campaigns } = await publicationSetup();
    await newCampaign(campaigns, autoUpdate('Fifty'));
    const reply = await publish({ campaign: { name: 'Fifty', count: 50 }, customer: { source_id: 'cy' } });
    expect(reply.status).toBe(200);
    const given = reply.json.vouchers as string[];
    expect(new Set(given).size).toBe(50);
    expect((await campaigns.getCampaign('Fifty')).json.vouchers_count).toBe(50);
    for (const code of given.slice(0, 5)) expect((await campaigns.getVoucher(code)).json).toMatchObject({ holder_id: reply.json.customer_id });
  });

  it("answers no_voucher_suitable_for_publication when the code_config's space is full", async () => {
    const { publish, campaigns } = await publicationSetup();
    await newCampaign(campaigns, autoUpdate('Tiny', { pattern: 'T#', charset: 'AB' }));
    expect((await publish({ campaign: { name: 'Tiny' }, customer: { source_id: 'd1' } })).status).toBe(200);
    expect((await publish({ campaign: { name: 'Tiny' }, customer: { source_id: 'd2' } })).status).toBe(200);
    const full = await publish({ campaign: { name: 'Tiny' }, customer: { source_id: 'd3' } });
    expect(full.status).toBe(400);
    expect(full.json).toMatchObject({
      key: 'no_voucher_suitable_for_publication',
      details: expect.stringMatching(/^Couldn't create new vouchers for publication/),
    });
    expect((await campaigns.getCampaign('Tiny')).json.vouchers_count).toBe(2);
  });

  it('gives 20 customers publishing at once 20 distinct generated codes', async () => {
    const { publish, campaigns } = await publicationSetup();
    await newCampaign(campaigns, autoUpdate('Rush'));
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => publish({ campaign: { name: 'Rush' }, customer: { source_id: `r-${i}` } })));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(replies.map((r) => (r.json.voucher as { code: string }).code)).size).toBe(20);
    expect((await campaigns.getCampaign('Rush')).json.vouchers_count).toBe(20);
  });
});
