import { setTimeout as sleep } from 'node:timers/promises';
import { type CustomerObject, DiscountVouchersTypesEnum, VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../infra/local/start-local.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { testRuntime } from '../support/runtime.js';

let local: LocalRuntime;
let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/**
 * The official SDK against the whole local runtime (HTTP server, handlers, the real worker and
 * poller), on the suite's engines but with a jobs queue of this file's own.
 */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk');
  local = runtime.local;
  const pair = await createProject(testRuntime(), 'sdk project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK against the local server', () => {
  it('creates, lists and reads campaigns, adds vouchers one and many, reads and deletes them, and follows the async action', async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK campaign',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'AUTO_UPDATE',
      voucher: {
        type: 'DISCOUNT_VOUCHER',
        discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 15 },
        code_config: { pattern: 'SDK-#####', charset: 'ABCDEFGHJK' },
      },
    });
    expect(campaign).toMatchObject({ name: 'SDK campaign', campaign_type: 'DISCOUNT_COUPONS', vouchers_count: 0, object: 'campaign' });
    expect(campaign.id).toMatch(/^camp_/);

    const listed = await client.campaigns.list({ limit: 10, page: 1 });
    expect(listed).toMatchObject({ object: 'list', data_ref: 'campaigns', total: 1 });
    expect(listed.campaigns.map((c) => c.id)).toEqual([campaign.id]);

    const one = await client.campaigns.addVoucher(campaign.id, { metadata: { source: 'sdk' } });
    expect(one).toMatchObject({ campaign_id: campaign.id, type: 'DISCOUNT_VOUCHER', metadata: { source: 'sdk' } });
    expect((one as { code: string }).code).toMatch(/^SDK-[A-K]{5}$/);
    const code = (one as { code: string }).code;

    const bulk = (await client.campaigns.addVoucher(campaign.id, {}, { vouchers_count: 40 })) as unknown as { async_action_id: string };
    expect(bulk.async_action_id).toMatch(/^aa_/);
    let action = await client.asyncActions.get(bulk.async_action_id);
    for (let i = 0; i < 200 && action.status !== 'DONE' && action.status !== 'FAILED'; i += 1) {
      await sleep(100);
      action = await client.asyncActions.get(bulk.async_action_id);
    }
    expect(action).toMatchObject({ id: bulk.async_action_id, type: 'CAMPAIGN.VOUCHERS_GENERATE', status: 'DONE', progress: 100, object: 'async_action' });
    expect(action.result).toEqual({ message: 'Generated 40 vouchers.', done_count: 40 });
    expect((await client.campaigns.get(campaign.id)).vouchers_count).toBe(41);

    const voucher = await client.vouchers.get(code);
    expect(voucher).toMatchObject({ code, campaign: 'SDK campaign', campaign_id: campaign.id, object: 'voucher' });

    await expect(client.vouchers.delete(code)).resolves.toBeFalsy();
    await expect(client.vouchers.get(code)).rejects.toMatchObject({ code: 404, key: 'not_found', resource_type: 'voucher' });
    expect((await client.campaigns.get(campaign.id)).vouchers_count).toBe(40);
  });

  it('creates, reads, updates, lists, scrolls and deletes customers', async () => {
    // The SDK types a create reply as a customer or an "unconfirmed" one; this server always confirms.
    const created = (await client.customers.create({
      source_id: 'sdk-ann',
      name: 'Ann',
      email: 'ann@example.com',
      address: { city: 'Oslo', country: 'Norway' },
      metadata: { tier: 'gold' },
    })) as CustomerObject;
    expect(created).toMatchObject({ source_id: 'sdk-ann', name: 'Ann', address: { city: 'Oslo', country: 'Norway' }, object: 'customer' });
    expect(created.id).toMatch(/^cust_/);
    // Same source id: the same customer, updated (upsert).
    const again = await client.customers.create({ source_id: 'sdk-ann', phone: '+47 1' });
    expect(again).toMatchObject({ id: created.id, name: 'Ann', phone: '+47 1' });
    // Apart in time: scroll() pages by created_at, so customers of one millisecond would share a cursor.
    for (let i = 0; i < 3; i += 1) {
      await sleep(3);
      await client.customers.create({ source_id: `sdk-${i}`, address: { city: 'Rome' } });
    }

    expect(await client.customers.get(created.id)).toMatchObject({ id: created.id, email: 'ann@example.com' });
    expect(await client.customers.get('sdk-ann')).toMatchObject({ id: created.id });

    const byId = await client.customers.update({ id: created.id, name: 'Ann B' });
    expect(byId).toMatchObject({ id: created.id, name: 'Ann B', updated_at: expect.any(String) });
    // By source id the SDK puts it in the path and keeps it in the body.
    const bySource = await client.customers.update({ source_id: 'sdk-ann', metadata: { tier: 'silver' } });
    expect(bySource).toMatchObject({ id: created.id, name: 'Ann B', metadata: { tier: 'silver' } });

    const page = await client.customers.list({ limit: 2, page: 1 });
    expect(page).toMatchObject({ object: 'list', data_ref: 'customers', total: 4, has_more: true });
    expect(page.customers).toHaveLength(2);
    const rome = await client.customers.list({ city: 'Rome', order: 'created_at' });
    expect(rome.customers.map((c) => c.source_id)).toEqual(['sdk-0', 'sdk-1', 'sdk-2']);
    expect(rome.total).toBe(3);
    const scrolled: string[] = [];
    // scroll() follows has_more with starting_after = the last created_at; its generator type asks for a `next` argument for-await never sends.
    for await (const customer of client.customers.scroll({ limit: 1 }) as AsyncIterable<CustomerObject>) scrolled.push(customer.source_id ?? '');
    expect(scrolled.sort()).toEqual(['sdk-0', 'sdk-1', 'sdk-2', 'sdk-ann']);

    await expect(client.customers.delete(created.id)).resolves.toBeFalsy();
    await expect(client.customers.get(created.id)).rejects.toMatchObject({ code: 404, key: 'not_found', resource_type: 'customer' });
    await expect(client.customers.delete('sdk-ann')).rejects.toMatchObject({ code: 404 });
    expect((await client.customers.list({})).total).toBe(3);
  });

  it('deletes permanently with force', async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK force',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: DiscountVouchersTypesEnum.AMOUNT, amount_off: 100 } },
    });
    const { code } = (await client.campaigns.addVoucher(campaign.id)) as { code: string };
    await client.vouchers.delete(code, { force: true });
    await expect(client.vouchers.get(code)).rejects.toMatchObject({ code: 404 });
  });

  it('creates, lists, reads, renames and deletes categories, and campaigns show the change', async () => {
    const low = await client.categories.create({ name: 'SDK low', hierarchy: 1 });
    expect(low).toMatchObject({ name: 'SDK low', hierarchy: 1, object: 'category' });
    expect(low.id).toMatch(/^cat_/);
    const high = await client.categories.create({ name: 'SDK high', hierarchy: 9 });
    await expect(client.categories.create({ name: 'SDK low', hierarchy: 2 })).rejects.toMatchObject({ code: 409, key: 'duplicate_found' });

    const listed = await client.categories.list();
    expect(listed).toMatchObject({ object: 'list', data_ref: 'data', total: 2 });
    expect(listed.data.map((c) => c.id)).toEqual([high.id, low.id]);
    expect(await client.categories.get(low.id)).toEqual(low);

    const campaign = await client.campaigns.create({
      name: 'SDK categorized',
      campaign_type: 'DISCOUNT_COUPONS',
      type: 'STATIC',
      category: 'SDK low',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: DiscountVouchersTypesEnum.PERCENT, percent_off: 5 } },
    });
    expect(campaign).toMatchObject({ category: 'SDK low', category_id: low.id });

    const renamed = await client.categories.update(low.id, { name: 'SDK renamed', hierarchy: 10 });
    expect(renamed).toMatchObject({ id: low.id, name: 'SDK renamed', hierarchy: 10, created_at: low.created_at });
    expect(renamed.updated_at).toEqual(expect.any(String));
    expect(await client.campaigns.get(campaign.id)).toMatchObject({ category: 'SDK renamed', category_id: low.id });
    expect((await client.categories.list()).data.map((c) => c.id)).toEqual([low.id, high.id]);

    await expect(client.categories.delete(low.id)).resolves.toBeFalsy();
    await expect(client.categories.get(low.id)).rejects.toMatchObject({ code: 404, key: 'not_found', resource_type: 'category' });
    expect(await client.campaigns.get(campaign.id)).toMatchObject({ category_id: null, categories: [] });
    expect((await client.categories.list()).total).toBe(1);
  });
});
