import { describe, expect, it } from 'vitest';
import { makeHandler as makeTokenHandler } from '../../../functions/oauth/generate-oauth-token.js';
import { ManualClock } from '../../../lib/clock.js';
import { getCampaign } from '../../../lib/campaigns/campaign.repo.js';
import { ALPHANUMERIC } from '../../../lib/vouchers/code-generator.js';
import { listCampaignVoucherCodes } from '../../../lib/vouchers/voucher.repo.js';
import { campaignApi, campaignBodies, RecordingJobQueue } from '../../support/api.js';
import { call } from '../../support/invoke.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 2, 1, 12, 0, 0);

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const jobs = new RecordingJobQueue();
  return { runtime, pair, jobs, api: campaignApi(runtime, pair, jobs) };
}

const emptyAssignments = { object: 'list', data_ref: 'data', data: [], total: 0 };

describe('POST /v1/campaigns', () => {
  it('creates a discount campaign and replies with the campaign object', async () => {
    const { api } = await setup();
    const reply = await api.createCampaign({
      ...campaignBodies.DISCOUNT_COUPONS('Summer'),
      join_once: true,
      start_date: '2026-03-01T00:00:00Z',
      expiration_date: '2026-09-01T00:00:00+02:00',
      validity_timeframe: { interval: 'P2D', duration: 'P1D' },
      validity_day_of_week: [0, 1, 2],
      activity_duration_after_publishing: 'P24D',
      metadata: { region: 'AMER' },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      id: expect.stringMatching(/^camp_[0-9A-Za-z]+$/),
      name: 'Summer',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'AUTO_UPDATE',
      voucher: {
        type: 'DISCOUNT_VOUCHER',
        discount: { type: 'PERCENT', percent_off: 10 },
        redemption: { quantity: null },
        code_config: { length: 8, charset: ALPHANUMERIC, pattern: '########' },
        is_referral_code: false,
        start_date: '2026-03-01T00:00:00.000Z',
        expiration_date: '2026-08-31T22:00:00.000Z',
        validity_timeframe: { interval: 'P2D', duration: 'P1D' },
      },
      auto_join: false,
      join_once: true,
      use_voucher_metadata_schema: false,
      start_date: '2026-03-01T00:00:00.000Z',
      expiration_date: '2026-08-31T22:00:00.000Z',
      validity_timeframe: { interval: 'P2D', duration: 'P1D' },
      validity_day_of_week: [0, 1, 2],
      activity_duration_after_publishing: 'P24D',
      vouchers_count: 0,
      active: true,
      metadata: { region: 'AMER' },
      created_at: new Date(at).toISOString(),
      creation_status: 'DONE',
      vouchers_generation_status: 'DONE',
      protected: false,
      validation_rules_assignments: emptyAssignments,
      category_id: null,
      categories: [],
      object: 'campaign',
    });
  });

  it('keeps a description: echoed after the name, read back by GET, absent when none was sent', async () => {
    const { api } = await setup();
    const reply = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Described'), description: 'Ten percent off, spring only' });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.json).slice(0, 3)).toEqual(['id', 'name', 'description']);
    expect(reply.json.description).toBe('Ten percent off, spring only');
    expect((await api.getCampaign(reply.json.id as string)).json.description).toBe('Ten percent off, spring only');
    const plain = await api.createCampaign(campaignBodies.DISCOUNT_COUPONS('Plain'));
    expect(plain.json).not.toHaveProperty('description');
    const tooLong = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Long'), description: 'x'.repeat(2001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json).toMatchObject({ key: 'invalid_payload', details: expect.stringContaining('.description') });
  });

  it('accepts the empty validation_rules and access_settings the reference allows, and refuses rules, areas and stores it cannot apply', async () => {
    const { api } = await setup();
    const empty = await api.createCampaign({
      ...campaignBodies.DISCOUNT_COUPONS('Empty lists'),
      validation_rules: [],
      access_settings: {
        assign: { areas_ids: [], area_stores_ids: [], area_all_stores_ids: [] },
        unassign: { areas_ids: ['ar_1'], area_stores_ids: ['ars_1'] },
      },
    });
    expect(empty.status).toBe(200);
    expect(empty.json.validation_rules_assignments).toEqual(emptyAssignments);
    const tier = await api.createCampaign({
      ...campaignBodies.PROMOTION('Empty tier rules'),
      promotion: { tiers: [{ name: 'T', action: { discount: { type: 'PERCENT', percent_off: 5 } }, validation_rules: [] }] },
    });
    expect(tier.status).toBe(200);
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ validation_rules: ['val_1'] }, '.validation_rules must be empty: validation rules do not exist'],
      [{ access_settings: { assign: { areas_ids: ['ar_1'] } } }, '.access_settings.assign.areas_ids must be empty: areas and stores do not exist'],
    ];
    for (const [extra, details] of refused) {
      const reply = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS(`Refused ${details}`), ...extra });
      expect(reply.status, details).toBe(400);
      expect(reply.json).toMatchObject({ key: 'invalid_payload', details: expect.stringContaining(details) });
    }
  });

  it("starts gift cards at the template's subtracted_amount, their balance the rest unless the template sets it", async () => {
    const { api } = await setup();
    const reply = await api.createCampaign({
      ...campaignBodies.GIFT_VOUCHERS('Part spent'),
      voucher: { type: 'GIFT_VOUCHER', gift: { amount: 5000, subtracted_amount: 1500 } },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.voucher).toMatchObject({ gift: { amount: 5000, subtracted_amount: 1500 } });
    const voucher = await api.addVoucher(reply.json.id as string);
    expect(voucher.json.gift).toEqual({ amount: 5000, subtracted_amount: 1500, balance: 3500 });
    const over = await api.createCampaign({
      ...campaignBodies.GIFT_VOUCHERS('Overspent'),
      voucher: { type: 'GIFT_VOUCHER', gift: { amount: 100, subtracted_amount: 101 } },
    });
    expect(over.status).toBe(400);
    expect(over.json.details).toContain('.voucher.gift.subtracted_amount cannot exceed amount');
  });

  it('creates a gift card campaign with its gift template and a code pattern', async () => {
    const { api } = await setup();
    const reply = await api.createCampaign({
      ...campaignBodies.GIFT_VOUCHERS('Gifts'),
      voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000 }, redemption: { quantity: 10 }, code_config: { pattern: 'GIFT-CARD-#######' } },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      campaign_type: 'GIFT_VOUCHERS',
      voucher: {
        type: 'GIFT_VOUCHER',
        gift: { amount: 1000 },
        redemption: { quantity: 10 },
        code_config: { length: 7, charset: ALPHANUMERIC, pattern: 'GIFT-CARD-#######' },
      },
    });
    expect(reply.json.voucher).not.toHaveProperty('discount');
  });

  it('creates a loyalty program whose card template keeps its expiration rules', async () => {
    const { api } = await setup();
    const reply = await api.createCampaign({ ...campaignBodies.LOYALTY_PROGRAM('Loyalty'), auto_join: true });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      campaign_type: 'LOYALTY_PROGRAM',
      auto_join: true,
      voucher: {
        type: 'LOYALTY_CARD',
        loyalty_card: { points: 100, expiration_rules: { period_type: 'MONTH', period_value: 3, rounding_type: 'END_OF_YEAR' } },
      },
    });
  });

  it('refuses loyalty expiration rules that lack the period value their type needs', async () => {
    const { api } = await setup();
    const body = campaignBodies.LOYALTY_PROGRAM('Loyalty');
    const reply = await api.createCampaign({
      ...body,
      voucher: { ...body.voucher, loyalty_card: { points: 1, expiration_rules: { period_type: 'MONTH' } } },
    });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'invalid_payload', details: expect.stringContaining('period_value') });
  });

  it('creates a referral program with referral codes and its referral settings', async () => {
    const { api } = await setup();
    const reply = await api.createCampaign(campaignBodies.REFERRAL_PROGRAM('Refer'));
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      campaign_type: 'REFERRAL_PROGRAM',
      referral_program: { conversion_event_type: 'redemption' },
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 }, is_referral_code: true },
    });
  });

  it('creates a promotion whose tiers get promo_ ids, hierarchy and a link to the campaign', async () => {
    const { api } = await setup();
    const reply = await api.createCampaign(campaignBodies.PROMOTION('Promo'));
    expect(reply.status).toBe(200);
    const json = reply.json;
    expect(json).toMatchObject({ campaign_type: 'PROMOTION', type: 'STATIC', creation_status: 'DONE' });
    expect(json).not.toHaveProperty('voucher');
    const promotion = json.promotion as { tiers: Record<string, unknown>[]; total: number; object: string; data_ref: string };
    expect(promotion).toMatchObject({ object: 'list', data_ref: 'tiers', total: 2, has_more: false });
    const [first, second] = promotion.tiers;
    expect(first).toMatchObject({
      id: expect.stringMatching(/^promo_[0-9A-Za-z]+$/),
      name: 'Tier A',
      banner: '10% off',
      action: { discount: { type: 'PERCENT', percent_off: 10 } },
      hierarchy: 1,
      promotion_id: json.id,
      campaign_id: json.id,
      campaign: { id: json.id, object: 'campaign' },
      active: true,
      object: 'promotion_tier',
      summary: { redemptions: { total_redeemed: 0 }, orders: { total_amount: 0, total_discount_amount: 0 } },
    });
    expect(second).toMatchObject({ name: 'Tier B', hierarchy: 2, metadata: { level: 'B' } });
    expect(first?.id).not.toBe(second?.id);
  });

  it('defaults campaign_type to DISCOUNT_COUPONS', async () => {
    const { api } = await setup();
    const { campaign_type: _, ...body } = campaignBodies.DISCOUNT_COUPONS('Default type');
    const reply = await api.createCampaign(body);
    expect(reply.status).toBe(200);
    expect(reply.json.campaign_type).toBe('DISCOUNT_COUPONS');
  });

  it.each([
    ['LOYALTY_CARD', 'LOYALTY_PROGRAM'],
    ['GIFT_VOUCHER', 'GIFT_VOUCHERS'],
    ['DISCOUNT_VOUCHER', 'DISCOUNT_COUPONS'],
  ] as const)('without campaign_type, a %s voucher makes a %s campaign', async (voucherType, campaignType) => {
    const { api } = await setup();
    const { campaign_type: _, ...body } = campaignBodies[campaignType](`From ${voucherType}`);
    const reply = await api.createCampaign(body);
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    expect(reply.json).toMatchObject({ campaign_type: campaignType, voucher: { type: voucherType } });
  });

  it('without campaign_type or voucher type, the benefit the voucher carries says the campaign type', async () => {
    const { api } = await setup();
    const gift = await api.createCampaign({ name: 'Gift only', voucher: { gift: { amount: 5000 } } });
    expect(gift.status, JSON.stringify(gift.json)).toBe(200);
    expect(gift.json).toMatchObject({ campaign_type: 'GIFT_VOUCHERS', voucher: { type: 'GIFT_VOUCHER' } });
    const card = await api.createCampaign({ name: 'Card only', voucher: { loyalty_card: { points: 10 } } });
    expect(card.status, JSON.stringify(card.json)).toBe(200);
    expect(card.json).toMatchObject({ campaign_type: 'LOYALTY_PROGRAM', voucher: { type: 'LOYALTY_CARD' } });
  });

  it.each([
    ['a discount campaign without a discount', { name: 'X', campaign_type: 'DISCOUNT_COUPONS', voucher: { type: 'DISCOUNT_VOUCHER' } }],
    ['an unknown campaign type', { ...campaignBodies.DISCOUNT_COUPONS('X'), campaign_type: 'RAFFLE' }],
    ['a percent above 100', { name: 'X', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 101 } } }],
    ['a gift template on a discount campaign', { name: 'X', campaign_type: 'DISCOUNT_COUPONS', voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1 } } }],
    ['a loyalty card template without its card', { name: 'X', voucher: { type: 'LOYALTY_CARD' } }],
    ['a malformed date', { ...campaignBodies.DISCOUNT_COUPONS('X'), start_date: '2026-13-01' }],
    ['a weekday of 7', { ...campaignBodies.DISCOUNT_COUPONS('X'), validity_day_of_week: [7] }],
    ['vouchers on a promotion', { ...campaignBodies.PROMOTION('X'), vouchers_count: 1 }],
    ['more vouchers than a campaign is created with', { ...campaignBodies.DISCOUNT_COUPONS('X'), vouchers_count: 100_001 }],
    ['an empty name', campaignBodies.DISCOUNT_COUPONS('')],
  ])('refuses %s with 400 invalid_payload', async (_, body) => {
    const { api } = await setup();
    const reply = await api.createCampaign(body);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 400, key: 'invalid_payload', message: 'Invalid payload', details: expect.any(String) });
  });

  it('refuses an expiration before the start, and a timeframe without a start date', async () => {
    const { api } = await setup();
    const backwards = await api.createCampaign({
      ...campaignBodies.DISCOUNT_COUPONS('Backwards'),
      start_date: '2026-05-01T00:00:00Z',
      expiration_date: '2026-04-01T00:00:00Z',
    });
    expect(backwards.status).toBe(400);
    expect(backwards.json.details).toContain('expiration_date');
    const timeframe = await api.createCampaign({
      ...campaignBodies.DISCOUNT_COUPONS('Timeframe'),
      validity_timeframe: { interval: 'P2D', duration: 'P1D' },
    });
    expect(timeframe.status).toBe(400);
    expect(timeframe.json.details).toContain('start_date');
  });

  it('refuses a name already used in the project with 409 duplicate_found, but not in another project', async () => {
    const { runtime, api } = await setup();
    expect((await api.createCampaign(campaignBodies.DISCOUNT_COUPONS('Taken'))).status).toBe(200);
    const again = await api.createCampaign(campaignBodies.GIFT_VOUCHERS('Taken'));
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({
      code: 409,
      key: 'duplicate_found',
      message: 'Duplicated resource found',
      details: 'Duplicated campaign exists with name Taken',
      resource_id: 'Taken',
      resource_type: 'campaign',
    });
    expect((await api.createCampaign(campaignBodies.DISCOUNT_COUPONS('taken'))).status).toBe(200);
    const other = campaignApi(runtime, await newProject(runtime));
    expect((await other.createCampaign(campaignBodies.DISCOUNT_COUPONS('Taken'))).status).toBe(200);
  });

  it('lets exactly one of 10 parallel creations with the same name through', async () => {
    const { api } = await setup();
    const replies = await Promise.all(Array.from({ length: 10 }, () => api.createCampaign(campaignBodies.DISCOUNT_COUPONS('Race'))));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(9);
  });

  it('generates one voucher within the request and reports DONE', async () => {
    const { runtime, pair, api, jobs } = await setup();
    const reply = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('With one voucher'), vouchers_count: 1 });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ vouchers_count: 1, creation_status: 'DONE', vouchers_generation_status: 'DONE' });
    expect(jobs.sent).toHaveLength(0);
    expect(await listCampaignVoucherCodes(runtime, pair.project_id, reply.json.id as string)).toHaveLength(1);
  });

  it('generates more than one voucher through the worker: IN_PROGRESS at first, then DONE with the exact count', async () => {
    const { runtime, pair, api, jobs } = await setup();
    const created = await api.createCampaign({
      ...campaignBodies.DISCOUNT_COUPONS('With vouchers'),
      vouchers_count: 60,
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, code_config: { pattern: 'SALE-####', charset: '0123456789' } },
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ vouchers_count: 0, creation_status: 'IN_PROGRESS', vouchers_generation_status: 'IN_PROGRESS' });
    expect(jobs.sent).toHaveLength(1);
    await jobs.deliver(runtime);
    const reply = await api.getCampaign('With vouchers');
    expect(reply.json).toMatchObject({ vouchers_count: 60, creation_status: 'DONE', vouchers_generation_status: 'DONE' });
    const codes = await listCampaignVoucherCodes(runtime, pair.project_id, reply.json.id as string);
    expect(codes).toHaveLength(60);
    expect(new Set(codes).size).toBe(60);
    for (const code of codes) expect(code).toMatch(/^SALE-\d{4}$/);
    expect((await api.getVoucher(codes[0] ?? '')).json).toMatchObject({ campaign: 'With vouchers', campaign_id: reply.json.id });
  });

  it('refuses up front, creating nothing, when the pattern cannot hold vouchers_count codes', async () => {
    const { runtime, api, jobs } = await setup();
    const body = {
      ...campaignBodies.DISCOUNT_COUPONS('Tiny'),
      vouchers_count: 3,
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, code_config: { pattern: 'T#', charset: 'ab' } },
    };
    const reply = await api.createCampaign(body);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'code_space_exhausted', details: expect.stringContaining('allows 2 codes') });
    expect((await api.getCampaign('Tiny')).status).toBe(404);
    expect((await api.createCampaign({ ...body, vouchers_count: 2 })).status).toBe(200);
    await jobs.deliver(runtime);
    expect((await api.getCampaign('Tiny')).json).toMatchObject({ vouchers_count: 2 });
  });

  it('marks the campaign FAILED when codes run out during generation', async () => {
    const { runtime, pair, api, jobs } = await setup();
    const config = { pattern: 'F#', charset: 'ab' };
    const voucher = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, code_config: config };
    await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('First'), vouchers_count: 2, voucher });
    await jobs.deliver(runtime);
    const reply = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Second'), vouchers_count: 1, voucher });
    expect(reply.status).toBe(400);
    expect(reply.json.key).toBe('code_space_exhausted');
    const second = await api.getCampaign('Second');
    expect(second.json).toMatchObject({ creation_status: 'FAILED', vouchers_generation_status: 'FAILED', vouchers_count: 0 });
    expect((await getCampaign(runtime, pair.project_id, second.json.id as string))?.vouchersCount).toBe(0);
  });

  it('makes a category from a new name, reuses it by name, and finds it by id', async () => {
    const { api } = await setup();
    const first = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('C1'), category: 'Seasonal' });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      category: 'Seasonal',
      category_id: expect.stringMatching(/^cat_/),
      categories: [{ id: first.json.category_id, name: 'Seasonal', hierarchy: 0, object: 'category', created_at: expect.any(String) }],
    });
    const second = await api.createCampaign({ ...campaignBodies.GIFT_VOUCHERS('C2'), category: 'Seasonal' });
    expect(second.json.category_id).toBe(first.json.category_id);
    const third = await api.createCampaign({ ...campaignBodies.GIFT_VOUCHERS('C3'), category_id: first.json.category_id });
    expect(third.json).toMatchObject({ category: 'Seasonal', category_id: first.json.category_id });
  });

  it('agrees on one category when 10 campaigns introduce the same new category name at once', async () => {
    const { api } = await setup();
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS(`Cat ${i}`), category: 'Fresh' })),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(new Set(replies.map((r) => r.json.category_id)).size).toBe(1);
  });

  it('refuses vouchers for a STANDALONE campaign with 400 invalid_campaign', async () => {
    const { api } = await setup();
    const reply = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Standalone'), type: 'STANDALONE', vouchers_count: 1 });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ key: 'invalid_campaign', details: 'You can not generate vouchers for STANDALONE type campaign.' });
    expect((await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('Standalone'), type: 'STANDALONE' })).json.type).toBe('STANDALONE');
  });

  it('answers 404 for an unknown category_id and 400 for both category and category_id', async () => {
    const { api } = await setup();
    const unknown = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('C'), category_id: 'cat_nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_id: 'cat_nope', resource_type: 'category' });
    const both = await api.createCampaign({ ...campaignBodies.DISCOUNT_COUPONS('C'), category: 'A', category_id: 'cat_nope' });
    expect(both.status).toBe(400);
    expect(both.json.key).toBe('invalid_payload');
  });

  it('accepts a bearer token with the campaigns scope and refuses one limited to vouchers', async () => {
    const { runtime, pair, api } = await setup();
    const tokens = makeTokenHandler({ runtime });
    const token = async (scope: string) =>
      (await call(tokens, { path: '/v1/oauth/token', headers: keyPairHeaders(pair), form: { grant_type: 'client_credentials', scope } })).json
        .access_token as string;
    const allowed = await api.createCampaign(campaignBodies.DISCOUNT_COUPONS('Token'), { authorization: `Bearer ${await token('campaigns')}` });
    expect(allowed.status).toBe(200);
    const denied = await api.createCampaign(campaignBodies.DISCOUNT_COUPONS('Token 2'), { authorization: `Bearer ${await token('vouchers')}` });
    expect(denied.status).toBe(403);
    expect(denied.json.key).toBe('missing_required_permission');
    expect((await api.createCampaign(campaignBodies.DISCOUNT_COUPONS('Anon'), {})).status).toBe(401);
  });
});
