import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's validation rule calls against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-validation-rules');
  const pair = await createProject(testRuntime(), 'sdk validation rules project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: validation rules', () => {
  it('creates, gets, updates, lists, assigns, lists assignments, unassigns and deletes a rule', async () => {
    const created = await client.validationRules.create({
      name: 'SDK rule',
      error: { message: 'Not for this cart' },
      rules: { 1: { name: 'order.amount', conditions: { $more_than: [1000] } }, logic: '1' },
    } as never);
    expect(created).toMatchObject({ id: expect.stringMatching(/^val_/), name: 'SDK rule', object: 'validation_rules', assignments_count: 0 });
    expect(await client.validationRules.get(created.id)).toEqual(created);

    const updated = await client.validationRules.update({ id: created.id, name: 'SDK rule 2' } as never);
    expect(updated).toMatchObject({ id: created.id, name: 'SDK rule 2', rules: { logic: '1' } });

    const listed = await client.validationRules.list({ limit: 10, page: 1 } as never);
    expect(listed).toMatchObject({ object: 'list', total: 1, data: [{ id: created.id }] });

    const campaign = await client.campaigns.create({
      name: 'SDK rule campaign',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'AUTO_UPDATE',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } },
    } as never);
    const assignment = await client.validationRules.createAssignment(created.id, { related_object_type: 'campaign', related_object_id: campaign.id } as never);
    expect(assignment).toMatchObject({
      id: expect.stringMatching(/^asgm_/),
      rule_id: created.id,
      related_object_id: campaign.id,
      object: 'validation_rules_assignment',
    });

    expect(await client.validationRules.listAssignments(created.id)).toMatchObject({ object: 'list', total: 1, data: [{ id: assignment.id }] });
    expect(await client.validationRules.listRulesAssignments({ related_object_id: campaign.id } as never)).toMatchObject({
      total: 1,
      data: [{ id: assignment.id }],
    });
    expect(((await client.campaigns.get(campaign.id)) as { validation_rules_assignments: unknown }).validation_rules_assignments).toMatchObject({
      total: 1,
      data: [{ id: assignment.id, rule_id: created.id }],
    });

    await expect(client.validationRules.delete(created.id)).rejects.toMatchObject({ code: 400, key: 'resource_in_use' });
    await client.validationRules.deleteAssignment(created.id, assignment.id);
    expect(await client.validationRules.listAssignments(created.id)).toMatchObject({ total: 0, data: [] });
    await client.validationRules.delete(created.id);
    await expect(client.validationRules.get(created.id)).rejects.toMatchObject({ code: 404, key: 'not_found' });
  });

  it('refuses a condition it cannot evaluate with invalid_validation_rules', async () => {
    await expect(
      client.validationRules.create({ name: 'unsupported', rules: { 1: { name: 'redemption.api_key', conditions: { $is: ['k'] } }, logic: '1' } } as never),
    ).rejects.toMatchObject({ code: 400, key: 'invalid_validation_rules' });
  });

  it('a validation and a redemption that fail a rule: order_rules_violated with the rule’s message, then valid once the cart meets it', async () => {
    const rule = await client.validationRules.create({
      name: 'Minimum cart',
      rules: { 1: { name: 'order.amount', conditions: { $more_than_or_equal: [5000] }, error: { message: 'Spend 50 or more' } } },
    } as never);
    const voucher = await client.vouchers.create({ code: 'SDK-RULED', type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 500 } } as never);
    await client.validationRules.createAssignment(rule.id, { related_object_type: 'voucher', related_object_id: voucher.id } as never);

    const small = { redeemables: [{ object: 'voucher', id: 'SDK-RULED' }], order: { amount: 2000 } };
    const refused = await client.validations.validateStackable(small as never);
    expect(refused.valid).toBe(false);
    expect(refused.redeemables?.[0]).toMatchObject({
      status: 'INAPPLICABLE',
      result: { error: { key: 'order_rules_violated', error: { message: 'Spend 50 or more' } } },
    });
    await expect(client.redemptions.redeemStackable(small as never)).rejects.toMatchObject({ key: 'order_rules_violated' });

    const big = { redeemables: [{ object: 'voucher', id: 'SDK-RULED' }], order: { amount: 6000 } };
    expect((await client.validations.validateStackable(big as never)).valid).toBe(true);
    const redeemed = await client.redemptions.redeemStackable(big as never);
    expect(redeemed.redemptions?.[0]).toMatchObject({ result: 'SUCCESS', voucher: { code: 'SDK-RULED' } });
  });
});
