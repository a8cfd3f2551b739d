import { describe, expect, it } from 'vitest';
import { campaignBodies, newCampaign } from '../../support/api.js';
import { publicationSetup } from '../publications/support.js';

const MINUTE = 60_000;
const discount = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } };

/**
 * Standalone vouchers: S-A and S-B in category Seasonal, O-C in Other, P-D published to a customer;
 * a campaign with vouchers K-1 and K-2. Each a minute apart, newest first in every list.
 */
async function setup() {
  const s = await publicationSetup();
  const { api } = s;
  const voucher = async (code: string, fields: Record<string, unknown> = {}) => {
    const reply = await api.call('create-voucher', { params: { code }, json: { ...discount, ...fields } });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    s.clock.advance(MINUTE);
    return reply.json as { id: string; category_id: string | null };
  };
  const sa = await voucher('S-A', { category: 'Seasonal' });
  await voucher('S-B', { category: 'Seasonal' });
  await voucher('O-C', { category: 'Other' });
  await voucher('P-D');
  const published = await s.publish({ voucher: 'P-D', customer: { source_id: 'filter-holder' } });
  expect(published.status, JSON.stringify(published.json)).toBe(200);
  const campaign = await newCampaign(s.campaigns, { ...campaignBodies.DISCOUNT_COUPONS('Filtered'), vouchers_count: 0 });
  for (const code of ['K-1', 'K-2']) {
    expect((await s.campaigns.addVoucher(campaign.id as string, { code })).status).toBe(200);
    s.clock.advance(MINUTE);
  }
  const list = (query: string) => api.call('list-vouchers', { query });
  const codes = async (query: string) => {
    const reply = await list(query);
    expect(reply.status, `${query}: ${JSON.stringify(reply.json)}`).toBe(200);
    return (reply.json.vouchers as { code: string }[]).map((v) => v.code);
  };
  return { ...s, list, codes, seasonalId: sa.category_id as string, campaignId: campaign.id as string };
}

describe('GET /v1/vouchers filters[…]', () => {
  it('reads code, categories, category_ids, campaign, campaign_id and holder_id filters as the index they mean', async () => {
    const { codes, seasonalId, campaignId } = await setup();
    expect(await codes('')).toEqual(['K-2', 'K-1', 'P-D', 'O-C', 'S-B', 'S-A']);
    expect(await codes('filters[code][conditions][$is]=S-B')).toEqual(['S-B']);
    expect(await codes('filters[code][conditions][$in][0]=S-A&filters[code][conditions][$in][1]=O-C&filters[code][conditions][$in][2]=NONE')).toEqual([
      'O-C',
      'S-A',
    ]);
    expect(await codes('filters[junction]=and&filters[categories][conditions][$is]=Seasonal')).toEqual(['S-B', 'S-A']);
    expect(await codes('filters[categories][conditions][$in][0]=Other')).toEqual(['O-C']);
    expect(await codes(`filters[category_ids][conditions][$is]=${seasonalId}`)).toEqual(['S-B', 'S-A']);
    expect(await codes('filters[categories][conditions][$is]=Nothing')).toEqual([]);
    expect(await codes('filters[campaign][conditions][$is]=Filtered')).toEqual(['K-2', 'K-1']);
    expect(await codes(`filters[campaign_id][conditions][$is]=${campaignId}`)).toEqual(['K-2', 'K-1']);
    expect(await codes('filters[holder_id][conditions][$is]=filter-holder')).toEqual(['P-D']);
    // Fields together: a code read by key, then checked against the category.
    expect(await codes('filters[code][conditions][$in][0]=S-A&filters[code][conditions][$in][1]=O-C&filters[categories][conditions][$is]=Seasonal')).toEqual([
      'S-A',
    ]);
    // A plain parameter and a filter on the same thing must agree.
    expect(await codes('category=Seasonal&filters[categories][conditions][$is]=Seasonal&limit=1')).toEqual(['S-B']);
    expect(await codes('code=S-A&filters[code][conditions][$is]=S-B')).toEqual([]);
    // `or` with one field is that field.
    expect(await codes('filters[junction]=or&filters[categories][conditions][$is]=Other')).toEqual(['O-C']);
  });

  it('refuses, by name, what no index serves and fields or operators it does not know', async () => {
    const { list } = await setup();
    const refused: [string, string][] = [
      ['filters[categories][conditions][$not_in][0]=Seasonal', 'filters[categories] can only be $is'],
      ['filters[categories][conditions][$in][0]=Seasonal&filters[categories][conditions][$in][1]=Other', 'filters[categories] can only be $is'],
      ['filters[code][conditions][$starts_with]=S-', 'filters[code] can only be $is'],
      ['filters[holder_id][conditions][$has_value]=', 'filters[holder_id] can only be $is'],
      ['filters[junction]=or&filters[categories][conditions][$is]=Other&filters[code][conditions][$is]=S-A', 'filters[junction]=or'],
      ['category=Other&filters[categories][conditions][$is]=Seasonal', 'filters[categories] and category'],
      ['filters[categories][conditions][$is]=Other&filters[campaign][conditions][$is]=Filtered', 'at a time'],
      ['filters[expiration_date][conditions][$before]=2030-01-01T00:00:00Z', 'is not a filter of vouchers'],
      ['filters[code][conditions][$after]=S-A', 'is not an operator of these filters'],
    ];
    for (const [query, says] of refused) {
      const reply = await list(query);
      expect(reply.status, query).toBe(400);
      expect(reply.json, query).toMatchObject({ key: 'invalid_query_params' });
      expect(JSON.stringify(reply.json), query).toContain(says);
    }
  });
});
