import { VoucherifyServerSide } from '@voucherify/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../lib/app-keys/app-key.service.js';
import { createMetadataSchema } from '../../lib/metadata-schemas/metadata-schema.service.js';
import { startLocalWithOwnQueue, type OwnLocalRuntime } from '../support/local-runtime.js';
import { testRuntime } from '../support/runtime.js';

let runtime: OwnLocalRuntime;
let client: ReturnType<typeof VoucherifyServerSide>;
let projectId: string;

/** The official SDK's metadata schema calls (client.metadataSchemas), against the whole local runtime. */
beforeAll(async () => {
  runtime = await startLocalWithOwnQueue('sdk-metadata-schemas');
  const pair = await createProject(testRuntime(), 'sdk metadata schemas project');
  projectId = pair.project_id;
  client = VoucherifyServerSide({ applicationId: pair.app_id, secretKey: pair.app_token, apiUrl: runtime.local.apiUrl });
});

// Every reply the server gave in a test must match docs/openapi.json.
afterEach(() => {
  expect(runtime.contractViolations.splice(0)).toEqual([]);
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the official Voucherify SDK: metadata schemas', () => {
  it('lists and gets the schemas the Management API defined, and a customer write that breaks one is refused by name', async () => {
    await createMetadataSchema(testRuntime(), projectId, {
      related_object: 'customer',
      allow_defined_only: false,
      properties: { age: { type: 'number', optional: true, array: false, gte: 0 } },
    });
    const listed = await client.metadataSchemas.list();
    expect(listed).toMatchObject({ object: 'list', data_ref: 'schemas', total: 1 });
    expect(listed.schemas.map((s) => s.related_object)).toEqual(['customer']);
    const got = await client.metadataSchemas.get('customer');
    expect(got).toMatchObject({
      related_object: 'customer',
      object: 'metadata_schema',
      properties: { age: { type: 'number', optional: true, array: false, objectType: null } },
    });
    await expect(client.metadataSchemas.get('order')).rejects.toMatchObject({ code: 404, key: 'not_found' });
    await expect(client.customers.create({ source_id: 'sdk-young', metadata: { age: 'ten' } })).rejects.toMatchObject({
      code: 400,
      key: 'metadata_validation_failed',
      details: expect.stringContaining('age:'),
    });
    expect(await client.customers.create({ source_id: 'sdk-ten', metadata: { age: 10 } })).toMatchObject({ source_id: 'sdk-ten' });
  });
});
