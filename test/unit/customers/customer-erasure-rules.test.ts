import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Customer } from '../../../lib/customers/customer.js';
import { keyHoldsPersonal, namesCustomer, personalDataOf, redact } from '../../../lib/customers/customer-erasure.rules.js';

const customer: Customer = {
  id: 'cust_abc123',
  projectId: 'p1',
  sourceId: 'crm-77',
  name: 'Ann Example',
  email: 'ann@shop.example',
  description: 'likes tea',
  phone: '+48 600',
  birthdate: '1990-01-02',
  address: { city: 'Gdańsk', line1: 'Długa 1' },
  metadata: { tier: 'gold-ann', visits: 3 },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  revision: 1,
  listed: true,
};
const personal = personalDataOf(customer);

describe('what a customer erasure looks for and how it anonymises', () => {
  it('collects every personal string of the customer, never its id or numbers', () => {
    expect(new Set(personal.values)).toEqual(
      new Set(['crm-77', 'Ann Example', 'ann@shop.example', 'likes tea', '+48 600', '1990-01-02', 'Gdańsk', 'Długa 1', 'gold-ann']),
    );
    expect(personal.customerId).toBe('cust_abc123');
  });

  it('blanks a stale customer snapshot (any map with its id) and strings equal to a personal value, keeping ids and amounts', () => {
    const publication = {
      id: 'pub_1',
      customerId: 'cust_abc123',
      customer: { ...customer, email: 'old@shop.example', metadata: { x: 'y' } },
      note: 'ann@shop.example',
      amount: 1000,
    };
    expect(redact(publication, personal)).toEqual({
      id: 'pub_1',
      customerId: 'cust_abc123',
      customer: { ...customer, sourceId: null, name: null, email: null, description: null, phone: null, birthdate: null, address: null, metadata: {} },
      note: null,
      amount: 1000,
    });
  });

  it('anonymises JSON text (a stored first reply) structurally, so it stays JSON', () => {
    const reply = JSON.stringify({ id: 'cust_abc123', source_id: 'crm-77', email: 'ann@shop.example', object: 'customer', summary: { redeemed: 2 } });
    expect(JSON.parse(redact(reply, personal) as string)).toEqual({
      id: 'cust_abc123',
      source_id: null,
      email: null,
      object: 'customer',
      summary: { redeemed: 2 },
    });
  });

  it('finds the customer by its id and a key holding a personal value', () => {
    expect(namesCustomer('{"customerId":"cust_abc123"}', personal)).toBe(true);
    expect(namesCustomer('{"customerId":"cust_other"}', personal)).toBe(false);
    expect(keyHoldsPersonal('P#p1#CUSTOMER_SRC#crm-77', personal)).toBe(true);
  });

  it('returns the same reference for any value holding nothing personal (so nothing is rewritten)', () => {
    const safe = fc.string().filter((s) => !personal.values.some((v) => s.includes(v)) && !s.includes(personal.customerId));
    fc.assert(
      fc.property(
        fc.jsonValue().filter((v) => !JSON.stringify(v).includes('cust_abc123') && !personal.values.some((p) => JSON.stringify(v).includes(p))),
        safe,
        (value, s) => {
          expect(redact(value, personal)).toBe(value);
          expect(redact(s, personal)).toBe(s);
        },
      ),
    );
  });

  it('leaves no personal value in any value it anonymises', () => {
    const personalValue = fc.constantFrom(...personal.values);
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        personalValue,
        fc.integer(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'note'), tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, (value) => {
        const out = JSON.stringify(redact({ customerId: 'cust_abc123', value }, personal));
        for (const v of personal.values) expect(out.includes(JSON.stringify(v))).toBe(false);
      }),
    );
  });
});
