import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;

async function setup() {
  const runtime = testRuntime();
  const management = apiClient({ runtime }, managementHeaders(await newManagementKey(runtime)));
  const project = await newProject(runtime, 'stacking rules');
  const api = apiClient({ runtime }, keyPairHeaders(project));
  return { runtime, management, api, projectId: project.project_id };
}

const defaults = {
  redeemables_limit: 30,
  applicable_redeemables_limit: 5,
  applicable_redeemables_per_category_limit: 1,
  applicable_redeemables_category_limits: {},
  applicable_exclusive_redeemables_limit: 1,
  applicable_exclusive_redeemables_per_category_limit: 1,
  exclusive_categories: [],
  joint_categories: [],
  redeemables_application_mode: 'ALL',
  redeemables_sorting_rule: 'REQUESTED_ORDER',
  redeemables_products_application_mode: 'STACK',
  redeemables_no_effect_rule: 'REDEEM_ANYWAY',
  no_effect_skip_categories: [],
  no_effect_redeem_anyway_categories: [],
  redeemables_rollback_order_mode: 'WITH_ORDER',
  discount_calculation_mode: 'DISCOUNTED_AMOUNT',
  initial_amount_mode_categories: [],
  discounted_amount_mode_categories: [],
};

describe('Stacking rules of the Management API (/management/v1/projects/{projectId}/stacking-rules)', () => {
  it('lists the defaults (no id), creates, reads, changes and deletes the one set, back to the defaults', async () => {
    const { management, api, projectId } = await setup();
    const list = await management.call('list-stacking-rules', { params: { projectId } });
    expect(list.status, JSON.stringify(list.json)).toBe(200);
    expect(list.json).toEqual({ object: 'list', data_ref: 'data', data: [defaults], total: 1 });

    const created = await management.call('create-stacking-rules', {
      params: { projectId },
      json: { applicable_redeemables_limit: 3, joint_categories: ['cat_j'] },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json).toEqual({
      ...defaults,
      applicable_redeemables_limit: 3,
      joint_categories: ['cat_j'],
      id: expect.stringMatching(/^stkr_/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const stackingRulesId = created.json.id as string;
    const params = { projectId, stackingRulesId };
    expect((await management.call('get-stacking-rules', { params })).json).toEqual(created.json);
    expect((await management.call('list-stacking-rules', { params: { projectId } })).json).toMatchObject({ data: [created.json], total: 1 });

    const changed = await management.call('update-stacking-rules', { params, json: { redeemables_application_mode: 'PARTIAL', joint_categories: ['cat_k'] } });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect(changed.json).toMatchObject({
      id: stackingRulesId,
      applicable_redeemables_limit: 3,
      redeemables_application_mode: 'PARTIAL',
      joint_categories: ['cat_k'],
    });
    expect((changed.json as Json).created_at).toBe(created.json.created_at);
    expect((await management.call('get-stacking-rules', { params })).json).toEqual(changed.json);

    expect((await management.call('delete-stacking-rules', { params })).status).toBe(204);
    const gone = await management.call('get-stacking-rules', { params });
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ key: 'not_found', resource_type: 'stacking_rules', resource_id: stackingRulesId });
    expect((await management.call('update-stacking-rules', { params, json: { redeemables_limit: 10 } })).status).toBe(404);
    expect((await management.call('delete-stacking-rules', { params })).status).toBe(404);
    expect((await management.call('list-stacking-rules', { params: { projectId } })).json).toMatchObject({ data: [defaults], total: 1 });
    expect((await api.call('get-project-stacking-rules', {})).json).toMatchObject({
      redeemables_application_mode: 'ALL',
      applicable_redeemables_limit: 5,
      updated_at: null,
    });
    // Deleted, the project may set rules again, under a new id.
    const again = await management.call('create-stacking-rules', { params: { projectId }, json: {} });
    expect(again.status).toBe(200);
    expect(again.json.id).not.toBe(stackingRulesId);
  });

  it("refuses a second set with the reference's 409 stacking_rules_exist, also after PUT /v1/stacking-rules, once among concurrent creates", async () => {
    const { management, api, projectId } = await setup();
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) => management.call('create-stacking-rules', { params: { projectId }, json: { redeemables_limit: 10 + i } })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const winner = replies.find((r) => r.status === 200)?.json as Json;
    expect(replies.find((r) => r.status === 409)?.json).toMatchObject({
      code: 409,
      key: 'stacking_rules_exist',
      message: 'Stacking rules exist',
      resource_id: winner.id,
    });
    expect((await management.call('get-stacking-rules', { params: { projectId, stackingRulesId: winner.id as string } })).json).toEqual(winner);

    const other = await setup();
    expect((await other.api.call('update-project-stacking-rules', { json: { redeemables_limit: 12 } })).status).toBe(200);
    const listed = (await other.management.call('list-stacking-rules', { params: { projectId: other.projectId } })).json as { data: Json[] };
    expect(listed.data[0]).toMatchObject({ id: expect.stringMatching(/^stkr_/), redeemables_limit: 12 });
    const refused = await other.management.call('create-stacking-rules', { params: { projectId: other.projectId }, json: {} });
    expect(refused.status).toBe(409);
    expect(refused.json.resource_id).toBe(listed.data[0]?.id);
    void api;
  });

  it('is the store validations read: a management update changes what POST /v1/validations applies and what GET /v1/stacking-rules shows', async () => {
    const { management, api, projectId } = await setup();
    await api.call('create-voucher', { params: { code: 'OK' }, json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } } });
    const redeemables = [
      { object: 'voucher', id: 'NOPE' },
      { object: 'voucher', id: 'OK' },
    ];
    const validate = async () =>
      (await api.call('validate-stacked-discounts', { json: { redeemables, order: { amount: 1000 } } })).json as {
        valid: boolean;
        redeemables: { status: string }[];
        stacking_rules: Json;
      };
    const all = await validate();
    expect(all.valid).toBe(false);
    expect(all.redeemables[1]?.status).toBe('SKIPPED');

    const created = await management.call('create-stacking-rules', { params: { projectId }, json: { applicable_redeemables_limit: 4 } });
    const stackingRulesId = created.json.id as string;
    const changed = await management.call('update-stacking-rules', {
      params: { projectId, stackingRulesId },
      json: { redeemables_application_mode: 'PARTIAL' },
    });
    expect(changed.status).toBe(200);
    const partial = await validate();
    expect(partial.valid).toBe(true);
    expect(partial.redeemables[1]?.status).toBe('APPLICABLE');
    expect(partial.stacking_rules).toMatchObject({ redeemables_application_mode: 'PARTIAL', applicable_redeemables_limit: 4 });
    expect((await api.call('get-project-stacking-rules', {})).json).toMatchObject({
      redeemables_application_mode: 'PARTIAL',
      applicable_redeemables_limit: 4,
      updated_at: changed.json.updated_at,
    });

    // The /v1 door writes the same set: management reads the change under the same id.
    await api.call('update-project-stacking-rules', { json: { redeemables_limit: 20 } });
    expect((await management.call('get-stacking-rules', { params: { projectId, stackingRulesId } })).json).toMatchObject({
      redeemables_limit: 20,
      redeemables_application_mode: 'PARTIAL',
    });

    expect((await management.call('delete-stacking-rules', { params: { projectId, stackingRulesId } })).status).toBe(204);
    expect((await validate()).redeemables[1]?.status).toBe('SKIPPED');
  });

  it('refuses bad members and what the calculator does not do, writing nothing', async () => {
    const { management, projectId } = await setup();
    const create = (json: Json) => management.call('create-stacking-rules', { params: { projectId }, json });
    for (const json of [
      { redeemables_limit: 31 },
      { redeemables_limit: 3 },
      { no_effect_skip_categories: ['a'], no_effect_redeem_anyway_categories: ['a'] },
      { discount_calculation_mode: 'INITIAL_AMOUNT' },
      { initial_amount_mode_categories: ['cat_1'] },
    ]) {
      const r = await create(json);
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.json.key).toBe('invalid_payload');
    }
    expect((await management.call('list-stacking-rules', { params: { projectId } })).json).toMatchObject({ data: [{ redeemables_limit: 30 }] });
    expect(
      (await create({ discount_calculation_mode: 'DISCOUNTED_AMOUNT', initial_amount_mode_categories: [], discounted_amount_mode_categories: ['c'] })).status,
    ).toBe(200);
  });

  it('answers 404 (project) for an unknown or deleted project', async () => {
    const { management } = await setup();
    const projectId = 'proj_unknown';
    for (const r of [
      await management.call('list-stacking-rules', { params: { projectId } }),
      await management.call('create-stacking-rules', { params: { projectId }, json: {} }),
      await management.call('get-stacking-rules', { params: { projectId, stackingRulesId: 'stkr_x' } }),
      await management.call('update-stacking-rules', { params: { projectId, stackingRulesId: 'stkr_x' }, json: {} }),
      await management.call('delete-stacking-rules', { params: { projectId, stackingRulesId: 'stkr_x' } }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.json).toMatchObject({ key: 'not_found', resource_type: 'project' });
    }
    const deleted = await newProject(testRuntime(), 'to delete');
    expect((await management.call('delete-project', { params: { projectId: deleted.project_id } })).status).toBe(204);
    expect((await management.call('list-stacking-rules', { params: { projectId: deleted.project_id } })).status).toBe(404);
  });
});
