import { describe, expect, it } from 'vitest';
import { apiClient } from '../../support/api-client.js';
import { keyPairHeaders, managementHeaders, newManagementKey, newProject, testRuntime } from '../../support/runtime.js';

type Json = Record<string, unknown>;

async function setup() {
  const runtime = testRuntime();
  const pair = await newProject(runtime);
  const management = apiClient({ runtime }, managementHeaders(await newManagementKey(runtime)));
  const api = apiClient({ runtime }, keyPairHeaders(pair));
  const projectId = pair.project_id;
  const create = (json: Json) => management.call('create-metadata-schema', { params: { projectId }, json });
  return { runtime, pair, projectId, management, api, create };
}

const paymentBody = {
  related_object: 'payment',
  allow_defined_only: true,
  properties: {
    method: { type: 'string', optional: false, array: false, eq: ['card', 'cash'] },
    tax: { type: 'number', optional: true, array: false, gte: 0, lt: 100 },
    channels: { type: 'string', optional: true, array: true, min_length: 2, max_length: 5 },
  },
};

describe('metadata schemas of the Management API (/management/v1/projects/{projectId}/metadata-schemas)', () => {
  it('creates a schema and shows it by id and in the list, in the reference shape', async () => {
    const { projectId, management, create } = await setup();
    const created = await create(paymentBody);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json).toMatchObject({
      related_object: 'payment',
      allow_defined_only: true,
      updated_at: null,
      object: 'metadata_schema',
      properties: {
        method: { type: 'string', array: false, optional: false, object_type: null, eq: ['card', 'cash'] },
        tax: { type: 'number', array: false, optional: true, object_type: null, gte: 0, lt: 100 },
        channels: { type: 'string', array: true, optional: true, object_type: null, min_length: 2, max_length: 5 },
      },
    });
    expect(created.json.id).toMatch(/^ms_/);
    const metadataSchemaId = created.json.id as string;
    const got = await management.call('get-metadata-schema-1', { params: { projectId, metadataSchemaId } });
    expect(got.status).toBe(200);
    expect(got.json).toEqual(created.json);
    const listed = await management.call('list-metadata-schemas-1', { params: { projectId } });
    expect(listed.json).toEqual({ object: 'list', data_ref: 'data', data: [created.json], total: 1 });
  });

  it('refuses a second schema of the same related object with 409 and a constraint of another type with a named 400', async () => {
    const { create } = await setup();
    expect((await create(paymentBody)).status).toBe(200);
    const again = await create({ related_object: 'payment', properties: {} });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ key: 'duplicate_found', resource_type: 'metadata_schema' });
    const bad = await create({ related_object: 'order', properties: { size: { type: 'string', optional: true, array: false, lt: 3 } } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ key: 'invalid_payload' });
    expect(String(bad.json.details)).toContain('properties.size.lt');
    const eqOfOtherType = await create({ related_object: 'order', properties: { size: { type: 'number', optional: true, array: false, eq: ['L'] } } });
    expect(eqOfOtherType.status).toBe(400);
    expect(String(eqOfOtherType.json.details)).toContain('properties.size.eq.0');
  });

  it('answers 404 for a project that does not exist and for a schema id it does not hold', async () => {
    const { management, projectId } = await setup();
    const noProject = await management.call('create-metadata-schema', { params: { projectId: 'proj_missing' }, json: paymentBody });
    expect(noProject.status).toBe(404);
    expect(noProject.json).toMatchObject({ key: 'not_found', resource_type: 'project' });
    expect((await management.call('list-metadata-schemas-1', { params: { projectId: 'proj_missing' } })).status).toBe(404);
    const noSchema = await management.call('get-metadata-schema-1', { params: { projectId, metadataSchemaId: 'ms_missing' } });
    expect(noSchema.status).toBe(404);
    expect(noSchema.json).toMatchObject({ key: 'not_found', resource_type: 'metadata_schema' });
  });

  it('updates the properties sent, keeps the others, refuses a type change and marks a property deleted', async () => {
    const { projectId, management, create } = await setup();
    const metadataSchemaId = (await create(paymentBody)).json.id as string;
    const params = { projectId, metadataSchemaId };
    const updated = await management.call('update-metadata-schema', {
      params,
      json: {
        allow_defined_only: false,
        properties: { tax: { type: 'number', optional: true, array: false, deleted: true }, note: { type: 'string', optional: true, array: false } },
      },
    });
    expect(updated.status, JSON.stringify(updated.json)).toBe(200);
    const properties = updated.json.properties as Record<string, Json>;
    expect(Object.keys(properties).sort()).toEqual(['channels', 'method', 'note', 'tax']);
    expect(properties.tax).toEqual({ type: 'number', array: false, optional: true, object_type: null, deleted: true });
    expect(properties.method).toMatchObject({ eq: ['card', 'cash'] });
    expect(updated.json.allow_defined_only).toBe(false);
    expect(updated.json.updated_at).toEqual(expect.any(String));
    const retyped = await management.call('update-metadata-schema', {
      params,
      json: { properties: { method: { type: 'number', optional: true, array: false } } },
    });
    expect(retyped.status).toBe(400);
    expect(String(retyped.json.details)).toContain('.properties.method.type');
    expect((await management.call('get-metadata-schema-1', { params })).json).toEqual(updated.json);
  });

  it('deletes a schema: 204, then 404, and its related object may have a new one', async () => {
    const { projectId, management, create } = await setup();
    const metadataSchemaId = (await create(paymentBody)).json.id as string;
    const params = { projectId, metadataSchemaId };
    expect((await management.call('delete-metadata-schema', { params })).status).toBe(204);
    expect((await management.call('get-metadata-schema-1', { params })).status).toBe(404);
    expect((await management.call('delete-metadata-schema', { params })).status).toBe(404);
    expect((await management.call('list-metadata-schemas-1', { params: { projectId } })).json.total).toBe(0);
    expect((await create(paymentBody)).status).toBe(200);
  });
});

describe('metadata schemas read with project keys (GET /v1/metadata-schemas[/{resource}])', () => {
  it("lists the project's schemas under `schemas` and gets one by related object, in the reference's camelCase definitions", async () => {
    const { api, create } = await setup();
    const created = (await create(paymentBody)).json;
    const listed = await api.call('list-metadata-schemas');
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject({ object: 'list', data_ref: 'schemas', total: 1 });
    const got = await api.call('get-metadata-schema', { params: { resource: 'payment' } });
    expect(got.status).toBe(200);
    expect((listed.json.schemas as Json[])[0]).toEqual(got.json);
    expect(got.json).toMatchObject({ id: created.id, related_object: 'payment', allow_defined_only: true, object: 'metadata_schema' });
    expect((got.json.properties as Record<string, Json>).channels).toEqual({
      type: 'string',
      array: true,
      optional: true,
      objectType: null,
      minLength: 2,
      maxLength: 5,
    });
  });

  it('answers 404 for a related object without a schema', async () => {
    const { api } = await setup();
    const missing = await api.call('get-metadata-schema', { params: { resource: 'customer' } });
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ key: 'not_found', resource_type: 'metadata_schema', resource_id: 'customer' });
  });
});
