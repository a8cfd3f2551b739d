import { describe, expect, it } from 'vitest';
import * as z from '../../../lib/zod.js';
import { queryBoolean, queryInt } from '../../../lib/http/query-params.js';
import { replyComponents, requestJsonSchema, tidy } from '../../../lib/openapi/json-schema.js';

describe('JSON Schema of request and reply schemas', () => {
  it('documents query integers and booleans as the values they stand for, not as the text the parser reads', () => {
    const json = requestJsonSchema(
      z.strictObject({ limit: z._default(queryInt(1, 100), 10), page: z.optional(queryInt(1, 5)), force: z.optional(queryBoolean) }),
    );
    expect(json.properties).toEqual({
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      page: { type: 'integer', minimum: 1, maximum: 5 },
      force: { type: 'boolean' },
    });
    expect(json.required).toBeUndefined();
  });

  it('keeps a property named like a keyword while dropping format patterns and the safe-integer bounds', () => {
    const json = requestJsonSchema(z.strictObject({ pattern: z.string(), at: z.iso.datetime(), n: z.int() }));
    expect(json.properties).toEqual({ pattern: { type: 'string' }, at: { type: 'string', format: 'date-time' }, n: { type: 'integer' } });
    expect(tidy({ properties: { format: { type: 'string' }, pattern: { type: 'string' } } })).toEqual({
      properties: { format: { type: 'string' }, pattern: { type: 'string' } },
    });
  });

  it('turns a reply schema nested in another into a $ref to its own component', () => {
    const inner = z.strictObject({ id: z.string() });
    const outer = z.strictObject({ items: z.array(inner), one: z.nullable(inner) });
    const components = replyComponents({ Outer: outer, Inner: inner }, '#/components/schemas/');
    expect(Object.keys(components)).toEqual(['Inner', 'Outer']);
    expect(components.Outer).toEqual({
      type: 'object',
      properties: {
        items: { type: 'array', items: { $ref: '#/components/schemas/Inner' } },
        one: { anyOf: [{ $ref: '#/components/schemas/Inner' }, { type: 'null' }] },
      },
      required: ['items', 'one'],
      additionalProperties: false,
    });
  });
});
