import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from '../../../lib/zod.js';
import { downloadExportRoute, routes } from '../../../lib/api/routes.js';
import type { RouteDef } from '../../../lib/api/route.js';
import { API_VERSION, buildOpenApiDocument, documentPaths } from '../../../lib/openapi/openapi-document.js';
import { compressedOpenApiDocument } from '../../../lib/openapi/compressed-document.js';
import { decompressDocument } from '../../../lib/openapi/served-document.js';
import {
  compressedDocumentPath,
  openApiDocumentPath,
  renderCompressedModule,
  renderOpenApiDocument,
  renderRoutePathsModule,
  routePathsPath,
} from '../../../scripts/openapi.js';

type Json = Record<string, unknown>;
const committedText = readFileSync(openApiDocumentPath, 'utf8');
const doc = JSON.parse(committedText) as Json;
const paths = doc.paths as Record<string, Record<string, Json>>;
const components = doc.components as Record<string, Record<string, Json>>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function operations(): Array<{ path: string; method: string; op: Json }> {
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op })),
  );
}

function resolve(ref: string): unknown {
  expect(ref.startsWith('#/'), ref).toBe(true);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(part in node)) return undefined;
    node = (node as Json)[part];
  }
  return node;
}

function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const v of node) refsIn(v, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

const placed = documentPaths(routes);
const operationOf = (route: RouteDef): Json | undefined => paths[placed.get(route)?.path ?? '']?.[route.method.toLowerCase()];

describe('docs/openapi.json', () => {
  it('is what npm run openapi generates now (run it after changing a route, a schema or a mapper)', async () => {
    expect(committedText).toBe(await renderOpenApiDocument());
  });

  it('is what GET /v1/openapi.json serves: the compressed copy holds the same text', () => {
    expect(decompressDocument(compressedOpenApiDocument)).toBe(committedText);
    expect(readFileSync(compressedDocumentPath, 'utf8')).toBe(renderCompressedModule(committedText));
    // What `$default` matches against: the table's methods and paths, regenerated with the document.
    expect(readFileSync(routePathsPath, 'utf8')).toBe(renderRoutePathsModule());
  });

  it('is an OpenAPI 3.1 document labelled with the spec interface version and its clusters as server variables', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((doc.info as Json).version).toBe(API_VERSION);
    const [deployed] = doc.servers as Json[];
    expect(deployed?.variables).toMatchObject({ cluster: { default: 'api', enum: ['api', 'us1.api', 'as1.api'] } });
    expect(operationOf(downloadExportRoute)?.servers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          variables: expect.objectContaining({ cluster: { default: 'download', enum: ['download', 'us1.download', 'as1.download'] } }),
        }),
      ]),
    );
  });

  it('has one operation per route of the table, under its operationId, summary and method', () => {
    expect(operations()).toHaveLength(routes.length);
    for (const route of routes) {
      const op = operationOf(route);
      expect(op, route.operationId).toBeDefined();
      expect(op).toMatchObject({ operationId: route.operationId, summary: route.summary });
    }
    expect(new Set(operations().map(({ op }) => op.operationId)).size).toBe(routes.length);
  });

  it('declares every path template parameter as a required path parameter, and no other', () => {
    for (const { path, method, op } of operations()) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = ((op.parameters as Json[] | undefined) ?? []).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), `${method} ${path}`).toEqual(inPath);
      for (const p of declared) expect(p.required, `${method} ${path} ${String(p.name)}`).toBe(true);
    }
  });

  it('resolves every $ref inside the document', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of new Set(refs)) expect(resolve(ref), ref).toBeDefined();
  });

  it('secures every operation with the schemes its route accepts, and lists its scopes', () => {
    const schemes = Object.keys(components.securitySchemes ?? {});
    for (const route of routes) {
      const op = operationOf(route) as Json;
      const security = op.security as Json[];
      if (route.auth === 'none') {
        expect(security, route.operationId).toEqual([]);
        continue;
      }
      if (route.auth === 'management') {
        // The Management API takes the operator's management pair and nothing else.
        expect(security, route.operationId).toEqual([{ 'X-Management-Id': [], 'X-Management-Token': [] }]);
        expect(op['x-scopes'], route.operationId).toBeUndefined();
        continue;
      }
      const client = route.scope?.side === 'client';
      expect(security, route.operationId).toContainEqual(
        client ? { 'X-Client-Application-Id': [], 'X-Client-Token': [] } : { 'X-App-Id': [], 'X-App-Token': [] },
      );
      // A client-side route never lists the server pair, nor a server route the client pair.
      expect(
        security.some((s) => (client ? 'X-App-Id' : 'X-Client-Application-Id') in s),
        route.operationId,
      ).toBe(false);
      expect(
        security.some((s) => 'BearerToken' in s),
        route.operationId,
      ).toBe(route.auth.bearer);
      expect(
        security.some((s) => 'X-Service-OAuth' in s),
        route.operationId,
      ).toBe(route.auth.serviceOAuthHeader === true);
      for (const requirement of security) for (const name of Object.keys(requirement)) expect(schemes).toContain(name);
      if (route.scope) expect(op['x-scopes']).toEqual([route.scope.side === 'client' ? 'client_api' : 'api', ...route.scope.scopes]);
      else expect(op['x-scopes']).toBeUndefined();
    }
  });

  it('answers every authenticated operation with 401, 403 and 429 and every operation with 400 and 500, all as the Error object', () => {
    const errorRef = { $ref: '#/components/schemas/Error' };
    for (const route of routes) {
      const responses = (operationOf(route) as Json).responses as Record<string, Json>;
      const expected = route.auth === 'none' ? ['400', '500'] : ['400', '401', '403', '429', '500'];
      for (const status of expected) expect(Object.keys(responses), route.operationId).toContain(status);
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        const resolved = resolve(String(response.$ref)) as Json;
        expect((resolved.content as Json)['application/json'], `${route.operationId} ${status}`).toEqual({ schema: errorRef });
      }
    }
  });

  it('documents the success statuses the handlers reply with: 204 and 302 without a body, 202 for bulk generation', () => {
    const byId = new Map(operations().map(({ op }) => [op.operationId, op.responses as Record<string, Json>]));
    expect(Object.keys(byId.get('delete-voucher') ?? {})).toContain('204');
    expect(byId.get('delete-voucher')?.['204']?.content).toBeUndefined();
    expect(byId.get('download-export')?.['302']?.headers).toHaveProperty('Location');
    expect(byId.get('download-export')?.['302']?.content).toBeUndefined();
    expect(byId.get('add-vouchers-to-campaign')?.['202']?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/AsyncActionAccepted' } },
    });
  });

  it('describes request bodies in the encoding each route reads, as the client sends them', () => {
    const token = operations().find(({ op }) => op.operationId === 'generate-oauth-token')?.op.requestBody as Json;
    expect(Object.keys(token.content as Json)).toEqual(['application/x-www-form-urlencoded']);
    const campaigns = operations().find(({ op }) => op.operationId === 'list-campaigns')?.op.parameters as Json[];
    expect(campaigns.find((p) => p.name === 'limit')).toEqual({
      name: 'limit',
      in: 'query',
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    });
    expect(campaigns.find((p) => p.name === 'filters')).toMatchObject({ style: 'deepObject', explode: true });
    const addVouchers = operations().find(({ op }) => op.operationId === 'add-vouchers-to-campaign')?.op.requestBody as Json;
    expect(addVouchers.required).toBe(false);
  });

  it('refuses to build a route whose row declares no success reply', () => {
    const stray: RouteDef = { ...downloadExportRoute, operationId: 'not-described', path: '/v1/stray', cluster: 'api', success: [] };
    expect(() =>
      buildOpenApiDocument([{ route: stray, schemas: { query: z.strictObject({}) } }], { zoneName: 'x', local: { api: 'a', download: 'd' } }),
    ).toThrow(/not-described/);
  });
});
