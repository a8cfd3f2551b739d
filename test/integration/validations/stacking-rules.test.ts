import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

const at = Date.UTC(2026, 6, 6, 13, 0, 0);

async function setup() {
  const runtime = testRuntime({ clock: new ManualClock(at) });
  const api = apiClient({ runtime }, keyPairHeaders(await newProject(runtime)));
  return { api };
}

describe('GET / PUT /v1/stacking-rules', () => {
  it('answers the reference’s defaults until set, then the members set over them', async () => {
    const { api } = await setup();
    const before = await api.call('get-project-stacking-rules', {});
    expect(before.status).toBe(200);
    expect(before.json).toMatchObject({
      redeemables_limit: 30,
      applicable_redeemables_limit: 5,
      applicable_redeemables_per_category_limit: 1,
      applicable_exclusive_redeemables_limit: 1,
      exclusive_categories: [],
      joint_categories: [],
      redeemables_application_mode: 'ALL',
      redeemables_sorting_rule: 'REQUESTED_ORDER',
      object: 'stacking_rules',
      updated_at: null,
    });
    const put = await api.call('update-project-stacking-rules', { json: { redeemables_application_mode: 'PARTIAL', exclusive_categories: ['cat_1'] } });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({
      redeemables_application_mode: 'PARTIAL',
      exclusive_categories: ['cat_1'],
      applicable_redeemables_limit: 5,
      updated_at: new Date(at).toISOString(),
    });
    const second = await api.call('update-project-stacking-rules', { json: { applicable_redeemables_limit: 3 } });
    expect(second.json).toMatchObject({ redeemables_application_mode: 'PARTIAL', exclusive_categories: ['cat_1'], applicable_redeemables_limit: 3 });
    expect((await api.call('get-project-stacking-rules', {})).json).toEqual(second.json);
  });

  it('refuses members out of range or inconsistent with each other, and an empty body', async () => {
    const { api } = await setup();
    expect((await api.call('update-project-stacking-rules', { json: { redeemables_limit: 31 } })).status).toBe(400);
    expect((await api.call('update-project-stacking-rules', { json: { redeemables_limit: 3 } })).status).toBe(400);
    expect((await api.call('update-project-stacking-rules', { json: {} })).status).toBe(400);
    expect(
      (await api.call('update-project-stacking-rules', { json: { no_effect_skip_categories: ['a'], no_effect_redeem_anyway_categories: ['a'] } })).status,
    ).toBe(400);
  });

  it('is what a validation follows: PARTIAL set through the route lets the valid codes apply beside an unknown one', async () => {
    const { api } = await setup();
    await api.call('create-voucher', { params: { code: 'OK' }, json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } });
    const redeemables = [
      { object: 'voucher', id: 'NOPE' },
      { object: 'voucher', id: 'OK' },
    ];
    const all = (await api.call('validate-stacked-discounts', { json: { redeemables, order: { amount: 1000 } } })).json as {
      valid: boolean;
      redeemables: { status: string }[];
      stacking_rules: Record<string, unknown>;
    };
    expect(all.valid).toBe(false);
    expect(all.redeemables[1]?.status).toBe('SKIPPED');
    await api.call('update-project-stacking-rules', { json: { redeemables_application_mode: 'PARTIAL' } });
    const partial = (await api.call('validate-stacked-discounts', { json: { redeemables, order: { amount: 1000 } } })).json as {
      valid: boolean;
      redeemables: { status: string }[];
      stacking_rules: Record<string, unknown>;
    };
    expect(partial.valid).toBe(true);
    expect(partial.redeemables[1]?.status).toBe('APPLICABLE');
    expect(partial.stacking_rules.redeemables_application_mode).toBe('PARTIAL');
  });
});
