import { describe, expect, it } from 'vitest';
import { compareDocuments } from '../../../scripts/compatibility/compare.js';
import { seedViolations } from '../../../scripts/compatibility/report.js';
import type { JsonObject } from '../../../scripts/compatibility/schema-fields.js';

/** A one-operation document whose request and response bodies are the given schemas. */
function doc(operationId: string, request: JsonObject, response: JsonObject, components: JsonObject = {}): JsonObject {
  return {
    openapi: '3.1.0',
    paths: {
      '/v1/things/{thingId}': {
        post: {
          operationId,
          parameters: [{ name: 'force', in: 'query', schema: { type: 'boolean' } }],
          requestBody: { content: { 'application/json': { schema: request } } },
          responses: { '200': { content: { 'application/json': { schema: response } } } },
        },
      },
    },
    components: { schemas: components },
  };
}

describe('compareDocuments', () => {
  it('finds no difference between a document and itself', () => {
    const d = doc('x', { type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { id: { type: 'string' } } });
    expect(compareDocuments(d, d)[0]?.differences).toEqual([]);
  });

  it('reports the topmost missing field, a type that does not fit and an enum that differs', () => {
    const ours = doc(
      'x',
      { type: 'object', properties: { kind: { type: 'string', enum: ['A', 'B'] } } },
      { type: 'object', properties: { count: { type: 'string' } } },
    );
    const theirs = doc(
      'x',
      {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: ['A', 'C'] },
          nested: { type: 'object', properties: { deep: { type: 'string' } } },
        },
      },
      { type: 'object', properties: { count: { type: 'integer' } } },
    );
    const [result] = compareDocuments(ours, theirs);
    expect(result?.differences.map((d) => `${d.location} ${d.field} ${d.kind}`).sort()).toEqual([
      'request kind enum',
      'request nested missing',
      'response count type',
    ]);
  });

  it('reads integers as numbers, ignores nullability and follows $ref and allOf/oneOf on both sides', () => {
    const ours = doc(
      'x',
      { type: 'object', properties: { n: { type: 'integer' }, s: { type: ['string', 'null'] } } },
      { $ref: '#/components/schemas/R' },
      { R: { allOf: [{ type: 'object', properties: { id: { type: 'string' } } }] } },
    );
    const theirs = doc(
      'x',
      { type: 'object', properties: { n: { type: 'number' }, s: { type: 'string' } } },
      { oneOf: [{ $ref: '#/components/schemas/R' }] },
      { R: { type: 'object', properties: { id: { type: 'string' } } } },
    );
    expect(compareDocuments(ours, theirs)[0]?.differences).toEqual([]);
  });

  it('matches operations by operationId first, then by method and path whatever the parameter names', () => {
    const ours = doc('ours-name', { type: 'object' }, { type: 'object' });
    const theirs = doc('their-name', { type: 'object' }, { type: 'object' });
    const pathsOfTheirs = theirs.paths as JsonObject;
    pathsOfTheirs['/v1/things/{thing_Id}'] = pathsOfTheirs['/v1/things/{thingId}'] ?? null;
    delete pathsOfTheirs['/v1/things/{thingId}'];
    expect(compareDocuments(ours, theirs)[0]?.theirs?.operationId).toBe('their-name');
  });

  it('flags a field the seed spec names when our document lacks it', () => {
    const ours = doc('create-reward-assignment', { type: 'object', properties: { campaign: { type: 'string' } } }, { type: 'object' });
    const violations = seedViolations(compareDocuments(ours, ours));
    expect(violations.some((v) => v.operationId === 'create-reward-assignment' && v.field === 'parameters.loyalty.points')).toBe(true);
    expect(violations.some((v) => v.operationId === 'create-reward-assignment' && v.field === 'campaign')).toBe(false);
  });
});
