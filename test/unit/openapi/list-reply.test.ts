import { describe, expect, expectTypeOf, it } from 'vitest';
import { replyComponents } from '../../../lib/openapi/json-schema.js';
import { listReply } from '../../../lib/openapi/list-reply.js';
import * as z from '../../../lib/zod.js';

const item = z.strictObject({ id: z.string() });

/** The JSON Schema of a reply schema as docs/openapi.json holds it. */
const jsonOf = (schema: z.core.$ZodType): { properties: Record<string, unknown>; required?: unknown; additionalProperties?: unknown } => {
  const json = replyComponents({ List: schema }, '#/components/schemas/').List;
  if (!json) throw new Error('no component');
  return json as { properties: Record<string, unknown> };
};

describe('listReply', () => {
  it('builds the envelope in wire order: object, data_ref, the items under data_ref, total, has_more, then the rest', () => {
    const schema = listReply(item, { dataRef: 'tiers', hasMore: true, after: { more_starting_after: z.optional(z.string()) } });
    const json = jsonOf(schema);
    expect(Object.keys(json.properties)).toEqual(['object', 'data_ref', 'tiers', 'total', 'has_more', 'more_starting_after']);
    expect(json.required).toEqual(['object', 'data_ref', 'tiers', 'total', 'has_more']);
    expect(json.additionalProperties).toBe(false);
    expect(json.properties.total).toEqual({ type: 'integer', minimum: 0 });
    const page = { object: 'list', data_ref: 'tiers', tiers: [{ id: 'a' }], total: 1, has_more: false } as const;
    expect(schema.parse(page)).toEqual(page);
    expectTypeOf(schema.parse(page)).toEqualTypeOf<{
      object: 'list';
      data_ref: 'tiers';
      tiers: { id: string }[];
      total: number;
      has_more: boolean;
      more_starting_after?: string | undefined;
    }>();
  });

  it('refuses another data_ref, a key it does not declare and a negative total', () => {
    const schema = listReply(item, { dataRef: 'data' });
    expect(schema.safeParse({ object: 'list', data_ref: 'data', data: [], total: 0 }).success).toBe(true);
    expect(schema.safeParse({ object: 'list', data_ref: 'items', data: [], total: 0 }).success).toBe(false);
    expect(schema.safeParse({ object: 'list', data_ref: 'data', data: [], total: 0, has_more: false }).success).toBe(false);
    expect(schema.safeParse({ object: 'list', data_ref: 'data', data: [], total: -1 }).success).toBe(false);
  });

  it('describes total and has_more when given text, replaces total when given a schema, and leaves it out when given null', () => {
    const described = jsonOf(listReply(item, { dataRef: 'data', total: 'All of them.', hasMore: 'More follow.' }));
    expect(described.properties.total).toEqual({ type: 'integer', minimum: 0, description: 'All of them.' });
    expect(described.properties.has_more).toEqual({ type: 'boolean', description: 'More follow.' });

    const optional = listReply(item, { dataRef: 'data', total: z.optional(z.int()) });
    expect(optional.safeParse({ object: 'list', data_ref: 'data', data: [] }).success).toBe(true);

    const cursor = listReply(item, { dataRef: 'data', total: null, hasMore: true });
    expect(Object.keys(cursor.shape)).toEqual(['object', 'data_ref', 'data', 'has_more']);
    expectTypeOf<z.output<typeof cursor>>().toEqualTypeOf<{ object: 'list'; data_ref: 'data'; data: { id: string }[]; has_more: boolean }>();
  });
});
