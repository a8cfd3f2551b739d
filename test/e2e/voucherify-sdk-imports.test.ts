import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;
let dir: string;

/** The official SDK's CSV imports (multipart/form-data from files on disk) and bulk updates, against the whole local runtime and its jobs worker. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-imports');
  const pair = await createProject(testRuntime(), 'sdk imports project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
  dir = mkdtempSync(join(tmpdir(), 'sdk-imports-'));
});

afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** The action once final, as the SDK reads it. */
async function finished(id: string) {
  let action = await client.asyncActions.get(id);
  for (let i = 0; i < 200 && (action.status === 'ENQUEUED' || action.status === 'IN_PROGRESS'); i += 1) {
    await sleep(100);
    action = await client.asyncActions.get(id);
  }
  return action;
}

describe('the official Voucherify SDK: CSV imports and bulk updates', () => {
  it('vouchers.importCSV imports a file, a bad row reported with its line; vouchers.bulkUpdate and bulkUpdateMetadata merge metadata', async () => {
    const started = await client.vouchers.importCSV(file('vouchers.csv', 'Code,Value,Discount Type,Region\r\nSDK-1,10,PERCENT,EU\r\nSDK-2,x,AMOUNT,\r\n'));
    expect(await finished(started.async_action_id)).toMatchObject({
      type: 'VOUCHERS.IMPORT_CSV',
      status: 'DONE',
      result: { done_count: 1, failed_count: 1, failed: [{ line: 3, code: 'SDK-2' }] },
    });
    expect(await client.vouchers.get('SDK-1')).toMatchObject({ discount: { type: 'PERCENT', percent_off: 10 }, metadata: { Region: 'EU' } });
    const bulk = await client.vouchers.bulkUpdate([{ code: 'SDK-1', metadata: { lang: 'en' } }]);
    expect(await finished(bulk.async_action_id)).toMatchObject({ type: 'VOUCHERS.BULK_UPDATE', status: 'DONE', result: { done_count: 1 } });
    const same = await client.vouchers.bulkUpdateMetadata({ codes: ['SDK-1'], metadata: { vip: true } });
    expect(await finished(same.async_action_id)).toMatchObject({ status: 'DONE' });
    expect((await client.vouchers.get('SDK-1')).metadata).toEqual({ Region: 'EU', lang: 'en', vip: true });
  });

  it('customers.importCSV, updateInBulk and updateMetadataInBulk upsert by source id', async () => {
    const started = await client.customers.importCSV(file('customers.csv', 'Name,Source_id,Address_City\nAnn,sdk-ann,Oslo\n'));
    expect(await finished(started.async_action_id)).toMatchObject({ type: 'CUSTOMERS.IMPORT_CSV', status: 'DONE', result: { done_count: 1 } });
    const bulk = await client.customers.updateInBulk([
      { source_id: 'sdk-ann', email: 'ann@example.com' },
      { source_id: 'sdk-bob', name: 'Bob' },
    ]);
    expect(await finished(bulk.async_action_id)).toMatchObject({ type: 'CUSTOMERS.BULK_UPDATE', status: 'DONE', result: { done_count: 2 } });
    const meta = await client.customers.updateMetadataInBulk({ source_ids: ['sdk-ann', 'sdk-bob'], metadata: { lang: 'en' } });
    expect(await finished(meta.async_action_id)).toMatchObject({ type: 'CUSTOMERS.METADATA_UPDATE', status: 'DONE', result: { done_count: 2 } });
    expect(await client.customers.get('sdk-ann')).toMatchObject({ name: 'Ann', email: 'ann@example.com', address: { city: 'Oslo' }, metadata: { lang: 'en' } });
  });

  it('products.importCSV, importSkusCSV, bulkUpdate and bulkUpdateMetadata', async () => {
    const products = await client.products.importCSV(file('products.csv', 'name,source_id,price\nPhone,sdk-phone,1000\n'));
    expect(await finished(products.async_action_id)).toMatchObject({ type: 'PRODUCTS.IMPORT_CSV', status: 'DONE', result: { done_count: 1 } });
    const skus = await client.products.importSkusCSV(file('skus.csv', 'product_id,source_id,sku\nsdk-phone,sdk-phone-black,Black\n'));
    expect(await finished(skus.async_action_id)).toMatchObject({ type: 'SKUS.IMPORT_CSV', status: 'DONE', result: { done_count: 1 } });
    const bulk = await client.products.bulkUpdate([{ source_id: 'sdk-phone', name: 'Phone 2' }]);
    expect(await finished(bulk.async_action_id)).toMatchObject({ type: 'PRODUCTS.BULK_UPDATE', status: 'DONE' });
    const meta = await client.products.bulkUpdateMetadata({ source_ids: ['sdk-phone'], metadata: { label: true } });
    expect(await finished(meta.async_action_id)).toMatchObject({ type: 'PRODUCTS.METADATA_UPDATE', status: 'DONE' });
    expect(await client.products.get('sdk-phone')).toMatchObject({ name: 'Phone 2', metadata: { label: true } });
  });

  it('campaigns.importVouchersCSV imports into a campaign', async () => {
    const campaign = await client.campaigns.create({
      name: 'SDK CSV',
      type: 'STATIC',
      voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'AMOUNT', amount_off: 100 } },
    } as never);
    const started = await client.campaigns.importVouchersCSV(campaign.id, file('campaign.csv', 'Code\nSDK-C1\nSDK-C2\n'));
    expect(await finished(started.async_action_id)).toMatchObject({ type: 'CAMPAIGN.VOUCHERS_IMPORT_CSV', status: 'DONE', result: { done_count: 2 } });
  });

  it('orders.import stores historical orders as an async action', async () => {
    const started = await client.orders.import([
      { source_id: 'sdk-hist-1', status: 'PAID', amount: 2_000, customer: { source_id: 'sdk-ann' } },
      { source_id: 'sdk-hist-2', items: [{ source_id: 'sdk-phone', quantity: 1, price: 1_000 }] },
    ]);
    expect(await finished(started.async_action_id)).toMatchObject({ type: 'ORDERS.IMPORT', status: 'DONE', result: { done_count: 2, failed_count: 0 } });
    expect(await client.orders.get('sdk-hist-1')).toMatchObject({ status: 'PAID', amount: 2_000 });
    expect(await client.orders.get('sdk-hist-2')).toMatchObject({ amount: 1_000 });
  });
});
