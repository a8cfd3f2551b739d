import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The promotion stack calls of the official SDK (`promotions.stack.*`, as the SDK names it) and a stack validated and redeemed, against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-promotion-stacks');
  const pair = await createProject(testRuntime(), 'sdk promotion stacks project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: promotion stacks', () => {
  it('creates, lists, gets, updates and deletes stacks through promotions.stacks, and validates and redeems one', async () => {
    const promo = (await client.campaigns.create({
      name: 'SDK stacked promotion',
      campaign_type: 'PROMOTION',
      promotion: {
        tiers: [
          { name: 'Amount', action: { discount: { type: 'AMOUNT', amount_off: 500 } } },
          { name: 'Percent', action: { discount: { type: 'PERCENT', percent_off: 10 } } },
        ],
      },
    } as never)) as unknown as { id: string; promotion: { tiers: { id: string }[] } };
    const [amount, percent] = promo.promotion.tiers.map((t) => t.id) as [string, string];

    const stack = await client.promotions.stack.createInCampaign(promo.id, { name: 'Both', tiers: { ids: [amount, percent], hierarchy_mode: 'MANUAL' } });
    expect(stack).toMatchObject({ name: 'Both', campaign_id: promo.id, object: 'promotion_stack', tiers: { ids: [amount, percent] } });

    expect((await client.promotions.stack.listInCampaign(promo.id)).data.map((s) => s.id)).toEqual([stack.id]);
    const all = await client.promotions.stack.list({ order: '-created_at', limit: 10, created_at: { before: new Date(Date.now() + 60_000).toISOString() } });
    expect(all.data.map((s) => s.id)).toEqual([stack.id]);
    expect(await client.promotions.stack.get(promo.id, stack.id)).toMatchObject({ id: stack.id, name: 'Both' });
    const updated = await client.promotions.stack.update(promo.id, stack.id, {
      name: 'Both, renamed',
      tiers: { ids: [amount, percent], hierarchy_mode: 'MANUAL' },
    });
    expect(updated).toMatchObject({ id: stack.id, name: 'Both, renamed' });

    const validation = (await client.validations.validateStackable({
      redeemables: [{ object: 'promotion_stack', id: stack.id }],
      order: { amount: 10_000 },
    } as never)) as unknown as { valid: boolean; redeemables: { id: string; status: string }[]; order: { total_discount_amount: number } };
    expect(validation.valid).toBe(true);
    expect(validation.redeemables.map((r) => [r.id, r.status])).toEqual([
      [amount, 'APPLICABLE'],
      [percent, 'APPLICABLE'],
    ]);
    // 500 off, then 10 % of the 9,500 left.
    expect(validation.order.total_discount_amount).toBe(1450);
    const redeemed = (await client.redemptions.redeemStackable({
      redeemables: [{ object: 'promotion_stack', id: stack.id }],
      order: { amount: 10_000 },
      customer: { source_id: 'sdk-stacker' },
    } as never)) as unknown as { redemptions: unknown[]; order: { total_discount_amount: number } };
    expect(redeemed.redemptions).toHaveLength(2);
    expect(redeemed.order.total_discount_amount).toBe(1450);

    await client.promotions.stack.delete(promo.id, stack.id);
    await expect(client.promotions.stack.get(promo.id, stack.id)).rejects.toMatchObject({ code: 404, key: 'not_found' });
  });

  it('gets 400 deprecated_endpoint from the deprecated vouchers.qualifications.examine and campaigns.qualifications.examine', async () => {
    const body = { customer: { source_id: 'sdk-examiner' }, order: { amount: 1000 } };
    await expect(client.vouchers.qualifications.examine(body as never)).rejects.toMatchObject({ code: 400, key: 'deprecated_endpoint' });
    await expect(client.campaigns.qualifications.examine(body as never)).rejects.toMatchObject({ code: 400, key: 'deprecated_endpoint' });
  });
});
