import { type CustomerObject, VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;

/** The official SDK's customer calls a client makes without source ids, against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-customers');
  const pair = await createProject(testRuntime(), 'sdk customers project');
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: customers without source_id', () => {
  it('creates a customer from a name and an email only, a new one each time, and reads, updates and deletes it by id', async () => {
    // The SDK types a create reply as a customer or an "unconfirmed" one; this server always confirms.
    const created = (await client.customers.create({ name: 'Guest', email: 'guest@example.com' })) as CustomerObject;
    expect(created).toMatchObject({ name: 'Guest', email: 'guest@example.com', object: 'customer' });
    expect(created.id).toMatch(/^cust_/);
    expect(created.source_id).toBeUndefined();
    // No metadata sent: none shown, as Voucherify leaves it out.
    expect(created).not.toHaveProperty('metadata');

    const again = (await client.customers.create({ name: 'Guest', email: 'guest@example.com' })) as CustomerObject;
    expect(again.id).not.toBe(created.id);

    expect(await client.customers.get(created.id)).toMatchObject({ id: created.id, email: 'guest@example.com' });
    expect(await client.customers.update({ id: created.id, phone: '+1 555' })).toMatchObject({ id: created.id, phone: '+1 555' });
    const listed = await client.customers.list({ email: 'guest@example.com' });
    expect(listed.total).toBe(2);
    await expect(client.customers.delete(created.id)).resolves.toBeFalsy();
    await expect(client.customers.get(created.id)).rejects.toMatchObject({ code: 404, resource_type: 'customer' });
  });
});

describe('the official Voucherify SDK: customers.deletePermanently', () => {
  it('erases a customer: the deletion object at once, the customer gone, and the same deletion when asked again', async () => {
    const created = (await client.customers.create({ source_id: 'sdk-forget-me', name: 'Forget Me', email: 'forget@example.com' })) as CustomerObject;
    const deletion = await client.customers.deletePermanently(created.id);
    expect(deletion).toMatchObject({ related_object_id: created.id, related_object: 'customer', object: 'pernament_deletion', data_json: { customer: 1 } });
    expect(deletion.id).toMatch(/^del_/);
    await expect(client.customers.get(created.id)).rejects.toMatchObject({ code: 404, resource_type: 'customer' });
    expect(await client.customers.deletePermanently(created.id)).toMatchObject({ id: deletion.id, created_at: deletion.created_at });
    await expect(client.customers.deletePermanently('cust_nobody')).rejects.toMatchObject({ code: 404, key: 'not_found' });
  });
});
