import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';
import { publicationSetup } from '../publications/support.js';
import { campaignBodies, newCampaign } from '../../support/api.js';

const discount = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } };

describe('POST /v1/vouchers/{code} (create-voucher)', () => {
  it('creates a standalone voucher of the request’s type, benefit and validity; GET finds it by code and id', async () => {
    const { api } = await publicationSetup();
    const reply = await api.call('create-voucher', {
      params: { code: 'SOLO-1' },
      json: {
        ...discount,
        category: 'Welcome',
        start_date: '2026-01-01T00:00:00Z',
        expiration_date: '2026-12-31T23:59:59Z',
        validity_day_of_week: [1, 2],
        active: false,
        additional_info: 'inactive for now',
        redemption: { quantity: 10 },
        metadata: { locale: 'de' },
        validation_rules: [],
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      code: 'SOLO-1',
      campaign: null,
      campaign_id: null,
      category: 'Welcome',
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'PERCENT', percent_off: 10 },
      gift: null,
      loyalty_card: null,
      start_date: '2026-01-01T00:00:00.000Z',
      expiration_date: '2026-12-31T23:59:59.000Z',
      validity_day_of_week: [1, 2],
      active: false,
      additional_info: 'inactive for now',
      metadata: { locale: 'de' },
      redemption: { quantity: 10, redeemed_quantity: 0 },
      publish: { count: 0 },
      object: 'voucher',
    });
    expect((await api.call('get-voucher', { params: { code: 'SOLO-1' } })).json).toEqual(reply.json);
    expect((await api.call('get-voucher', { params: { code: reply.json.id as string } })).json).toEqual(reply.json);
  });

  it('creates gift cards with their balance and loyalty cards with their points', async () => {
    const { api } = await publicationSetup();
    const gift = await api.call('create-voucher', {
      params: { code: 'GIFT-1' },
      json: { type: 'GIFT_VOUCHER', gift: { amount: 10000, effect: 'APPLY_TO_ORDER' } },
    });
    expect(gift.json).toMatchObject({ type: 'GIFT_VOUCHER', gift: { amount: 10000, balance: 10000, effect: 'APPLY_TO_ORDER' }, discount: null });
    const card = await api.call('create-voucher', { params: { code: 'CARD-1' }, json: { type: 'LOYALTY_CARD', loyalty_card: { points: 300 } } });
    expect(card.json).toMatchObject({ type: 'LOYALTY_CARD', loyalty_card: { points: 300, balance: 300 } });
  });

  it('refuses a taken code with 409 duplicate_found, whether the holder is standalone or of a campaign', async () => {
    const { api, campaignWith } = await publicationSetup();
    await campaignWith('Taken', ['IN-CAMP']);
    expect((await api.call('create-voucher', { params: { code: 'DUP' }, json: discount })).status).toBe(200);
    for (const code of ['DUP', 'IN-CAMP']) {
      const again = await api.call('create-voucher', { params: { code }, json: discount });
      expect(again.status).toBe(409);
      expect(again.json).toMatchObject({ code: 409, key: 'duplicate_found' });
    }
    // Codes are case-sensitive: another case is another code.
    expect((await api.call('create-voucher', { params: { code: 'dup' }, json: discount })).status).toBe(200);
  });

  it('of 20 concurrent creations with one code, exactly one succeeds and the others get 409', async () => {
    const { api } = await publicationSetup();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.call('create-voucher', { params: { code: 'RACE' }, json: { ...discount, metadata: { i } } })),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409 && r.json.key === 'duplicate_found')).toHaveLength(19);
  });

  it('adds the voucher to a campaign named by id or name: it takes the campaign’s type and the campaign counts it', async () => {
    const { api, campaignWith } = await publicationSetup();
    const campaign = await campaignWith('Joined', ['J-0']);
    const byId = await api.call('create-voucher', { params: { code: 'J-1' }, json: { campaign_id: campaign.id, metadata: { a: 1 } } });
    expect(byId.status).toBe(200);
    expect(byId.json).toMatchObject({ campaign: 'Joined', campaign_id: campaign.id, type: 'DISCOUNT_VOUCHER', metadata: { a: 1 } });
    const byName = await api.call('create-voucher', { params: { code: 'J-2' }, json: { campaign: 'Joined', type: 'DISCOUNT_VOUCHER' } });
    expect(byName.status).toBe(200);
    expect((await api.call('get-campaign', { params: { campaignId: campaign.id as string } })).json.vouchers_count).toBe(3);
    const mismatch = await api.call('create-voucher', { params: { code: 'J-3' }, json: { campaign: 'Joined', type: 'GIFT_VOUCHER', gift: { amount: 1 } } });
    expect(mismatch.status).toBe(400);
    expect((await api.call('create-voucher', { params: { code: 'J-4' }, json: { campaign: 'Nowhere' } })).status).toBe(404);
  });

  it('adds the voucher to a STANDALONE campaign (a generic code), which still refuses generated vouchers; a PROMOTION takes none', async () => {
    const { api } = await publicationSetup();
    const made = await api.call('create-campaign', {
      json: {
        name: 'Generic',
        campaign_type: 'DISCOUNT_COUPONS',
        type: 'STANDALONE',
        voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
      },
    });
    expect(made.status).toBe(200);
    const campaignId = made.json.id as string;
    const byCode = await api.call('create-voucher', { params: { code: 'WELCOME' }, json: { campaign_id: campaignId } });
    expect(byCode.status, JSON.stringify(byCode.json)).toBe(200);
    expect(byCode.json).toMatchObject({
      code: 'WELCOME',
      campaign: 'Generic',
      campaign_id: campaignId,
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'AMOUNT', amount_off: 100 },
    });
    const random = await api.call('generate-random-code', { json: { campaign: 'Generic' } });
    expect(random.status, JSON.stringify(random.json)).toBe(200);
    expect(random.json).toMatchObject({ campaign_id: campaignId });
    expect((await api.call('get-campaign', { params: { campaignId } })).json).toMatchObject({ type: 'STANDALONE', vouchers_count: 2 });
    const generated = await api.call('add-vouchers-to-campaign', { params: { campaignId }, json: {} });
    expect(generated.status).toBe(400);
    expect(generated.json).toMatchObject({ key: 'invalid_campaign', details: expect.stringContaining('STANDALONE') });
    const promo = await api.call('create-campaign', {
      json: { name: 'Promo', campaign_type: 'PROMOTION', promotion: { tiers: [{ name: 'T', action: { discount: { type: 'AMOUNT', amount_off: 1 } } }] } },
    });
    const intoPromo = await api.call('create-voucher', { params: { code: 'PROMO-1' }, json: { campaign_id: promo.json.id, ...discount } });
    expect(intoPromo.status).toBe(400);
    expect(intoPromo.json).toMatchObject({ key: 'invalid_campaign' });
    expect((await api.call('get-campaign', { params: { campaignId } })).json.vouchers_count).toBe(2);
  });

  it('without type, makes a discount voucher (the reference’s default), or the type of the one benefit it carries', async () => {
    const { api } = await publicationSetup();
    const plain = await api.call('create-voucher', { params: { code: 'NO-TYPE' }, json: { discount: { type: 'AMOUNT', amount_off: 500 } } });
    expect(plain.status, JSON.stringify(plain.json)).toBe(200);
    expect(plain.json).toMatchObject({ code: 'NO-TYPE', campaign: null, type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } });
    const random = await api.call('generate-random-code', { json: { discount: { type: 'PERCENT', percent_off: 5 } } });
    expect(random.status, JSON.stringify(random.json)).toBe(200);
    expect(random.json).toMatchObject({ code: expect.stringMatching(/^[0-9A-Za-z]{8}$/), type: 'DISCOUNT_VOUCHER', discount: { percent_off: 5 } });
    const gift = await api.call('create-voucher', { params: { code: 'NO-TYPE-GIFT' }, json: { gift: { amount: 2000 } } });
    expect(gift.status, JSON.stringify(gift.json)).toBe(200);
    expect(gift.json).toMatchObject({ type: 'GIFT_VOUCHER', gift: { amount: 2000, balance: 2000 }, discount: null });
    const card = await api.call('generate-random-code', { json: { loyalty_card: { points: 40 } } });
    expect(card.status, JSON.stringify(card.json)).toBe(200);
    expect(card.json).toMatchObject({ type: 'LOYALTY_CARD', loyalty_card: { points: 40, balance: 40 } });
    // Two benefits and no type say nothing clear: refused, as with a type.
    const both = await api.call('create-voucher', { params: { code: 'NO-TYPE-BOTH' }, json: { discount: discount.discount, gift: { amount: 5 } } });
    expect(both.status).toBe(400);
  });

  it('refuses with 400: neither type nor benefit, a type without its benefit, a benefit of another type, a body code unlike the path’s', async () => {
    const { api } = await publicationSetup();
    for (const json of [
      { metadata: {} },
      { type: 'GIFT_VOUCHER' },
      { type: 'DISCOUNT_VOUCHER', discount: discount.discount, gift: { amount: 5 } },
      { ...discount, code: 'OTHER' },
      { ...discount, validation_rules: ['val_1'] },
      { ...discount, campaign: 'a', campaign_id: 'b' },
    ]) {
      const reply = await api.call('create-voucher', { params: { code: 'BAD-1' }, json });
      expect(reply.status, JSON.stringify(json)).toBe(400);
    }
    expect((await api.call('get-voucher', { params: { code: 'BAD-1' } })).status).toBe(404);
  });

  it('keeps codes unique per project only: another project may use the same code and never sees this one', async () => {
    const { api } = await publicationSetup();
    expect((await api.call('create-voucher', { params: { code: 'SHARED' }, json: discount })).status).toBe(200);
    const runtime = testRuntime();
    const other = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    expect((await other.call('get-voucher', { params: { code: 'SHARED' } })).status).toBe(404);
    expect((await other.call('create-voucher', { params: { code: 'SHARED' }, json: discount })).status).toBe(200);
  });
});

