import { DiscountVouchersTypesEnum, VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's vouchers.list against the whole local runtime, with a jobs queue of this file's own. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-vouchers-list');
  const pair = await createProject(testRuntime(), 'sdk vouchers list project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: vouchers.list', () => {
  it("lists the project's vouchers, a campaign's and a holder's, in pages, with created_at bounds", async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK list',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: DiscountVouchersTypesEnum.AMOUNT, amount_off: 100 } },
    });
    for (const code of ['SDK-L1', 'SDK-L2', 'SDK-L3']) {
      await client.campaigns.addVoucher(campaign.id, { code } as never);
      // Distinct creation times, so the order is the order of creation.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await client.distributions.publications.create({ voucher: 'SDK-L2', customer: { source_id: 'sdk-list-ann' } });

    const all = await client.vouchers.list();
    expect(all).toMatchObject({ object: 'list', data_ref: 'vouchers', total: 3 });
    expect(all.vouchers.map((v) => v.code)).toEqual(['SDK-L3', 'SDK-L2', 'SDK-L1']);

    const page2 = await client.vouchers.list({ limit: 2, page: 2, order: 'created_at' });
    expect(page2.vouchers.map((v) => v.code)).toEqual(['SDK-L3']);

    const ofCampaign = await client.vouchers.list({ campaign: 'SDK list' });
    expect(ofCampaign).toMatchObject({ total: 3 });

    const held = await client.vouchers.list({ customer: 'sdk-list-ann' });
    expect(held.vouchers.map((v) => v.code)).toEqual(['SDK-L2']);

    const first = all.vouchers.find((v) => v.code === 'SDK-L1')?.created_at as string;
    const later = await client.vouchers.list({ created_at: { after: first }, order: 'created_at' });
    expect(later.vouchers.map((v) => v.code)).toEqual(['SDK-L2', 'SDK-L3']);

    await expect(client.vouchers.list({ order: 'code' })).rejects.toMatchObject({ code: 400, key: 'invalid_query_params' });
  });

  it("lists a category's vouchers by its name or id, and moves a voucher there when vouchers.update changes its category", async () => {
    const category = await client.categories.create({ name: 'SDK list category', hierarchy: 1 });
    for (const code of ['SDK-CAT-1', 'SDK-CAT-2']) {
      await client.vouchers.create({
        code,
        type: 'DISCOUNT_VOUCHER',
        discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 5 },
        category: 'SDK list category',
      } as never);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await client.vouchers.create({
      code: 'SDK-CAT-3',
      type: 'DISCOUNT_VOUCHER',
      discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 5 },
    } as never);

    const byName = await client.vouchers.list({ category: 'SDK list category' });
    expect(byName.vouchers.map((v) => v.code)).toEqual(['SDK-CAT-2', 'SDK-CAT-1']);
    expect(byName.vouchers.every((v) => v.category === 'SDK list category')).toBe(true);

    await client.vouchers.update({ code: 'SDK-CAT-3', category: 'SDK list category' });
    const byId = await client.vouchers.list({ category: category.id, order: 'created_at' });
    expect(byId.vouchers.map((v) => v.code)).toEqual(['SDK-CAT-1', 'SDK-CAT-2', 'SDK-CAT-3']);

    await expect(client.vouchers.list({ category: category.id, customer: 'sdk-list-ann' })).rejects.toMatchObject({ code: 400, key: 'invalid_query_params' });
  });

  it('lists by last change with order updated_at and updated_at bounds, an update moving its voucher to the head', async () => {
    for (const code of ['SDK-CH-1', 'SDK-CH-2', 'SDK-CH-3']) {
      await client.vouchers.create({ code, type: 'DISCOUNT_VOUCHER', discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 5 } } as never);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const before = await client.vouchers.list({ order: '-updated_at', limit: 3 });
    expect(before.vouchers.map((v) => v.code)).toEqual(['SDK-CH-3', 'SDK-CH-2', 'SDK-CH-1']);
    const mark = before.vouchers[0]?.created_at as string;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await client.vouchers.update({ code: 'SDK-CH-1', metadata: { moved: true } });

    const after = await client.vouchers.list({ order: '-updated_at', limit: 3 });
    expect(after.vouchers.map((v) => v.code)).toEqual(['SDK-CH-1', 'SDK-CH-3', 'SDK-CH-2']);
    const changed = await client.vouchers.list({ updated_at: { after: mark }, order: 'updated_at' });
    expect(changed.vouchers.map((v) => v.code)).toEqual(['SDK-CH-1']);
    expect(changed.vouchers[0]?.updated_at).toBe(updated.updated_at);

    await expect(client.vouchers.list({ campaign: 'SDK list', order: 'updated_at' })).rejects.toMatchObject({ code: 400, key: 'invalid_query_params' });
  });

  it('lists vouchers with filters[…] (junction, code, categories) and pages categories with limit', async () => {
    const first = await client.categories.create({ name: 'SDK filter first', hierarchy: 8 });
    await client.categories.create({ name: 'SDK filter second', hierarchy: 7 });
    for (const code of ['SDK-FL-1', 'SDK-FL-2', 'SDK-FL-3']) {
      await client.vouchers.create({
        code,
        type: 'DISCOUNT_VOUCHER',
        discount: { type: DiscountVouchersTypesEnum.AMOUNT, amount_off: 100 },
        category: code === 'SDK-FL-3' ? 'SDK filter second' : 'SDK filter first',
      } as never);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const codes = async (filters: Record<string, unknown>) => (await client.vouchers.list({ filters } as never)).vouchers.map((v) => v.code);
    expect(await codes({ junction: 'and', code: { conditions: { $in: ['SDK-FL-1', 'SDK-FL-3'] } } })).toEqual(['SDK-FL-3', 'SDK-FL-1']);
    expect(await codes({ junction: 'AND', categories: { conditions: { $in: ['SDK filter first'] } } })).toEqual(['SDK-FL-2', 'SDK-FL-1']);
    expect(await codes({ category_ids: { conditions: { $is: first.id } }, code: { conditions: { $is: 'SDK-FL-2' } } })).toEqual(['SDK-FL-2']);
    await expect(client.vouchers.list({ filters: { categories: { conditions: { $not_in: ['SDK filter first'] } } } })).rejects.toMatchObject({
      code: 400,
      key: 'invalid_query_params',
    });

    // categories.list takes `limit` (and this service `page`, sent through the same request client).
    const top = await client.categories.list({ limit: 1 });
    expect(top.data.map((c) => c.name)).toEqual(['SDK filter first']);
    expect(top.total).toBeGreaterThanOrEqual(2);
    const next = await client.categories.list({ limit: 1, page: 2 } as never);
    expect(next.data.map((c) => c.name)).toEqual(['SDK filter second']);
  });
});
