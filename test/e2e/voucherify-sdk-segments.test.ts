import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's segment calls (client.segments), against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-segments');
  const pair = await createProject(testRuntime(), 'sdk segments project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: segments', () => {
  it('creates, reads and deletes segments and lists a customer’s segments through client.segments', async () => {
    const ann = await client.customers.create({ source_id: 'sdk-ann', metadata: { tier: 'vip' } });
    const fixed = await client.segments.create({ name: 'Listed', type: 'static', customers: [(ann as { id: string }).id] });
    expect(fixed).toMatchObject({ name: 'Listed', type: 'static', object: 'segment' });
    const auto = await client.segments.create({ name: 'VIP', type: 'auto-update', filter: { 'metadata.tier': { conditions: { $is: 'vip' } } } });
    expect(auto).toMatchObject({ name: 'VIP', type: 'auto-update', object: 'segment' });
    expect(await client.segments.get(auto.id)).toMatchObject({ id: auto.id, filter: { 'metadata.tier': { conditions: { $is: 'vip' } } } });
    const listed = await client.segments.list('sdk-ann');
    expect(listed.data.map((s) => s.id)).toEqual([fixed.id, auto.id]);
    await client.segments.delete(fixed.id);
    await expect(client.segments.get(fixed.id)).rejects.toMatchObject({ code: 404, key: 'not_found' });
    expect((await client.segments.list('sdk-ann')).data.map((s) => s.id)).toEqual([auto.id]);
  });
});
