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
});
