import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileErasurePlan, redactCsvRow, rowHoldsPersonal, rowNamesCustomer } from '../../../lib/customers/customer-erasure-csv.rules.js';
import type { PersonalData } from '../../../lib/customers/customer-erasure.rules.js';
import { DEFAULT_CSV_LIMITS, parseCsv } from '../../../lib/imports/csv.js';

const p: PersonalData = {
  customerId: 'cust_erin1',
  values: ['erin-src', 'Erin Example', 'erin@shop.example', '+48 600', 'Oliwa', 'blue-gnomes'],
  identifying: ['erin-src', 'erin@shop.example', '+48 600'],
};

const customerHeader = ['id', 'name', 'email', 'source_id', 'address_city', 'metadata', 'created_at'];

describe('how an erasure treats an export file', () => {
  it('plans by the columns: skip what holds no personal value, rewrite what can tie rows to the customer, scan the rest', () => {
    expect(fileErasurePlan('redemption', ['id', 'object', 'voucher_code', 'customer_id', 'date', 'result'])).toBe('skip');
    expect(fileErasurePlan('points_expiration', ['id', 'campaign_id', 'voucher_id', 'status', 'expires_at', 'points'])).toBe('skip');
    expect(fileErasurePlan('customer', ['name', 'source_id'])).toBe('rewrite');
    expect(fileErasurePlan('redemption', ['id', 'customer_source_id'])).toBe('rewrite');
    expect(fileErasurePlan('order', ['id', 'customer_id', 'metadata'])).toBe('rewrite');
    expect(fileErasurePlan('customer', ['name', 'address_city'])).toBe('scan');
    expect(fileErasurePlan('order', ['id', 'metadata'])).toBe('scan');
  });

  it("empties every personal column of the customer's own row in a customer export, keeping its id and dates", () => {
    const row = ['cust_erin1', 'Erin Example', 'erin@shop.example', 'erin-src', 'Oliwa', '{"favourite":"blue-gnomes"}', '2026-01-01T00:00:00.000Z'];
    expect(redactCsvRow('customer', customerHeader, row, p)).toEqual(['cust_erin1', '', '', '', '', '', '2026-01-01T00:00:00.000Z']);
    // Without the id column, the source id (or email, or phone) ties the row.
    expect(redactCsvRow('customer', ['name', 'source_id'], ['Erin Example', 'erin-src'], p)).toEqual(['', '']);
  });

  it("leaves another customer's row alone, even where it shares a value with the customer", () => {
    const bob = ['cust_bob', 'Bob', 'bob@shop.example', 'bob', 'Oliwa', '{"favourite":"blue-gnomes"}', '2026-01-01T00:00:00.000Z'];
    expect(redactCsvRow('customer', customerHeader, bob, p)).toBeNull();
    // Bob's metadata names the customer (a referral): only that copy goes, Bob's own fields stay.
    const referred = ['cust_bob', 'Bob', 'bob@shop.example', 'bob', 'Sopot', '{"referred_by":{"id":"cust_erin1","name":"Erin Example"}}', '2026-01-01'];
    expect(redactCsvRow('customer', customerHeader, referred, p)).toEqual([
      ...referred.slice(0, 5),
      '{"referred_by":{"id":"cust_erin1","name":null}}',
      '2026-01-01',
    ]);
  });

  it("anonymises a redemption or order row of the customer as the table's copies: equal cells emptied, JSON cells cleaned, ids kept", () => {
    const header = ['id', 'customer_id', 'customer_source_id', 'metadata', 'amount'];
    expect(redactCsvRow('redemption', header, ['r_1', 'cust_erin1', 'erin-src', '{"gift_for":"Erin Example","n":2}', '1000'], p)).toEqual([
      'r_1',
      'cust_erin1',
      '',
      '{"gift_for":null,"n":2}',
      '1000',
    ]);
    expect(redactCsvRow('redemption', header, ['r_2', 'cust_erin1', '', '', '1000'], p)).toBeNull();
  });

  it('property: a row never comes out of another width, and a rewritten row of the customer holds no personal value', () => {
    const cell = fc.oneof(fc.constantFrom(...p.values, p.customerId, 'cust_other', ''), fc.string({ maxLength: 8 }));
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 8 }), fc.constantFrom('customer', 'redemption', 'publication', 'order'), (cells, object) => {
        const header = cells.map((_, i) => customerHeader[i % customerHeader.length] as string);
        const out = redactCsvRow(object as 'customer', header, cells, p);
        if (!rowNamesCustomer(cells, p)) expect(out).toBeNull();
        const row = out ?? cells;
        expect(row).toHaveLength(cells.length);
        if (rowNamesCustomer(cells, p)) expect(row.some((c) => p.values.includes(c))).toBe(false);
      }),
    );
  });

  it('scan finds a personal value in a plain or a JSON cell', () => {
    expect(rowHoldsPersonal(['Erin Example', 'x'], p)).toBe(true);
    expect(rowHoldsPersonal(['o_1', '{"a":["Oliwa"]}'], p)).toBe(true);
    expect(rowHoldsPersonal(['o_1', '{"a":"Gdansk"}'], p)).toBe(false);
  });

  it("reads a one-column file's empty cell as a row (keepEmptyLines), so a rewrite keeps the row count", () => {
    const text = 'name\r\nAnn\r\n\r\nBob\r\n';
    expect(parseCsv(text, { ...DEFAULT_CSV_LIMITS, keepEmptyLines: true }).map((r) => r.fields)).toEqual([['name'], ['Ann'], [''], ['Bob']]);
    expect(parseCsv(text).map((r) => r.fields)).toEqual([['name'], ['Ann'], ['Bob']]);
  });
});
