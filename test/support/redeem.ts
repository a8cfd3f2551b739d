import { expect } from 'vitest';
import { voucher as voucherEntity } from '../../lib/db/entities.js';
import { calculate } from '../../lib/redemptions/calculator.js';
import type { Redeemable } from '../../lib/redemptions/discount.js';
import type { PlannedRedeemable, RedemptionPlan } from '../../lib/redemptions/redemption-plan.js';
import type { Runtime } from '../../lib/runtime.js';
import type { Voucher } from '../../lib/vouchers/voucher.js';
import type { ApiClient } from './api-client.js';

/*
 * Redemptions by hand, until POST /v1/redemptions exists: a voucher made through the API and a
 * RedemptionPlan built as validation would build it (the calculator's figures on a one-line order),
 * for lib/redemptions/redemption.repo.ts `commitRedemption`.
 */

/** Makes voucher `code` through create-voucher (`body` adds to a 100-off discount voucher) and returns it as stored. */
export async function makeVoucher(runtime: Runtime, api: ApiClient, projectId: string, code: string, body: Record<string, unknown> = {}): Promise<Voucher> {
  const made = await api.call('create-voucher', {
    params: { code },
    json: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 }, ...body },
  });
  expect(made.status, JSON.stringify(made.json)).toBe(200);
  return storedVoucher(runtime, projectId, code);
}

/** A voucher as stored now. */
export async function storedVoucher(runtime: Runtime, projectId: string, code: string): Promise<Voucher> {
  const v = await voucherEntity.get(runtime, voucherEntity.key(projectId, code));
  if (!v) throw new Error(`no voucher ${code}`);
  return v;
}

export interface PlanOptions {
  /** The order's amount (one line); default 1,000. */
  amount?: number;
  /** Gift credits each gift card takes (default: as much as the order allows). */
  credits?: number;
  sessionKey?: string | null;
  customer?: { id: string; sourceId: string | null } | null;
  /** A stored order to redeem against (its revision), instead of a new one. */
  order?: { id: string; sourceId: string | null; revision: number };
  orderSourceId?: string | null;
}

/** A plan redeeming `vouchers` (as read) in that order against a new one-line order, as validation would plan it. */
export function planFor(runtime: Runtime, projectId: string, vouchers: Voucher[], options: PlanOptions = {}): RedemptionPlan {
  const amount = options.amount ?? 1_000;
  const redeemables: Redeemable[] = vouchers.map((v) =>
    v.gift
      ? { kind: 'gift', id: v.code, balance: v.gift.balance, ...(options.credits !== undefined ? { credits: options.credits } : {}) }
      : v.discount
        ? { kind: 'discount', id: v.code, discount: v.discount }
        : { kind: 'none', id: v.code },
  );
  const calc = calculate({ amount, items: [{ productId: 'prod_1', quantity: 1, price: amount, amount }] }, redeemables);
  const planned: PlannedRedeemable[] = vouchers.map((v, i) => {
    const step = calc.steps[i] as (typeof calc.steps)[number];
    return {
      redemptionId: runtime.ids.id('r'),
      object: 'voucher',
      id: v.code,
      voucher: v,
      campaignId: v.campaignId,
      campaignName: v.campaignName,
      quantityLimit: v.redemptionQuantity,
      giftCredits: v.gift ? step.credits : 0,
      loyaltyPoints: 0,
      step,
      sessionKey: options.sessionKey ?? null,
    };
  });
  return {
    projectId,
    parentRedemptionId: runtime.ids.id('r'),
    date: runtime.clock.now().toISOString(),
    customer: options.customer ?? null,
    trackingId: null,
    metadata: {},
    order: {
      id: options.order?.id ?? runtime.ids.id('ord'),
      sourceId: options.order ? options.order.sourceId : (options.orderSourceId ?? null),
      expectedRevision: options.order?.revision ?? null,
      status: 'PAID',
      metadata: {},
      items: [
        {
          sourceId: null,
          productId: 'prod_1',
          skuId: null,
          relatedObject: 'product',
          quantity: 1,
          price: amount,
          amount,
          product: null,
          sku: null,
          metadata: null,
        },
      ],
      calculation: calc.order,
      customerId: options.customer?.id ?? null,
      referrerId: null,
    },
    redeemables: planned,
  };
}