describe('POST /v1/vouchers (generate-random-code)', () => {
  it('creates a standalone voucher with a code from code_config, or the default 8 alphanumeric characters', async () => {
    const { api } = await publicationSetup();
    const patterned = await api.call('generate-random-code', {
      json: { type: 'GIFT_VOUCHER', gift: { amount: 500 }, code_config: { pattern: 'GC-####', charset: '0123456789', prefix: 'N-' } },
    });
    expect(patterned.status).toBe(200);
    expect(patterned.json.code).toMatch(/^N-GC-\d{4}$/);
    const plain = await api.call('generate-random-code', { json: discount });
    expect(plain.json.code).toMatch(/^[0-9A-Za-z]{8}$/);
    expect((await api.call('get-voucher', { params: { code: plain.json.code as string } })).status).toBe(200);
  });

  it('uses the body’s code when given (409 when taken), and the campaign’s code configuration in a campaign', async () => {
    const { api, campaigns } = await publicationSetup();
    const given = await api.call('generate-random-code', { json: { ...discount, code: 'GIVEN-1' } });
    expect(given.json).toMatchObject({ code: 'GIVEN-1', campaign_id: null });
    expect((await api.call('generate-random-code', { json: { ...discount, code: 'GIVEN-1' } })).status).toBe(409);
    const campaign = await newCampaign(campaigns, {
      ...campaignBodies.DISCOUNT_COUPONS('Patterned'),
      voucher: { ...discount, code_config: { pattern: 'PAT-###', charset: 'XYZ' } },
    });
    const inCampaign = await api.call('generate-random-code', { json: { campaign_id: campaign.id } });
    expect(inCampaign.json).toMatchObject({ campaign_id: campaign.id });
    expect(inCampaign.json.code).toMatch(/^PAT-[XYZ]{3}$/);
    expect((await api.call('get-campaign', { params: { campaignId: campaign.id as string } })).json.vouchers_count).toBe(1);
  });

  it('ends in a clear 4xx, never a loop, when the pattern has no free code left', async () => {
    const { api } = await publicationSetup();
    const json = { ...discount, code_config: { pattern: '#', charset: 'AB' } };
    expect((await api.call('generate-random-code', { json })).status).toBe(200);
    expect((await api.call('generate-random-code', { json })).status).toBe(200);
    const full = await api.call('generate-random-code', { json });
    expect(full.status).toBeGreaterThanOrEqual(400);
    expect(full.status).toBeLessThan(500);
  });
});

