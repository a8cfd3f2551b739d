import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestQuery } from '../../../lib/http/query-params.js';
import type { Ignorable } from '../../../lib/http/lenient.js';
import { pathName } from '../../../lib/http/lenient.js';
import { validate } from '../../../lib/http/validate.js';
import * as z from '../../../lib/zod.js';

const customer = z.strictObject({ source_id: z.optional(z.string()), email: z.optional(z.string()) });
const body = z.strictObject({
  amount: z.optional(z.int()),
  customer: z.optional(customer),
  campaign: z.optional(z.union([z.string(), z.strictObject({ name: z.string(), count: z.optional(z.int()) })])),
  items: z.optional(z.array(z.strictObject({ sku: z.string(), quantity: z.optional(z.int()) }))),
  channel: z.optional(z.string()),
});

const names = (keys: readonly Ignorable[]) => keys.map((k) => `${pathName(k.path)} ${k.reason}`).sort();

describe('validate reads requests liberally', () => {
  it('drops keys the schema does not know, at every depth, and says which', () => {
    let heard: readonly Ignorable[] = [];
    const input = { amount: 5, currency: 'EUR', customer: { email: 'a@b.c', id: 'x', summary: {} }, items: [{ sku: 's', price: 1 }] };
    const out = validate(body, input, 'json', (keys) => {
      heard = keys;
    });
    expect(out).toEqual({ amount: 5, customer: { email: 'a@b.c' }, items: [{ sku: 's' }] });
    expect(names(heard)).toEqual(['currency unknown', 'customer.id unknown', 'customer.summary unknown', 'items[0].price unknown']);
    // The request as sent is untouched: it is also what an Idempotency-Key's fingerprint is made of.
    expect(input.customer).toEqual({ email: 'a@b.c', id: 'x', summary: {} });
  });

  it('reads null as absent for an optional field', () => {
    expect(validate(body, { amount: 1, customer: null, channel: null, campaign: null }, 'json')).toEqual({ amount: 1 });
  });

  it('keeps a field the schema allows to be null', () => {
    const nullable = z.strictObject({ expiration_date: z.optional(z.nullable(z.string())) });
    expect(validate(nullable, { expiration_date: null }, 'json')).toEqual({ expiration_date: null });
  });

  it('still refuses null for a required field', () => {
    const required = z.strictObject({ code: z.string() });
    expect(() => validate(required, { code: null }, 'json')).toThrow(expect.objectContaining({ details: expect.stringContaining('Property .code') }));
  });

  it('reports a wrong value alone when it comes with unknown keys', () => {
    expect(() => validate(body, { amount: 'ten', junk: 1 }, 'json')).toThrow(expect.objectContaining({ details: expect.not.stringContaining('junk') }));
    expect(() => validate(body, { amount: 'ten', junk: 1 }, 'json')).toThrow(expect.objectContaining({ details: expect.stringContaining('.amount') }));
  });

  it('takes a whole object where a union wants a reference by name', () => {
    const out = validate(body, { campaign: { name: 'Summer', id: 'camp_1', campaign_type: 'DISCOUNT_COUPONS', summary: null } }, 'json');
    expect(out).toEqual({ campaign: { name: 'Summer' } });
  });

  it('does not drop an element of an array that is null', () => {
    expect(() => validate(body, { items: [null] }, 'json')).toThrow(expect.objectContaining({ details: expect.stringContaining('.items.0') }));
  });

  it('drops unknown bracketed query parameters of a schema that nests the query itself', () => {
    const query = z.preprocess(
      (q) => nestQuery(q as Record<string, string>),
      z.strictObject({ limit: z.optional(z.string()), created_at: z.optional(z.strictObject({ before: z.optional(z.string()) })) }),
    );
    let heard: readonly Ignorable[] = [];
    const out = validate(query, { limit: '5', 'created_at[before]': 'A', 'created_at[other][x]': 'y', page_token: 't' }, 'query', (k) => {
      heard = k;
    });
    expect(out).toEqual({ limit: '5', created_at: { before: 'A' } });
    expect(names(heard)).toEqual(['created_at.other unknown', 'page_token unknown']);
  });

  it('still refuses an unknown key in a filter, a rule or its conditions, and a page a list does not serve: dropped, it would widen the answer or repeat a page', () => {
    const query = z.preprocess(
      (q) => nestQuery(q as Record<string, string>),
      z.strictObject({
        filters: z.optional(z.strictObject({ code: z.optional(z.strictObject({ conditions: z.strictObject({ $is: z.optional(z.string()) }) })) })),
      }),
    );
    expect(() => validate(query, { 'filters[points][conditions][$in]': '1' }, 'query')).toThrow(
      expect.objectContaining({ details: expect.stringContaining('points') }),
    );
    expect(() => validate(query, { 'filters[code][conditions][$like]': 'A' }, 'query')).toThrow(
      expect.objectContaining({ details: expect.stringContaining('$like') }),
    );
    const noFilters = z.strictObject({ limit: z.optional(z.string()) });
    expect(() => validate(noFilters, { page: '2' }, 'query')).toThrow(expect.objectContaining({ details: expect.stringContaining('page') }));
    expect(() => validate(noFilters, { starting_after_id: 'v_1' }, 'query')).toThrow(
      expect.objectContaining({ details: expect.stringContaining('starting_after_id') }),
    );
    expect(() => validate(noFilters, { filters: { code: 'A' } }, 'json')).toThrow(expect.objectContaining({ details: expect.stringContaining('filters') }));
  });

  it('answers as without them for any added undocumented keys (property)', () => {
    const known = new Set(['amount', 'customer', 'campaign', 'items', 'channel', 'source_id', 'email', 'name', 'count', 'sku', 'quantity']);
    const extraKey = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.has(k) && k !== '__proto__');
    const base = fc.record(
      {
        amount: fc.integer(),
        customer: fc.record({ email: fc.string() }, { requiredKeys: [] }),
        items: fc.array(fc.record({ sku: fc.string() }), { maxLength: 3 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        base,
        fc.dictionary(extraKey, fc.jsonValue(), { maxKeys: 3 }),
        fc.dictionary(extraKey, fc.jsonValue(), { maxKeys: 3 }),
        (value, top, nested) => {
          const noisy = {
            ...value,
            ...top,
            ...(value.customer ? { customer: { ...value.customer, ...nested } } : {}),
            ...(value.items ? { items: value.items.map((item) => ({ ...item, ...nested })) } : {}),
          };
          expect(validate(body, noisy, 'json')).toEqual(validate(body, value, 'json'));
        },
      ),
      { numRuns: 200 },
    );
  });
});
