import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import { earningRuleReplySchema } from '../../../lib/earning-rules/earning-rule.reply.js';
import { campaignApi, newCampaign } from '../../support/api.js';
import { apiClient } from '../../support/api-client.js';
import { loyaltyApi } from '../../support/loyalty-api.js';
import { keyPairHeaders, newProject, testRuntime } from '../../support/runtime.js';

/*
 * Issue 35, collections in earning rules: `order.paid` rules whose order-item ratios name a product
 * collection count the order's lines in it (a line by its product, or its SKU), as product and SKU
 * targets do; membership as the collection has it when the order is paid.
 */

type Json = Record<string, unknown>;

describe('order.paid earning rules on a product collection', () => {
  it('earn by the amount, quantity and subtotal of the collection’s lines only; the estimate agrees', async () => {
    const runtime = testRuntime({ clock: new ManualClock(Date.UTC(2026, 1, 10, 12, 0, 0)) });
    const pair = await newProject(runtime);
    const loyalty = loyaltyApi(runtime, pair);
    const api = apiClient({ runtime }, keyPairHeaders(pair));
    const ok = async (id: string, opts: Parameters<typeof api.call>[1]) => {
      const reply = await api.call(id, opts);
      if (reply.status >= 300) throw new Error(`${id}: ${reply.status} ${JSON.stringify(reply.json)}`);
      return reply.json as Json & { id: string };
    };
    await newCampaign(campaignApi(runtime, pair), {
      name: 'Club',
      campaign_type: 'LOYALTY_PROGRAM',
      type: 'AUTO_UPDATE',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    });
    const shoe = await ok('create-product', { json: { name: 'Shoe', price: 1000, metadata: { brand: 'acme' } } });
    const sock = await ok('create-product', { json: { name: 'Sock', price: 200, metadata: { brand: 'acme' } } });
    const hat = await ok('create-product', { json: { name: 'Hat', price: 400, metadata: { brand: 'other' } } });
    const redSock = await ok('create-sku', { params: { productId: sock.id }, json: { sku: 'Red sock', price: 250 } });
    const acme = await ok('create-product-collection', {
      json: { type: 'AUTO_UPDATE', name: 'Acme', filter: { junction: 'and', 'metadata.brand': { conditions: { $is: ['acme'] } } } },
    });
    const byAmount = {
      event: 'order.paid',
      loyalty: {
        type: 'PROPORTIONAL',
        calculation_type: 'ORDER_ITEMS_AMOUNT',
        order_items: { amount: { every: 100, points: 1, applicable_to: [{ object: 'products_collection', id: acme.id }] } },
      },
    };
    const byQuantity = {
      event: 'order.paid',
      loyalty: {
        type: 'PROPORTIONAL',
        calculation_type: 'ORDER_ITEMS_QUANTITY',
        order_items: { quantity: { every: 1, points: 10, object: 'products_collection', id: acme.id } },
      },
    };
    const bySubtotal = {
      event: 'order.paid',
      loyalty: {
        type: 'PROPORTIONAL',
        calculation_type: 'ORDER_ITEMS_SUBTOTAL_AMOUNT',
        order_items: {
          subtotal_amount: {
            every: 100,
            points: 1,
            applicable_to: [
              { object: 'products_collection', id: acme.id },
              { object: 'product', id: hat.id },
            ],
          },
        },
      },
    };
    const created = await loyalty.createEarningRules('Club', [byAmount, byQuantity, bySubtotal]);
    expect(created.status).toBe(200);
    const rules = (created.json as unknown as unknown[]).map((r) => earningRuleReplySchema.parse(r));
    expect(rules.map((r) => r.loyalty)).toEqual([byAmount.loyalty, byQuantity.loyalty, bySubtotal.loyalty]);

    const member = (await ok('add-member', { params: { campaignId: 'Club' }, json: { customer: { source_id: 'ann' } } })) as unknown as { code: string };
    const items = [
      { product_id: shoe.id, quantity: 2 },
      { sku_id: redSock.id, quantity: 1 },
      { product_id: hat.id, quantity: 1 },
      { product_id: 'prod_not_in_catalog', quantity: 5, price: 100 },
    ];
    // Acme's lines: 2000 + 250 (22 points by amount), 3 items (30 by quantity); with the hat, 2650 (26 by subtotal).
    const estimate = await api.call('estimate-points', { params: { campaignId: 'Club' }, json: { customer: { source_id: 'ann' }, order: { items } } });
    expect(estimate.status).toBe(200);
    expect((estimate.json as { points_estimation: number }).points_estimation).toBe(22 + 30 + 26);
    await ok('create-order', { json: { status: 'PAID', customer: { source_id: 'ann' }, items } });
    const card = (await ok('get-member', { params: { memberId: member.code } })) as unknown as { loyalty_card: { points: number } };
    expect(card.loyalty_card.points).toBe(22 + 30 + 26);
  });
});
