import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { getCampaign } from '../../../lib/campaigns/campaign.repo.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 2, 1, 12, 0, 0);

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  return { runtime, pair, api: campaignApi(runtime, pair) };
}

const discountVoucher = (codeConfig: Record<string, unknown>) => ({
  type: 'DISCOUNT_VOUCHER',
  discount: { type: 'PERCENT', percent_off: 10 },
  code_config: codeConfig,
});

describe('POST /v1/campaigns/{campaignId}/vouchers', () => {
  it('adds one voucher with a generated code and replies with the full voucher object', async () => {
    const { api } = await setup();
    const campaign = await newCampaign(api, {
      ...campaignBodies.DISCOUNT_COUPONS('Spring'),
      start_date: '2026-03-01T00:00:00Z',
      validity_timeframe: { interval: 'P2D', duration: 'P1D' },
      validity_day_of_week: [1, 2],
      voucher: { ...discountVoucher({ pattern: 'SPR-#####', charset: 'ABC123' }), redemption: { quantity: 5 } },
    });
    const reply = await api.addVoucher(campaign.id as string);
    expect(reply.status).toBe(200);
    const code = reply.json.code as string;
    expect(code).toMatch(/^SPR-[ABC123]{5}$/);
    const path = `/v1/vouchers/${encodeURIComponent(code)}`;
    expect(reply.json).toEqual({
      id: expect.stringMatching(/^v_[0-9A-Za-z]+$/),
      code,
      campaign: 'Spring',
      campaign_id: campaign.id,
      category: null,
      category_id: null,
      categories: [],
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'PERCENT', percent_off: 10 },
      gift: null,
      loyalty_card: null,
      start_date: '2026-03-01T00:00:00.000Z',
      expiration_date: null,
      validity_timeframe: { interval: 'P2D', duration: 'P1D' },
      validity_day_of_week: [1, 2],
      validity_hours: null,
      active: true,
      additional_info: null,
      metadata: {},
      assets: {
        qr: { id: expect.any(String), url: expect.stringMatching(/^\/v1\/assets\/qr\//) },
        barcode: { id: expect.any(String), url: expect.stringMatching(/^\/v1\/assets\/barcode\//) },
      },
      is_referral_code: false,
      created_at: new Date(at).toISOString(),
      updated_at: null,
      holder_id: null,
      referrer_id: null,
      validation_rules_assignments: { object: 'list', data_ref: 'data', data: [], total: 0 },
      redemption: { quantity: 5, redeemed_quantity: 0, redeemed_points: 0, object: 'list', url: `${path}/redemption` },
      publish: { object: 'list', count: 0, url: `/v1/publications?voucher=${encodeURIComponent(code)}&page=1&limit=10` },
      object: 'voucher',
    });
    expect((await api.getCampaign(campaign.id as string)).json.vouchers_count).toBe(1);
  });

  it('refuses metadata numbers the table cannot hold with 400, not 500', async () => {
    const { api } = await setup();
    const campaignId = (await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('Numbers'))).id as string;
    for (const metadata of [{ big: 2 ** 60 }, { tiny: 1e-300 }, { nested: { list: [1, 2 ** 54] } }]) {
      const reply = await api.addVoucher(campaignId, { metadata });
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ code: 400, key: 'invalid_payload', details: expect.stringContaining('.metadata.') });
    }
    const invalidCampaign = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Big'), metadata: { n: 2 ** 60 } });
    expect(invalidCampaign.status).toBe(400);
    expect((await api.addVoucher(campaignId, { metadata: { ok: 2 ** 52, small: 0.5 } })).status).toBe(200);
  });

  it('finds the campaign by name and accepts vouchers_count=1', async () => {
    const { api } = await setup();
    await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('By name'));
    const reply = await api.addVoucher('By name', {}, 'vouchers_count=1');
    expect(reply.status).toBe(200);
    expect(reply.json.code).toMatch(/^[0-9A-Za-z]{8}$/);
  });

  it('makes gift, loyalty and referral vouchers from their campaign templates', async () => {
    const { api } = await setup();
    const gift = await newCampaign(api, campaignBodies.GIFT_VOUCHERS('Gift'));
    expect((await api.addVoucher(gift.id as string)).json).toMatchObject({
      type: 'GIFT_VOUCHER',
      discount: null,
      gift: { amount: 5000, subtracted_amount: 0, balance: 5000, effect: 'APPLY_TO_ORDER' },
      loyalty_card: null,
    });
    const loyalty = await newCampaign(api, campaignBodies.LOYALTY_PROGRAM('Loyalty'));
    expect((await api.addVoucher(loyalty.id as string)).json).toMatchObject({
      type: 'LOYALTY_CARD',
      discount: null,
      gift: null,
      loyalty_card: { points: 100, balance: 100, pending_points: 0, expired_points: 0, subtracted_points: 0 },
    });
    const referral = await newCampaign(api, campaignBodies.REFERRAL_PROGRAM('Referral'));
    expect((await api.addVoucher(referral.id as string)).json).toMatchObject({ is_referral_code: true, type: 'DISCOUNT_VOUCHER' });
  });

  it('takes the body fields of the spec: code, category, metadata, redemption, additional_info and dates', async () => {
    const { api } = await setup();
    const campaign = await newCampaign(api);
    const reply = await api.addVoucher(campaign.id as string, {
      code: 'WELCOME-10',
      category: 'Newcomers',
      metadata: { channel: 'email' },
      redemption: { quantity: 3 },
      additional_info: 'For new customers',
      start_date: '2026-04-01T00:00:00Z',
      expiration_date: '2026-05-01T00:00:00Z',
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      code: 'WELCOME-10',
      category: 'Newcomers',
      category_id: expect.stringMatching(/^cat_/),
      categories: [{ name: 'Newcomers', object: 'category' }],
      metadata: { channel: 'email' },
      redemption: { quantity: 3 },
      additional_info: 'For new customers',
      start_date: '2026-04-01T00:00:00.000Z',
      expiration_date: '2026-05-01T00:00:00.000Z',
    });
    const byId = await api.addVoucher(campaign.id as string, { category_id: reply.json.category_id, redemption: { quantity: null } });
    expect(byId.json).toMatchObject({ category: 'Newcomers', redemption: { quantity: null } });
  });

  it('overrides the campaign code_config per request: pattern, charset, prefix and postfix', async () => {
    const { api } = await setup();
    const campaign = await newCampaign(api);
    const reply = await api.addVoucher(campaign.id as string, { code_config: { pattern: '##-##', charset: '0123456789', prefix: 'P-', postfix: '-X' } });
    expect(reply.json.code).toMatch(/^P-\d\d-\d\d-X$/);
    const byLength = await api.addVoucher(campaign.id as string, { code_config: { length: 12, charset: 'ABCDEF' } });
    expect(byLength.json.code).toMatch(/^[A-F]{12}$/);
  });

  it.each([
    ['both category and category_id', { category: 'A', category_id: 'cat_x' }],
    ['both code and code_config', { code: 'ABC', code_config: { length: 5 } }],
    ['a code with a space', { code: 'HAS SPACE' }],
    ['an expiration before the start', { start_date: '2026-05-01T00:00:00Z', expiration_date: '2026-04-01T00:00:00Z' }],
    ['a non-integer redemption quantity', { redemption: { quantity: 1.5 } }],
    ['an empty charset', { code_config: { charset: '' } }],
    ['codes longer than 255 characters', { code_config: { length: 200, prefix: 'x'.repeat(60) } }],
  ])('refuses %s with 400 invalid_payload', async (_, body) => {
    const { api } = await setup();
    const campaign = await newCampaign(api);
    const reply = await api.addVoucher(campaign.id as string, body);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 400, key: 'invalid_payload', details: expect.any(String) });
  });

  it('refuses a given code with vouchers_count above 1 with 400 invalid_query_params saying so', async () => {
    const { api } = await setup();
    const campaign = await newCampaign(api);
    const reply = await api.addVoucher(campaign.id as string, { code: 'ONE-CODE' }, 'vouchers_count=2');
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'invalid_query_params', details: 'A code can be given only with vouchers_count 1' });
    expect((await api.getCampaign(campaign.id as string)).json.vouchers_count).toBe(0);
  });

  it.each(['0', '-1', '1.5', 'abc', '100001', ''])('refuses vouchers_count=%j with 400 invalid_query_params', async (count) => {
    const { api } = await setup();
    const campaign = await newCampaign(api);
    const reply = await api.addVoucher(campaign.id as string, {}, `vouchers_count=${count}`);
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('invalid_query_params');
  });

  it('refuses a given code that exists in the project with 409 duplicate_found; codes are case-sensitive', async () => {
    const { api } = await setup();
    const one = await newCampaign(api, campaignBodies.DISCOUNT_COUPONS('One'));
    const two = await newCampaign(api, campaignBodies.GIFT_VOUCHERS('Two'));
    expect((await api.addVoucher(one.id as string, { code: 'SAME' })).status).toBe(200);
    const again = await api.addVoucher(two.id as string, { code: 'SAME' });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({
      code: 409,
      key: 'duplicate_found',
      details: 'Duplicated voucher exists with code SAME',
      resource_id: 'SAME',
      resource_type: 'voucher',
    });
    expect((await api.addVoucher(two.id as string, { code: 'same' })).status).toBe(200);
    expect((await api.getCampaign(two.id as string)).json.vouchers_count).toBe(1);
  });

  it('lets exactly one of 20 parallel additions of the same code through, and counts one voucher', async () => {
    const { api } = await setup();
    const campaign = await newCampaign(api);
    const replies = await Promise.all(Array.from({ length: 20 }, () => api.addVoucher(campaign.id as string, { code: 'RACE' })));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(19);
    expect((await api.getCampaign(campaign.id as string)).json.vouchers_count).toBe(1);
  });

  it('keeps vouchers_count exact under 20 parallel generated additions', async () => {
    const { runtime, pair, api } = await setup();
    const campaign = await newCampaign(api);
    const replies = await Promise.all(Array.from({ length: 20 }, () => api.addVoucher(campaign.id as string)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(new Set(replies.map((r) => r.json.code)).size).toBe(20);
    expect((await getCampaign(runtime, pair.project_id, campaign.id as string))?.vouchersCount).toBe(20);
  });

  it('retries generated codes that collide and fills a small pattern completely, then refuses with 400', async () => {
    const { api } = await setup();
    const campaign = await newCampaign(api, { ...campaignBodies.DISCOUNT_COUPONS('Small'), voucher: discountVoucher({ pattern: 'S#', charset: '0123' }) });
    const codes = [];
    for (let i = 0; i < 4; i += 1) {
      const reply = await api.addVoucher(campaign.id as string);
      expect(reply.status).toBe(200);
      codes.push(reply.json.code);
    }
    expect(codes.sort()).toEqual(['S0', 'S1', 'S2', 'S3']);
    const full = await api.addVoucher(campaign.id as string);
    expect(full.status).toBe(400);
    expect(full.json).toMatchObject({ key: 'code_space_exhausted', details: expect.stringContaining('allows 4 codes') });
  });

  it('answers 400 instead of looping when codes of another campaign fill the pattern', async () => {
    const { api } = await setup();
    const voucher = discountVoucher({ pattern: 'Q#', charset: 'xy' });
    const first = await newCampaign(api, { ...campaignBodies.DISCOUNT_COUPONS('First'), voucher });
    const second = await newCampaign(api, { ...campaignBodies.DISCOUNT_COUPONS('Second'), voucher });
    expect((await api.addVoucher(first.id as string)).status).toBe(200);
    expect((await api.addVoucher(first.id as string)).status).toBe(200);
    const reply = await api.addVoucher(second.id as string);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'code_space_exhausted', details: expect.stringContaining('No free code left') });
    expect((await api.getCampaign(second.id as string)).json.vouchers_count).toBe(0);
  });

  it('refuses to add vouchers to a promotion with 400 invalid_campaign', async () => {
    const { api } = await setup();
    const promotion = await newCampaign(api, campaignBodies.PROMOTION('Promo'));
    const reply = await api.addVoucher(promotion.id as string);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'invalid_campaign', details: 'You can not generate vouchers for PROMOTION type campaign.' });
  });

  it("answers 404 for an unknown campaign and for another project's campaign", async () => {
    const { runtime, api } = await setup();
    const missing = await api.addVoucher('No such campaign');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ key: 'not_found', resource_id: 'No such campaign', resource_type: 'campaign' });
    const campaign = await newCampaign(api);
    const other = campaignApi(runtime, await newProject(runtime));
    expect((await other.addVoucher(campaign.id as string)).status).toBe(404);
  });
});
