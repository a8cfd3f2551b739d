import { setTimeout as sleep } from 'node:timers/promises';
import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { csvRow } from '../../lib/exports/csv.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's export calls, against the whole local runtime (queue, export worker, s3rver, download cluster). */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-exports');
  const pair = await createProject(testRuntime(), 'sdk exports project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: exports (client.distributions.exports)', () => {
  it('creates, gets, lists and deletes an export through client.distributions.exports, and downloads its file through result.url', async () => {
    await client.customers.create({ source_id: 'sdk-exp-b', name: 'Bea' });
    await client.customers.create({ source_id: 'sdk-exp-a', name: 'Ann' });
    const created = await client.distributions.exports.create({
      exported_object: 'customer',
      parameters: { fields: ['source_id', 'name'], order: 'source_id' },
    });
    expect(created).toMatchObject({ object: 'export', status: 'SCHEDULED', exported_object: 'customer', result: null });
    let got = await client.distributions.exports.get(created.id);
    for (let i = 0; i < 300 && got.status !== 'DONE' && got.status !== 'ERROR'; i += 1) {
      await sleep(100);
      got = await client.distributions.exports.get(created.id);
    }
    expect(got.status).toBe('DONE');
    const url = (got.result as { url: string }).url;
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(csvRow(['source_id', 'name']) + csvRow(['sdk-exp-a', 'Ann']) + csvRow(['sdk-exp-b', 'Bea']));

    const list = await client.distributions.exports.list();
    expect(list).toMatchObject({ object: 'list', data_ref: 'exports', total: 1, exports: [{ id: created.id, status: 'DONE' }] });

    await client.distributions.exports.delete(created.id);
    await expect(client.distributions.exports.get(created.id)).rejects.toMatchObject({ code: 404, key: 'not_found' });
    expect((await fetch(url)).status).toBe(401);
    expect(await client.distributions.exports.list()).toMatchObject({ total: 0, exports: [] });
  });

  it("exports a gift card's transactions through client.vouchers.exportTransactions, and a loyalty card's through client.loyalties.exportCardTransactions", async () => {
    await client.vouchers.create({ code: 'SDK-GIFT', type: 'GIFT_VOUCHER', gift: { amount: 1000 } } as never);
    await client.vouchers.balance.create('SDK-GIFT', { amount: 250 } as never);
    const started = await client.vouchers.exportTransactions('SDK-GIFT', { parameters: { fields: ['type', 'amount', 'balance'] } });
    expect(started).toMatchObject({ object: 'export', status: 'SCHEDULED', exported_object: 'voucher_transactions' });
    let got = await client.distributions.exports.get(started.id);
    for (let i = 0; i < 300 && got.status !== 'DONE' && got.status !== 'ERROR'; i += 1) {
      await sleep(100);
      got = await client.distributions.exports.get(started.id);
    }
    expect(got.status).toBe('DONE');
    const file = await fetch((got.result as { url: string }).url);
    expect(await file.text()).toBe(csvRow(['type', 'amount', 'balance']) + csvRow(['CREDITS_ADDITION', '250', '1250']));

    const program = await client.loyalties.create({
      name: 'SDK Club',
      campaign_type: 'LOYALTY_PROGRAM',
      voucher: { type: 'LOYALTY_CARD', loyalty_card: { points: 0 } },
    } as never);
    const card = await client.campaigns.addVoucher(program.id, { code: 'SDK-CARD' } as never);
    const byCard = await client.loyalties.exportCardTransactions((card as { code: string }).code, program.id, { parameters: { fields: ['id'] } });
    expect(byCard).toMatchObject({ object: 'export', status: 'SCHEDULED', exported_object: 'voucher_transactions' });
  });
});
