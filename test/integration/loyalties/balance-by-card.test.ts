import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { REPLAYED_HEADER } from '../../../lib/idempotency/idempotency.service.js';
import { balanceReplySchema } from '../../../lib/loyalties/loyalty.reply.js';
import { apiClient } from '../../support/api-client.js';
import { campaignApi, campaignBodies, newCampaign } from '../../support/api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/**
 * POST /v1/loyalties/members/{memberId}/balance (update-loyalty-card-balance, issue 37): the card
 * found by its code or id alone, in whichever program holds it; the same service, transaction and
 * Idempotency-Key as POST /v1/loyalties/{campaignId}/members/{memberId}/balance.
 */

const at = Date.UTC(2026, 1, 10, 12, 0, 0); // 2026-02-10

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const pair = await newProject(runtime);
  const campaigns = campaignApi(runtime, pair);
  const headers = keyPairHeaders(pair);
  const api = apiClient({ runtime }, headers);
  // Points of this program expire after 3 months at the end of the month; the other program's after 1.
  await newCampaign(campaigns, {
    ...campaignBodies.LOYALTY_PROGRAM('Club'),
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0, expiration_rules: { period_type: 'MONTH', period_value: 3, rounding_type: 'END_OF_MONTH' } } },
  });
  await newCampaign(campaigns, {
    ...campaignBodies.LOYALTY_PROGRAM('Other'),
    voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0, expiration_rules: { period_type: 'MONTH', period_value: 1, rounding_type: 'END_OF_MONTH' } } },
  });
  const card = (await campaigns.addVoucher('Club', { code: 'CARD-1' })).json;
  await campaigns.addVoucher('Other', { code: 'CARD-2' });
  const cardOf = async (code: string) => (await campaigns.getVoucher(code)).json.loyalty_card as Record<string, unknown>;
  return { runtime, campaigns, api, headers, card, cardOf };
}

describe('POST /v1/loyalties/members/{memberId}/balance', () => {
  it('adds and spends points on the card named by code or id, under its own program’s expiration rules', async () => {
    const { api, card, cardOf } = await setup();
    const added = await api.call('update-loyalty-card-balance', { params: { memberId: 'CARD-1' }, json: { points: 40, reason: 'welcome' } });
    expect(added.status).toBe(200);
    expect(balanceReplySchema.parse(added.json)).toEqual({
      points: 40,
      total: 40,
      balance: 40,
      type: 'loyalty_card',
      object: 'balance',
      related_object: { type: 'voucher', id: card.id },
      operation_type: 'MANUAL',
    });
    expect(await cardOf('CARD-1')).toMatchObject({ balance: 40, next_expiration_date: '2026-05-31' });
    const other = await api.call('update-loyalty-card-balance', { params: { memberId: 'CARD-2' }, json: { points: 5 } });
    expect(other.status).toBe(200);
    expect(await cardOf('CARD-2')).toMatchObject({ balance: 5, next_expiration_date: '2026-03-31' });

    const spent = await api.call('update-loyalty-card-balance', { params: { memberId: card.id as string }, json: { points: -15 } });
    expect(spent.json).toMatchObject({ points: -15, total: 40, balance: 25 });
    // The same card through the program's path: one card, one balance.
    const viaProgram = await api.call('update-loyalty-card-balance-1', { params: { campaignId: 'Club', memberId: 'CARD-1' }, json: { points: 1 } });
    expect(viaProgram.json).toMatchObject({ balance: 26 });
    const history = await api.call('list-loyalty-card-transactions', { params: { memberId: 'CARD-1' } });
    // One clock instant: compare as a set (their order among equal times is the ids').
    const kinds = (history.json.data as Record<string, unknown>[]).map((t) => `${t.type} ${t.reason ?? ''}`.trim()).sort();
    expect(kinds).toEqual(['POINTS_ADDITION', 'POINTS_ADDITION welcome', 'POINTS_REMOVAL']);
  });

  it('is 404 voucher for an unknown code and for a voucher that is no loyalty card; 400 for too few points', async () => {
    const { api, campaigns } = await setup();
    const unknown = await api.call('update-loyalty-card-balance', { params: { memberId: 'NOPE' }, json: { points: 5 } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ key: 'not_found', resource_type: 'voucher', resource_id: 'NOPE' });
    await newCampaign(campaigns, campaignBodies.DISCOUNT_COUPONS('Coupons'));
    await campaigns.addVoucher('Coupons', { code: 'COUPON-1' });
    const coupon = await api.call('update-loyalty-card-balance', { params: { memberId: 'COUPON-1' }, json: { points: 5 } });
    expect(coupon.status).toBe(404);
    expect(coupon.json.resource_type).toBe('voucher');
    const tooMany = await api.call('update-loyalty-card-balance', { params: { memberId: 'CARD-1' }, json: { points: -1 } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.key).toBe('not_enough_points');
  });

  it('moves points once for 10 parallel copies with one Idempotency-Key, all given the first reply; the key covers the card in the path', async () => {
    const { api, headers, cardOf } = await setup();
    const keyed = { ...headers, 'idempotency-key': 'k-1' };
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => api.call('update-loyalty-card-balance', { params: { memberId: 'CARD-1' }, json: { points: 7 }, headers: keyed })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(replies.map((r) => JSON.stringify(r.json))).size).toBe(1);
    expect(replies.filter((r) => r.headers[REPLAYED_HEADER] === undefined)).toHaveLength(1);
    expect(await cardOf('CARD-1')).toMatchObject({ balance: 7 });
    const again = await api.call('update-loyalty-card-balance', { params: { memberId: 'CARD-1' }, json: { points: 7 }, headers: keyed });
    expect(again.json).toMatchObject({ balance: 7 });
    expect(await cardOf('CARD-1')).toMatchObject({ balance: 7 });
    const otherCard = await api.call('update-loyalty-card-balance', { params: { memberId: 'CARD-2' }, json: { points: 7 }, headers: keyed });
    expect(otherCard.status).toBe(422);
  });
});
