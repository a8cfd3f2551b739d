import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/** Monday 2026-07-06 13:00 UTC. */
const monday = Date.UTC(2026, 6, 6, 13, 0, 0);

type Json = Record<string, unknown>;
type Reply = { status: number; json: Json & { valid?: boolean; error?: Json; order?: Json } };

async function setup(at = monday) {
  const clock = new ManualClock(at);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const voucher = async (code: string, json: Json = { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } }) => {
    const reply = await api.call('create-voucher', { params: { code }, json });
    if (reply.status !== 200) throw new Error(`voucher ${code}: ${JSON.stringify(reply.json)}`);
    return reply.json as Json;
  };
  const validateVoucher = async (code: string, json: Json) => (await api.call('validate-voucher', { params: { code }, json })) as unknown as Reply;
  const validateTier = async (tierId: string, json: Json) =>
    (await api.call('validate-promotion-tier', { params: { promotionTierId: tierId }, json })) as unknown as Reply;
  const promotion = async (tiers: Json[]) => {
    const reply = (await api.call('create-campaign', {
      json: { name: `Promo ${Math.random()}`, campaign_type: 'PROMOTION', promotion: { tiers } },
    })) as unknown as { status: number; json: { id: string; promotion: { tiers: { id: string }[] } } };
    if (reply.status !== 200) throw new Error(`promotion: ${JSON.stringify(reply.json)}`);
    return { campaignId: reply.json.id, tierIds: reply.json.promotion.tiers.map((t) => t.id) };
  };
  return { runtime, clock, api, voucher, validateVoucher, validateTier, promotion };
}

const cart = {
  items: [
    { product_id: 'prod_shoe', quantity: 2, price: 1500 },
    { product_id: 'prod_sock', quantity: 1, price: 1000 },
  ],
};

describe('POST /v1/vouchers/{code}/validate (validate-voucher)', () => {
  it('answers valid with the discount and the order figures the stacked engine computes', async () => {
    const { voucher, validateVoucher } = await setup();
    await voucher('PCT10', { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 }, metadata: { shoutout: 'ten' } });
    const reply = await validateVoucher('PCT10', { order: cart, customer: { source_id: 'shopper-1' } });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      valid: true,
      code: 'PCT10',
      discount: { type: 'PERCENT', percent_off: 10 },
      metadata: { shoutout: 'ten' },
      applicable_to: { object: 'list', data_ref: 'data', data: [], total: 0 },
      inapplicable_to: { object: 'list', data_ref: 'data', data: [], total: 0 },
    });
    expect(reply.json.tracking_id).toMatch(/^track_/);
    expect(reply.json.order).toMatchObject({
      amount: 4000,
      initial_amount: 4000,
      discount_amount: 400,
      items_discount_amount: 0,
      total_discount_amount: 400,
      total_amount: 3600,
      applied_discount_amount: 400,
      total_applied_discount_amount: 400,
      object: 'order',
    });
    expect(reply.json).not.toHaveProperty('error');
  });

  it('answers a gift card with the credits it takes, never above the balance, and names its campaign', async () => {
    const { voucher, validateVoucher, api } = await setup();
    const campaign = (await api.call('create-campaign', {
      json: { name: 'Cards', campaign_type: 'GIFT_VOUCHERS', voucher: { type: 'GIFT_VOUCHER', gift: { amount: 1000 } } },
    })) as unknown as { status: number; json: { id: string } };
    expect(campaign.status).toBe(200);
    await voucher('CARD-1', { campaign_id: campaign.json.id, type: 'GIFT_VOUCHER', gift: { amount: 1000 } });
    const some = await validateVoucher('CARD-1', { order: { amount: 5000 }, gift: { credits: 300 } });
    expect(some.json).toMatchObject({ valid: true, code: 'CARD-1', campaign: 'Cards', campaign_id: campaign.json.id, gift: { amount: 1000, balance: 1000 } });
    expect(some.json.order).toMatchObject({ amount: 5000, total_amount: 4700 });
    const all = await validateVoucher('CARD-1', { order: { amount: 5000 } });
    expect(all.json.order).toMatchObject({ total_amount: 4000 });
    const tooMuch = await validateVoucher('CARD-1', { order: { amount: 5000 }, gift: { credits: 1001 } });
    expect(tooMuch.status).toBe(200);
    expect(tooMuch.json).toMatchObject({ valid: false, reason: 'gift amount exceeded', error: { code: 400, key: 'gift_amount_exceeded' } });
  });

  it.each([
    ['voucher_disabled', 'voucher is disabled', { active: false }],
    ['voucher_not_active', 'voucher not active', { start_date: '2026-08-01T00:00:00Z' }],
    ['voucher_expired', 'voucher expired', { expiration_date: '2026-07-01T00:00:00Z' }],
    ['missing_order_items', 'missing order items', { discount: { type: 'AMOUNT', amount_off: 100, effect: 'APPLY_TO_ITEMS' } }],
  ])('answers HTTP 200 with valid: false, reason and error %s', async (key, reason, fields) => {
    const { voucher, validateVoucher } = await setup();
    await voucher('BAD', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, metadata: { m: 1 }, ...fields });
    const reply = await validateVoucher('BAD', { order: { amount: 1000 }, customer: { source_id: 'shopper-2' } });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      valid: false,
      code: 'BAD',
      reason,
      error: { code: 400, key, message: reason, details: 'BAD', request_id: expect.any(String) },
      tracking_id: expect.stringMatching(/^track_/),
      metadata: { m: 1 },
    });
  });

  it('answers quantity_exceeded once the uses are held by another LOCK session, which the old call can take too', async () => {
    const { voucher, validateVoucher, api } = await setup();
    await voucher('ONE-LEFT', { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, redemption: { quantity: 1 } });
    const held = await validateVoucher('ONE-LEFT', { order: { amount: 1000 }, session: { type: 'LOCK', key: 'old-checkout', ttl: 1, ttl_unit: 'HOURS' } });
    expect(held.json).toMatchObject({ valid: true, session: { type: 'LOCK', key: 'old-checkout', ttl: 1, ttl_unit: 'HOURS' } });
    // The hold is the stacked call's: the stacked validation sees it too.
    const stacked = await api.call('validate-stacked-discounts', { json: { redeemables: [{ object: 'voucher', id: 'ONE-LEFT' }], order: { amount: 1000 } } });
    expect(stacked.json).toMatchObject({ valid: false, redeemables: [{ result: { error: { key: 'quantity_exceeded' } } }] });
    const other = await validateVoucher('ONE-LEFT', { order: { amount: 1000 } });
    expect(other.json).toMatchObject({ valid: false, reason: 'quantity exceeded', error: { key: 'quantity_exceeded' } });
    expect((await validateVoucher('ONE-LEFT', { order: { amount: 1000 }, session: { type: 'LOCK', key: 'old-checkout' } })).json.valid).toBe(true);
    expect((await api.call('release-validation-session', { params: { code: 'ONE-LEFT', sessionKey: 'old-checkout' } })).status).toBe(204);
    expect((await validateVoucher('ONE-LEFT', { order: { amount: 1000 } })).json.valid).toBe(true);
  });

  it('answers 404 for an unknown code and for an unknown order id, and 400 for a body the reference does not allow', async () => {
    const { voucher, validateVoucher } = await setup();
    await voucher('REAL');
    const unknown = await validateVoucher('NO-SUCH-CODE', { order: { amount: 1000 } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 404, key: 'not_found', resource_type: 'voucher', resource_id: 'NO-SUCH-CODE' });
    expect((await validateVoucher('REAL', { order: { id: 'ord_none' } })).status).toBe(404);
    expect((await validateVoucher('REAL', { order: { amount: 10.5 } })).status).toBe(400);
    // A key the single-code body does not document is ignored, as Voucherify does (issue 33).
    expect((await validateVoucher('REAL', { order: { amount: 1000 }, redeemables: [] })).status).toBe(200);
  });

  it('is case-sensitive: another case of the code is another (unknown) code', async () => {
    const { voucher, validateVoucher } = await setup();
    await voucher('MiXeD');
    expect((await validateVoucher('MiXeD', { order: { amount: 1000 } })).json.valid).toBe(true);
    expect((await validateVoucher('mixed', { order: { amount: 1000 } })).status).toBe(404);
  });
});

