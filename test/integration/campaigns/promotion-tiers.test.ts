import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;
type Tier = {
  id: string;
  name: string;
  hierarchy: number;
  active: boolean;
  action: { discount?: Json };
  campaign_id: string;
  start_date?: string;
  banner?: string;
};
type Reply<T = Json> = { status: number; json: T & { key?: string; details?: string } };

const now = Date.UTC(2026, 10, 25, 12, 0, 0);

async function setup() {
  const clock = new ManualClock(now);
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const call = async <T = Json>(operationId: string, request: Json = {}) => (await api.call(operationId, request)) as unknown as Reply<T>;
  const promotion = async (name: string, tiers: Json[] = [{ name: `${name} base`, action: { discount: { type: 'AMOUNT', amount_off: 100 } } }]) => {
    const reply = await call<{ id: string; promotion: { tiers: Tier[] } }>('create-campaign', {
      json: { name, campaign_type: 'PROMOTION', promotion: { tiers } },
    });
    expect(reply.status).toBe(200);
    return reply.json;
  };
  const validateTier = async (id: string) => {
    const reply = await call<{ valid: boolean; redeemables: { status: string; result?: { error?: { key: string } } }[]; order: { total_amount: number } }>(
      'validate-stacked-discounts',
      { json: { redeemables: [{ object: 'promotion_tier', id }], order: { amount: 1000 } } },
    );
    expect(reply.status).toBe(200);
    const r = reply.json.redeemables[0];
    return { status: r?.status, key: r?.result?.error?.key ?? null, total: reply.json.order.total_amount };
  };
  return { clock, call, promotion, validateTier };
}

