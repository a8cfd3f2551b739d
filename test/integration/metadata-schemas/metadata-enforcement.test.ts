import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/clock.js';
import type { Runtime } from '../../../lib/runtime.js';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;
type Api = ReturnType<typeof apiClient>;

async function project(runtime: Runtime) {
  const pair = await newProject(runtime);
  return { projectId: pair.project_id, headers: keyPairHeaders(pair), api: apiClient({ runtime }, keyPairHeaders(pair)) };
}

async function setup(runtime: Runtime = testRuntime()) {
  const management = apiClient({ runtime }, managementHeaders(await newManagementKey(runtime)));
  const { projectId, api } = await project(runtime);
  const define = async (relatedObject: string, properties: Json, allowDefinedOnly = false) => {
    const reply = await management.call('create-metadata-schema', {
      params: { projectId },
      json: { related_object: relatedObject, allow_defined_only: allowDefinedOnly, properties },
    });
    if (reply.status !== 200) throw new Error(JSON.stringify(reply.json));
    return reply.json.id as string;
  };
  return { runtime, management, projectId, api, define };
}

/** A schema every covered object gets in these tests: a required number and an optional enumerated string. */
const properties = {
  size: { type: 'number', optional: false, array: false, gt: 0 },
  region: { type: 'string', optional: true, array: false, eq: ['EU', 'US'] },
};