describe('POST /v1/promotions/tiers/{promotionTierId}/validation (validate-promotion-tier)', () => {
  it('answers the tier valid with its discount, its campaign and the order figures', async () => {
    const { promotion, validateTier } = await setup();
    const { campaignId, tierIds } = await promotion([
      { name: 'Ten off', banner: 'Get 10', action: { discount: { type: 'AMOUNT', amount_off: 1000 } }, metadata: { t: 1 } },
    ]);
    const tierId = tierIds[0] ?? '';
    const reply = await validateTier(tierId, { order: cart, customer: { source_id: 'shopper-3' }, metadata: { store: 'NY' } });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      valid: true,
      id: tierId,
      name: 'Ten off',
      banner: 'Get 10',
      discount: { type: 'AMOUNT', amount_off: 1000 },
      campaign: { id: campaignId, active: true, object: 'campaign' },
      hierarchy: 1,
      metadata: { t: 1 },
      discount_amount: 1000,
      applied_discount_amount: 1000,
      object: 'promotion_tier',
    });
    expect(reply.json.order).toMatchObject({ amount: 4000, total_discount_amount: 1000, total_amount: 3000 });
    expect(reply.json.tracking_id).toMatch(/^track_/);
  });

  it('answers a disabled tier with HTTP 200, valid: false and promotion_inactive, and an unknown tier with 404', async () => {
    const { promotion, validateTier } = await setup();
    const { tierIds } = await promotion([{ name: 'Off', active: false, action: { discount: { type: 'AMOUNT', amount_off: 100 } } }]);
    const tierId = tierIds[0] ?? '';
    const off = await validateTier(tierId, { order: { amount: 1000 } });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({
      valid: false,
      reason: 'Inactive Promotion',
      error: { code: 400, key: 'promotion_inactive', message: 'Inactive Promotion', details: tierId },
      id: tierId,
      name: 'Off',
      object: 'promotion_tier',
    });
    expect(off.json).not.toHaveProperty('order');
    const unknown = await validateTier('promo_none', { order: { amount: 1000 } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'promotion_tier' });
  });

  it('answers a tier of an expired campaign with campaign_not_active', async () => {
    const { api, validateTier } = await setup();
    const reply = (await api.call('create-campaign', {
      json: {
        name: 'Past',
        campaign_type: 'PROMOTION',
        expiration_date: '2026-07-01T00:00:00Z',
        promotion: { tiers: [{ name: 'Past tier', action: { discount: { type: 'AMOUNT', amount_off: 100 } } }] },
      },
    })) as unknown as { status: number; json: { promotion: { tiers: { id: string }[] } } };
    expect(reply.status).toBe(200);
    const tierId = reply.json.promotion.tiers[0]?.id ?? '';
    expect((await validateTier(tierId, { order: { amount: 1000 } })).json).toMatchObject({ valid: false, error: { key: 'campaign_not_active' } });
  });
});
