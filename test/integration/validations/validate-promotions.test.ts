import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import type { promotionsValidationReplySchema } from '../../../lib/validations/legacy-promotions.reply.js';
import type * as z from '../../../lib/zod.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

type Reply = z.output<typeof promotionsValidationReplySchema>;
type Json = Record<string, unknown>;

async function setup() {
  const clock = new ManualClock(Date.UTC(2026, 6, 6, 13, 0, 0));
  const runtime = testRuntime({ clock });
  const pair = await newProject(runtime);
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const validate = async (json: Json, query = '') =>
    (await api.call('validate-promotions', { json, query })) as unknown as { status: number; json: Reply & Json };
  const promotion = async (name: string, tiers: Json[]) => {
    const reply = await api.call('create-campaign', { json: { name, campaign_type: 'PROMOTION', promotion: { tiers } } });
    if (reply.status !== 200) throw new Error(JSON.stringify(reply.json));
    return (reply.json as { promotion: { tiers: { id: string; name: string }[] } }).promotion.tiers;
  };
  return { api, validate, promotion, clock };
}

const names = (r: { json: Reply }) => r.json.promotions.map((p) => p.name);

describe('POST /v1/promotions/validation (validate-promotions, legacy)', () => {
  it('answers a cart with no codes with the tiers it qualifies for, in hierarchy order, each with the order after it alone', async () => {
    const { validate, promotion } = await setup();
    const tiers = await promotion('Promo', [
      { name: 'Third', hierarchy: 3, action: { discount: { type: 'AMOUNT', amount_off: 300 } } },
      { name: 'First', hierarchy: 1, banner: 'One off', action: { discount: { type: 'AMOUNT', amount_off: 100 } } },
      { name: 'Off', hierarchy: 0, active: false, action: { discount: { type: 'AMOUNT', amount_off: 900 } } },
      { name: 'Items only', hierarchy: 2, action: { discount: { type: 'PERCENT', percent_off: 10, effect: 'APPLY_TO_ITEMS' } } },
    ]);
    const reply = await validate({ customer: { source_id: 'ann' }, order: { amount: 5000 } });
    expect(reply.status).toBe(200);
    expect(reply.json.valid).toBe(true);
    expect(names(reply)).toEqual(['First', 'Third']);
    expect(reply.json.promotions[0]).toMatchObject({
      valid: true,
      id: tiers[1]?.id,
      banner: 'One off',
      hierarchy: 1,
      discount: { type: 'AMOUNT', amount_off: 100 },
      discount_amount: 100,
      applied_discount_amount: 100,
      order: { amount: 5000, total_amount: 4900 },
      object: 'promotion_tier',
    });
    expect(reply.json.tracking_id).toMatch(/^track_/);
    const withItems = await validate({ order: { items: [{ product_id: 'prod_a', quantity: 1, price: 5000 }] } });
    expect(names(withItems)).toEqual(['First', 'Items only', 'Third']);
  });

  it('answers valid: false with no promotions when no tier qualifies', async () => {
    const { validate, promotion } = await setup();
    await promotion('Sleeping', [{ name: 'Off', active: false, action: { discount: { type: 'AMOUNT', amount_off: 100 } } }]);
    const reply = await validate({ order: { amount: 1000 } });
    expect(reply.json).toEqual({ valid: false, promotions: [] });
  });

  it('narrows the tiers with filters[promotion_id] and judges the customer alone with audienceRulesOnly', async () => {
    const { validate, promotion } = await setup();
    const tiers = await promotion('Promo', [
      { name: 'A', action: { discount: { type: 'AMOUNT', amount_off: 100 } } },
      { name: 'B', action: { discount: { type: 'AMOUNT', amount_off: 200 } } },
    ]);
    const b = tiers[1]?.id ?? '';
    const only = await validate({ order: { amount: 1000 } }, `filters[promotion_id][conditions][$in][0]=${b}`);
    expect(only.json).toMatchObject({ valid: true });
    expect(names(only)).toEqual(['B']);
    expect(names(await validate({ order: { amount: 1000 } }, `filters[promotion_id][conditions][$not_in][0]=${b}`))).toEqual(['A']);
    const audience = await validate({ customer: { source_id: 'ann' }, order: { amount: 1000 } }, 'audienceRulesOnly=true');
    expect(names(audience)).toEqual(['A', 'B']);
    expect(audience.json.promotions[0]?.order.amount).toBe(0);
    expect((await validate({ order: { id: 'ord_nope' } })).status).toBe(404);
  });
});