describe('promotion tiers (list, add, get, update, enable, disable, delete)', () => {
  it('adds a tier after the last one, lists a campaign’s tiers in hierarchy order and gets one with its campaign', async () => {
    const { call, promotion } = await setup();
    const promo = await promotion('Summer');
    const added = await call<Tier>('add-promotion-tier-to-campaign', {
      params: { campaignId: promo.id },
      json: { name: 'Big spenders', banner: '20 off', action: { discount: { type: 'PERCENT', percent_off: 20 } }, metadata: { level: 2 } },
    });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({ name: 'Big spenders', banner: '20 off', hierarchy: 2, active: true, campaign_id: promo.id, object: 'promotion_tier' });
    expect(added.json.id).toMatch(/^promo_/);
    const first = await call<Tier>('add-promotion-tier-to-campaign', { params: { campaignId: 'Summer' }, json: { name: 'First', hierarchy: 0 } });
    expect(first.status).toBe(200);

    const list = await call<{ object: string; data_ref: string; tiers: Tier[]; total: number; has_more: boolean }>('list-promotion-tiers-from-campaign', {
      params: { campaignId: promo.id },
    });
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ object: 'list', data_ref: 'tiers', total: 3, has_more: false });
    expect(list.json.tiers.map((t) => [t.name, t.hierarchy])).toEqual([
      ['First', 0],
      ['Summer base', 1],
      ['Big spenders', 2],
    ]);

    const got = await call<Tier & { campaign: Json }>('get-promotion-tier', { params: { promotionTierId: added.json.id } });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: added.json.id, name: 'Big spenders', campaign: { id: promo.id, active: true, object: 'campaign' } });
  });

  it('answers 404 for an unknown tier or campaign, and 400 invalid_campaign for a tier added to a campaign that is not a promotion', async () => {
    const { call } = await setup();
    for (const op of ['get-promotion-tier', 'enable-promotion-tier', 'disable-promotion-tier', 'delete-promotion-tier']) {
      const reply = await call(op, { params: { promotionTierId: 'promo_missing' } });
      expect([op, reply.status, reply.json.key]).toEqual([op, 404, 'not_found']);
    }
    const update = await call('update-promotion-tier', { params: { promotionTierId: 'promo_missing' }, json: { name: 'x' } });
    expect([update.status, update.json.key]).toEqual([404, 'not_found']);
    expect((await call('list-promotion-tiers-from-campaign', { params: { campaignId: 'camp_missing' } })).status).toBe(404);
    const coupons = await call<{ id: string }>('create-campaign', {
      json: { name: 'Coupons', campaign_type: 'DISCOUNT_COUPONS', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } },
    });
    const refused = await call('add-promotion-tier-to-campaign', { params: { campaignId: coupons.json.id }, json: { name: 'Tier' } });
    expect([refused.status, refused.json.key]).toEqual([400, 'invalid_campaign']);
  });

  it('changes what a validation applies: PUT changes the discount, disable makes it promotion_inactive, enable brings it back, delete makes it resource_not_found', async () => {
    const { call, promotion, validateTier } = await setup();
    const promo = await promotion('Winter');
    const tierId = (promo.promotion.tiers[0] as Tier).id;
    expect(await validateTier(tierId)).toEqual({ status: 'APPLICABLE', key: null, total: 900 });

    const updated = await call<Tier>('update-promotion-tier', {
      params: { promotionTierId: tierId },
      json: { name: 'Winter 25', action: { discount: { type: 'AMOUNT', amount_off: 250 } } },
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ name: 'Winter 25', action: { discount: { type: 'AMOUNT', amount_off: 250 } }, hierarchy: 1 });
    expect(updated.json).toHaveProperty('updated_at');
    expect(await validateTier(tierId)).toEqual({ status: 'APPLICABLE', key: null, total: 750 });

    const disabled = await call<Tier>('disable-promotion-tier', { params: { promotionTierId: tierId } });
    expect([disabled.status, disabled.json.active]).toEqual([200, false]);
    expect(await validateTier(tierId)).toMatchObject({ status: 'INAPPLICABLE', key: 'promotion_inactive' });
    const enabled = await call<Tier>('enable-promotion-tier', { params: { promotionTierId: tierId } });
    expect([enabled.status, enabled.json.active]).toEqual([200, true]);
    expect(await validateTier(tierId)).toMatchObject({ status: 'APPLICABLE' });

    expect((await call('delete-promotion-tier', { params: { promotionTierId: tierId } })).status).toBe(204);
    expect((await call('get-promotion-tier', { params: { promotionTierId: tierId } })).status).toBe(404);
    expect((await call('delete-promotion-tier', { params: { promotionTierId: tierId } })).status).toBe(404);
    expect(await validateTier(tierId)).toMatchObject({ status: 'INAPPLICABLE', key: 'resource_not_found' });
    const left = await call<{ tiers: Tier[]; total: number }>('list-promotion-tiers-from-campaign', { params: { campaignId: promo.id } });
    expect(left.json.total).toBe(0);
  });

  it('checks the validity window a PUT leaves: null clears a date, an expiration before the start is refused and nothing changes', async () => {
    const { call, promotion } = await setup();
    const promo = await promotion('Dated', [
      { name: 'Dated tier', start_date: '2026-12-01T00:00:00.000Z', action: { discount: { type: 'AMOUNT', amount_off: 1 } } },
    ]);
    const tierId = (promo.promotion.tiers[0] as Tier).id;
    const refused = await call('update-promotion-tier', { params: { promotionTierId: tierId }, json: { expiration_date: '2026-11-30T00:00:00.000Z' } });
    expect([refused.status, refused.json.key]).toEqual([400, 'invalid_payload']);
    expect((await call<Tier>('get-promotion-tier', { params: { promotionTierId: tierId } })).json.start_date).toBe('2026-12-01T00:00:00.000Z');
    const cleared = await call<Tier>('update-promotion-tier', { params: { promotionTierId: tierId }, json: { start_date: null, banner: 'now' } });
    expect(cleared.status).toBe(200);
    expect(cleared.json.start_date).toBeUndefined();
    expect(cleared.json.banner).toBe('now');
  });

  it('lands every one of 10 parallel additions once, with distinct hierarchies, and a change racing a delete never brings the tier back', async () => {
    const { call, promotion } = await setup();
    const promo = await promotion('Busy');
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call<Tier>('add-promotion-tier-to-campaign', { params: { campaignId: promo.id }, json: { name: `Tier ${i}` } })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const list = await call<{ tiers: Tier[]; total: number }>('list-promotion-tiers-from-campaign', { params: { campaignId: promo.id } });
    expect(list.json.total).toBe(11);
    expect(new Set(list.json.tiers.map((t) => t.hierarchy)).size).toBe(11);
    expect(new Set(list.json.tiers.map((t) => t.name)).size).toBe(11);

    const target = (replies[0] as Reply<Tier>).json.id;
    const [changed, deleted] = await Promise.all([
      call('update-promotion-tier', { params: { promotionTierId: target }, json: { name: 'Renamed' } }),
      call('delete-promotion-tier', { params: { promotionTierId: target } }),
    ]);
    expect(deleted.status).toBe(204);
    expect([200, 404]).toContain(changed.status);
    expect((await call('get-promotion-tier', { params: { promotionTierId: target } })).status).toBe(404);
    const after = await call<{ tiers: Tier[]; total: number }>('list-promotion-tiers-from-campaign', { params: { campaignId: promo.id } });
    expect(after.json.tiers.map((t) => t.id)).not.toContain(target);
    expect(after.json.total).toBe(10);
  });

  it('lists the project’s tiers across promotions with paging, order and is_available', async () => {
    const { call, promotion, clock } = await setup();
    const a = await promotion('A', [
      { name: 'A1', action: { discount: { type: 'AMOUNT', amount_off: 1 } } },
      { name: 'A2', expiration_date: '2026-11-30T00:00:00.000Z', action: { discount: { type: 'AMOUNT', amount_off: 1 } } },
    ]);
    clock.advance(1000);
    await promotion('B', [{ name: 'B1', active: false, action: { discount: { type: 'AMOUNT', amount_off: 1 } } }]);
    clock.advance(1000);
    await promotion('C', [{ name: 'C1', start_date: '2026-12-24T00:00:00.000Z', action: { discount: { type: 'AMOUNT', amount_off: 1 } } }]);
    await call('create-campaign', {
      json: { name: 'Not a promotion', campaign_type: 'DISCOUNT_COUPONS', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 1 } } },
    });
    type Page = { tiers: Tier[]; total: number; has_more: boolean };
    const names = (r: Reply<Page>) => r.json.tiers.map((t) => t.name);

    const all = await call<Page>('list-promotion-tiers');
    expect(all.status).toBe(200);
    expect([all.json.total, all.json.has_more]).toEqual([4, false]);
    expect(names(all).sort()).toEqual(['A1', 'A2', 'B1', 'C1']);
    const newest = await call<Page>('list-promotion-tiers', { query: 'order=-created_at&limit=1' });
    expect([names(newest), newest.json.total, newest.json.has_more]).toEqual([['C1'], 4, true]);
    const second = await call<Page>('list-promotion-tiers', { query: 'order=-created_at&limit=1&page=2' });
    expect(names(second)).toEqual(['B1']);

    expect(names(await call<Page>('list-promotion-tiers', { query: 'is_available=true' })).sort()).toEqual(['A1', 'A2']);
    clock.advance(Date.UTC(2026, 11, 25) - now);
    expect(names(await call<Page>('list-promotion-tiers', { query: 'is_available=true' })).sort()).toEqual(['A1', 'C1']);
    await call('disable-campaign', { params: { campaignId: a.id } });
    expect(names(await call<Page>('list-promotion-tiers', { query: 'is_available=true' }))).toEqual(['C1']);
    expect((await call('list-promotion-tiers', { query: 'limit=101' })).status).toBe(400);
  });
});
