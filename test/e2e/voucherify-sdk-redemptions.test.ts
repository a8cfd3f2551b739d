import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { commitRedemption } from '../../lib/redemptions/redemption.repo.js';
import type { Runtime } from '../../lib/runtime.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { planFor, storedVoucher } from '../support/redeem.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;
let store: Runtime;
let projectId: string;

/** The official SDK's redemption reads and rollbacks against the whole local runtime, on redemptions committed by the store. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-redemptions');
  store = testRuntime();
  const pair = await createProject(store, 'sdk redemptions project');
  projectId = pair.project_id;
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

/** A voucher made through the SDK, redeemed once by the store (as POST /v1/redemptions will). */
async function redeemOnce(code: string, body: Record<string, unknown>) {
  await client.vouchers.create({ code, type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, ...body } as never);
  const plan = planFor(store, projectId, [await storedVoucher(store, projectId, code)]);
  await commitRedemption(store, plan);
  return plan;
}

describe('the official Voucherify SDK: redemptions', () => {
  it('gets, lists and lists per voucher, then rolls back one redemption and a stacked one', async () => {
    const one = await redeemOnce('SDK-RB-ONE', { redemption: { quantity: 3 } });
    const stacked = await redeemOnce('SDK-RB-STACK', {});
    const childId = one.redeemables[0]?.redemptionId as string;

    const child = await client.redemptions.get(childId);
    expect(child).toMatchObject({ id: childId, object: 'redemption', status: 'SUCCEEDED', amount: 100, voucher: { code: 'SDK-RB-ONE' } });

    const listed = await client.redemptions.list({ limit: 10 } as never);
    expect(listed).toMatchObject({ object: 'list', data_ref: 'redemptions' });
    expect((listed as unknown as { redemptions: { id: string }[] }).redemptions.map((r) => r.id)).toEqual(
      expect.arrayContaining([childId, one.parentRedemptionId, stacked.parentRedemptionId]),
    );

    const forVoucher = await client.redemptions.getForVoucher('SDK-RB-ONE');
    expect(forVoucher).toMatchObject({ quantity: 3, redeemed_quantity: 1, total: 1 });

    const rolled = await client.redemptions.rollback(childId, { reason: 'sdk refund' });
    expect(rolled).toMatchObject({ object: 'redemption_rollback', redemption: childId, reason: 'sdk refund', status: 'SUCCEEDED' });
    expect(await client.redemptions.getForVoucher('SDK-RB-ONE')).toMatchObject({ redeemed_quantity: 0, total: 2 });

    const stackedRollback = await client.redemptions.rollbackStackable(stacked.parentRedemptionId, {}, { reason: 'sdk return' });
    expect(stackedRollback).toMatchObject({
      parent_rollback: { redemption: stacked.parentRedemptionId, reason: 'sdk return' },
      rollbacks: [{ redemption: stacked.redeemables[0]?.redemptionId }],
      order: { total_amount: 900 },
    });
    await expect(client.redemptions.rollbackStackable(stacked.parentRedemptionId)).rejects.toMatchObject({ key: 'already_rolled_back' });
  });

  it('lists redemptions with filters[…] as the SDK serialises them (bracketed, $in as [0], [1])', async () => {
    const a = await redeemOnce('SDK-F-A', {});
    const b = await redeemOnce('SDK-F-B', {});
    const childA = a.redeemables[0]?.redemptionId as string;
    const childB = b.redeemables[0]?.redemptionId as string;
    const listed = async (params: Record<string, unknown>) =>
      ((await client.redemptions.list({ limit: 100, ...params } as never)) as unknown as { redemptions: { id: string }[] }).redemptions.map((r) => r.id);

    expect(await listed({ filters: { voucher_code: { conditions: { $is: 'SDK-F-A' } } } })).toEqual([childA]);
    const notA = await listed({ filters: { junction: 'and', voucher_code: { conditions: { $is_not: 'SDK-F-A' } } } });
    expect(notA).toContain(childB);
    expect(notA).not.toContain(childA);
    // Both may be created in one millisecond, so their order is not asserted.
    const both = await listed({
      filters: { junction: 'and', voucher_code: { conditions: { $in: ['SDK-F-A', 'SDK-F-B'] } }, object: { conditions: { $is: 'redemption' } } },
    });
    expect([...both].sort()).toEqual([childA, childB].sort());
    await expect(client.redemptions.list({ filters: { voucher: { conditions: { $is: 'SDK-F-A' } } } } as never)).rejects.toMatchObject({
      code: 400,
      key: 'invalid_query_params',
    });
  });

  it('validates and redeems two codes with validateStackable and redeemStackable, with the same figures, then rolls the redemption back', async () => {
    await client.vouchers.create({
      code: 'SDK-STACK-A',
      type: 'DISCOUNT_VOUCHER',
      discount: { type: 'AMOUNT', amount_off: 500 },
      redemption: { quantity: 1 },
    } as never);
    await client.vouchers.create({ code: 'SDK-STACK-B', type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } } as never);
    const request = {
      redeemables: [
        { object: 'voucher', id: 'SDK-STACK-A' },
        { object: 'voucher', id: 'SDK-STACK-B' },
      ],
      order: { source_id: 'sdk-order-1', items: [{ product_id: 'prod_1', quantity: 2, price: 2000 }] },
      customer: { source_id: 'sdk-shopper' },
    };
    const validation = await client.validations.validateStackable(request as never);
    expect(validation).toMatchObject({ valid: true, order: { amount: 4000, total_discount_amount: 850, total_amount: 3150 } });

    const redemption = await client.redemptions.redeemStackable(request as never);
    expect(redemption).toMatchObject({
      parent_redemption: { object: 'redemption', result: 'SUCCESS' },
      order: { source_id: 'sdk-order-1', amount: 4000, total_discount_amount: 850, total_amount: 3150 },
    });
    expect(redemption.redemptions.map((r) => (r as { voucher?: { code: string } }).voucher?.code)).toEqual(['SDK-STACK-A', 'SDK-STACK-B']);
    expect(await client.redemptions.getForVoucher('SDK-STACK-A')).toMatchObject({ quantity: 1, redeemed_quantity: 1 });
    // The one use of SDK-STACK-A is gone: the same cart again is refused with that code's key.
    await expect(client.redemptions.redeemStackable(request as never)).rejects.toMatchObject({ key: 'quantity_exceeded' });

    const rollback = await client.redemptions.rollbackStackable(redemption.parent_redemption.id);
    expect(rollback.rollbacks).toHaveLength(2);
    expect(await client.redemptions.getForVoucher('SDK-STACK-A')).toMatchObject({ redeemed_quantity: 0 });
  });
});