const discount = { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT', percent_off: 10 } };

/** Each covered object: a create with the metadata given, and an update of an object made with valid metadata. */
const objects: Record<
  string,
  { create: (api: Api, metadata?: Json) => ReturnType<Api['call']>; update: (api: Api, metadata: Json) => Promise<Awaited<ReturnType<Api['call']>>> }
> = {
  customer: {
    create: (api, metadata) => api.call('create-customer', { json: { source_id: `c-${Math.random()}`, ...(metadata ? { metadata } : {}) } }),
    update: async (api, metadata) => {
      const made = await api.call('create-customer', { json: { source_id: `c-upd-${Math.random()}`, metadata: { size: 1 } } });
      return api.call('update-customer', { params: { customerId: made.json.id as string }, json: { metadata } });
    },
  },
  campaign: {
    create: (api, metadata) =>
      api.call('create-campaign', {
        json: { name: `camp-${Math.random()}`, campaign_type: 'DISCOUNT_COUPONS', type: 'AUTO_UPDATE', voucher: discount, ...(metadata ? { metadata } : {}) },
      }),
    update: async (api, metadata) => {
      const made = await api.call('create-campaign', {
        json: { name: `camp-upd-${Math.random()}`, campaign_type: 'DISCOUNT_COUPONS', type: 'AUTO_UPDATE', voucher: discount, metadata: { size: 1 } },
      });
      if (made.status !== 200) throw new Error(JSON.stringify(made.json));
      return api.call('update-campaign', { params: { campaignId: made.json.id as string }, json: { metadata } });
    },
  },
  voucher: {
    create: (api, metadata) => api.call('create-voucher', { params: { code: `V-${Math.random()}` }, json: { ...discount, ...(metadata ? { metadata } : {}) } }),
    update: async (api, metadata) => {
      const code = `V-UPD-${Math.random()}`;
      await api.call('create-voucher', { params: { code }, json: { ...discount, metadata: { size: 1 } } });
      return api.call('update-voucher', { params: { code }, json: { metadata } });
    },
  },
  product: {
    create: (api, metadata) => api.call('create-product', { json: { name: 'Shoe', ...(metadata ? { metadata } : {}) } }),
    update: async (api, metadata) => {
      const made = await api.call('create-product', { json: { name: 'Shoe', metadata: { size: 1 } } });
      return api.call('update-product', { params: { productId: made.json.id as string }, json: { metadata } });
    },
  },
  order: {
    create: (api, metadata) => api.call('create-order', { json: { amount: 1000, ...(metadata ? { metadata } : {}) } }),
    update: async (api, metadata) => {
      const made = await api.call('create-order', { json: { amount: 1000, metadata: { size: 1 } } });
      return api.call('update-order', { params: { orderId: made.json.id as string }, json: { metadata } });
    },
  },
};

const expectRefused = (reply: Awaited<ReturnType<Api['call']>>, ...named: string[]) => {
  expect(reply.status, JSON.stringify(reply.json)).toBe(400);
  expect(reply.json).toMatchObject({ code: 400, key: 'metadata_validation_failed', message: 'Metadata validation failed' });
  for (const name of named) expect(String(reply.json.details)).toContain(`${name}:`);
};

describe('metadata schemas enforced on the writes of the objects they describe', () => {
  for (const [object, calls] of Object.entries(objects)) {
    it(`refuses a ${object} write with a wrong type, a missing required property or a value out of its list, naming each`, async () => {
      const { api, define } = await setup();
      await define(object, properties);
      expectRefused(await calls.create(api, { size: 'XL' }), 'size');
      expectRefused(await calls.create(api, { region: 'EU' }), 'size');
      expectRefused(await calls.create(api, { size: 2, region: 'ASIA' }), 'region');
      expect((await calls.create(api, { size: 2, region: 'EU', other: true })).status).toBe(200);
      expectRefused(await calls.update(api, { size: -1 }), 'size');
      expect((await calls.update(api, { size: 3 })).status).toBe(200);
    });
  }

  it('refuses a new campaign or voucher sent without metadata when a property is required; an upsert without metadata keeps what it has', async () => {
    const { api, define } = await setup();
    for (const object of ['campaign', 'voucher', 'customer'] as const) await define(object, properties);
    expectRefused((await objects.campaign?.create(api)) as Awaited<ReturnType<Api['call']>>, 'size');
    expectRefused((await objects.voucher?.create(api)) as Awaited<ReturnType<Api['call']>>, 'size');
    expect((await api.call('create-customer', { json: { source_id: 'no-metadata' } })).status).toBe(200);
  });

  it('refuses a key the schema does not define when allow_defined_only is set, naming it', async () => {
    const { api, define } = await setup();
    await define('customer', properties, true);
    const reply = await api.call('create-customer', { json: { source_id: 'c1', metadata: { size: 1, colour: 'red' } } });
    expectRefused(reply, 'colour');
    expect(String(reply.json.details)).toContain('colour: is not defined in the metadata schema');
    expect((await api.call('create-customer', { json: { source_id: 'c1', metadata: { size: 1 } } })).status).toBe(200);
  });

  it('stops checking a property once it is marked deleted, and every property once the schema is deleted', async () => {
    const { api, define, management, projectId } = await setup();
    const metadataSchemaId = await define('order', properties);
    expectRefused((await objects.order?.create(api, { region: 'EU' })) as Awaited<ReturnType<Api['call']>>, 'size');
    const deleted = await management.call('update-metadata-schema', {
      params: { projectId, metadataSchemaId },
      json: { properties: { size: { type: 'number', optional: false, array: false, deleted: true } } },
    });
    expect(deleted.status).toBe(200);
    expect((await api.call('create-order', { json: { amount: 10, metadata: { region: 'EU' } } })).status).toBe(200);
    expect((await api.call('create-order', { json: { amount: 10, metadata: { size: 'not a number', region: 'EU' } } })).status).toBe(200);
    expectRefused(await api.call('create-order', { json: { amount: 10, metadata: { region: 'ASIA' } } }), 'region');
    expect((await management.call('delete-metadata-schema', { params: { projectId, metadataSchemaId } })).status).toBe(204);
    expect((await api.call('create-order', { json: { amount: 10, metadata: { region: 'ASIA' } } })).status).toBe(200);
  });

  it("never applies one project's schema to another project's writes", async () => {
    const runtime = testRuntime();
    const { define } = await setup(runtime);
    await define('customer', properties, true);
    const other = await project(runtime);
    expect((await other.api.call('create-customer', { json: { source_id: 'c1', metadata: { size: 'XL', anything: 1 } } })).status).toBe(200);
    expect((await other.api.call('get-metadata-schema', { params: { resource: 'customer' } })).status).toBe(404);
    expect((await other.api.call('list-metadata-schemas')).json.total).toBe(0);
  });

  it('reaches a container that cached the old answer within the cache age (30 s), and the container that changed it at once', async () => {
    const clock = new ManualClock();
    const writer = testRuntime({ clock });
    const { api, projectId, headers } = await project(writer);
    const operator = testRuntime({ clock });
    const onOperator = apiClient({ runtime: operator }, headers);
    // Both containers read "no schema" and keep that answer.
    expect((await api.call('create-customer', { json: { source_id: 'c1', metadata: { size: 'XL' } } })).status).toBe(200);
    expect((await onOperator.call('create-customer', { json: { source_id: 'c1', metadata: { size: 'XL' } } })).status).toBe(200);
    const management = apiClient({ runtime: operator }, managementHeaders(await newManagementKey(operator)));
    const made = await management.call('create-metadata-schema', { params: { projectId }, json: { related_object: 'customer', properties } });
    expect(made.status).toBe(200);
    expectRefused(await onOperator.call('create-customer', { json: { source_id: 'c2', metadata: { size: 'XL' } } }), 'size');
    expect((await api.call('create-customer', { json: { source_id: 'c2', metadata: { size: 'XL' } } })).status).toBe(200);
    clock.advance(30_000);
    expectRefused(await api.call('create-customer', { json: { source_id: 'c3', metadata: { size: 'XL' } } }), 'size');
  });
});