describe('POST /v1/campaigns/{campaignId}/vouchers/{code} (add-voucher-with-specific-code-to-campaign)', () => {
  it('adds the voucher with the request’s overrides; the campaign counts it; a disabled one stays out of the publication pool', async () => {
    const { api, campaignWith, publish } = await publicationSetup();
    const campaign = await campaignWith('Coded', [], { type: 'STATIC' });
    const reply = await api.call('add-voucher-with-specific-code-to-campaign', {
      params: { campaignId: campaign.id as string, code: 'Code3' },
      json: {
        category: 'Fall',
        start_date: '2026-09-24T00:00:00Z',
        expiration_date: '2026-09-25T23:59:59Z',
        active: false,
        redemption: { quantity: null },
        additional_info: 'by API',
        metadata: { Season: 'Fall' },
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      code: 'Code3',
      campaign: 'Coded',
      campaign_id: campaign.id,
      category: 'Fall',
      active: false,
      redemption: { quantity: null },
      additional_info: 'by API',
      metadata: { Season: 'Fall' },
      start_date: '2026-09-24T00:00:00.000Z',
    });
    expect((await api.call('get-campaign', { params: { campaignId: 'Coded' } })).json.vouchers_count).toBe(1);
    expect((await publish({ campaign: { name: 'Coded' }, customer: { source_id: 'ann' } })).json).toMatchObject({ key: 'no_voucher_suitable_for_publication' });
  });

  it('refuses a taken code with 409 and an unknown campaign with 404, leaving the counter alone', async () => {
    const { api, campaignWith } = await publicationSetup();
    await campaignWith('Counted', ['C-1']);
    const dup = await api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId: 'Counted', code: 'C-1' }, json: {} });
    expect(dup.status).toBe(409);
    expect(dup.json).toMatchObject({ key: 'duplicate_found' });
    expect((await api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId: 'camp_none', code: 'C-2' }, json: {} })).status).toBe(404);
    expect((await api.call('get-campaign', { params: { campaignId: 'Counted' } })).json.vouchers_count).toBe(1);
  });

  it('keeps vouchers_count exact under 20 parallel additions of distinct codes plus 10 of one code', async () => {
    const { api, campaignWith } = await publicationSetup();
    await campaignWith('Parallel', []);
    const add = (code: string) => api.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId: 'Parallel', code }, json: {} });
    const replies = await Promise.all([...Array.from({ length: 20 }, (_, i) => add(`P-${i}`)), ...Array.from({ length: 10 }, () => add('P-SAME'))]);
    expect(replies.slice(0, 20).every((r) => r.status === 200)).toBe(true);
    expect(replies.slice(20).filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.slice(20).filter((r) => r.status === 409)).toHaveLength(9);
    expect((await api.call('get-campaign', { params: { campaignId: 'Parallel' } })).json.vouchers_count).toBe(21);
  });

  it('cannot add to another project’s campaign', async () => {
    const { campaignWith } = await publicationSetup();
    const campaign = await campaignWith('Mine', []);
    const runtime = testRuntime();
    const other = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
    const reply = await other.call('add-voucher-with-specific-code-to-campaign', { params: { campaignId: campaign.id as string, code: 'X-1' }, json: {} });
    expect(reply.status).toBe(404);
  });
});
