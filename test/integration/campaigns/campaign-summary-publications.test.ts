import { describe, expect, it } from 'vitest';
import { campaignBodies, newCampaign } from '../../support/api.js';
import { publicationSetup } from '../publications/support.js';

type Json = Record<string, unknown>;

/** get-campaign-summary's publication figures, counted in the publication's own transaction. */
async function setup() {
  const s = await publicationSetup();
  const summary = async (campaignId: string) => {
    const reply = await s.api.call('get-campaign-summary', { params: { campaignId } });
    expect(reply.status).toBe(200);
    return reply.json as Json;
  };
  return { ...s, summary };
}

describe('campaign summary: publications', () => {
  it('counts each publication of the campaign (by campaign or by code) once, and nothing for a refused or repeated one', async () => {
    const { publish, campaignWith, summary, headers } = await setup();
    const campaign = await campaignWith('Pubs', ['P-1', 'P-2', 'P-3'], { type: 'STATIC' });
    const first = await publish({ campaign: { name: 'Pubs', count: 2 }, customer: { source_id: 'ann' } });
    expect(first.status).toBe(200);
    expect((await publish({ voucher: (first.json.vouchers as string[])[0], customer: { source_id: 'bob' } })).status).toBe(400);
    const last = { campaign: { name: 'Pubs' }, customer: { source_id: 'cy' } };
    expect((await publish(last, { headers: { ...headers, 'idempotency-key': 'k1' } })).status).toBe(200);
    expect((await publish(last, { headers: { ...headers, 'idempotency-key': 'k1' } })).status).toBe(200);
    expect((await publish({ campaign: { name: 'Pubs' }, customer: { source_id: 'dee' } })).status).toBe(400);
    expect(await summary(campaign.id as string)).toMatchObject({ publications: 2, publications_succeeded: 2, publications_failed: 0, vouchers_created: 3 });
  });

  it('counts the vouchers an AUTO_UPDATE publication generates as created, in the same write', async () => {
    const { publish, campaigns, summary } = await setup();
    const body = campaignBodies.DISCOUNT_COUPONS('Auto');
    const campaign = await newCampaign(campaigns, { ...body, type: 'AUTO_UPDATE', voucher: { ...body.voucher, code_config: { pattern: 'AU-######' } } });
    expect((await publish({ campaign: { name: 'Auto', count: 3 }, customer: { source_id: 'amy' } })).status).toBe(200);
    expect(await summary(campaign.id as string)).toMatchObject({ publications: 1, vouchers_created: 3 });
  });

  it('counts exactly the winners of 20 parallel publications from a campaign with 10 codes', async () => {
    const { publish, campaignWith, summary } = await setup();
    const campaign = await campaignWith(
      'Rush',
      Array.from({ length: 10 }, (_, i) => `RUSH-${i}`),
      { type: 'STATIC' },
    );
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => publish({ campaign: { name: 'Rush' }, customer: { source_id: `c-${i}` } })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(10);
    expect(await summary(campaign.id as string)).toMatchObject({ publications: 10, publications_succeeded: 10 });
  });
});
