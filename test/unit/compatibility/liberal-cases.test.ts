import { describe, expect, it } from 'vitest';
import { liberalCases, UNDOCUMENTED_KEY } from '../../../scripts/compatibility/liberal-cases.js';
import type { RequestCase } from '../../../scripts/compatibility/request-cases.js';
import type { Outcome, RequestCheckResult } from '../../../scripts/compatibility/request-check.js';
import { judge } from '../../../scripts/compatibility/request-report.js';
import type { Json } from '../../../scripts/compatibility/schema-fields.js';

const base: RequestCase = {
  operationId: 'create-thing',
  kind: 'required',
  variant: '',
  location: null,
  field: null,
  value: null,
  scope: null,
  query: {},
  body: { name: 'n', voucher: { type: 'DISCOUNT_VOUCHER' } },
  bodyType: 'application/json',
};

const field = (path: string, body: Json): RequestCase => ({ ...base, kind: 'field', location: 'body', field: path, value: 1, scope: path, body });

describe('the liberal reader variants of the request-side check', () => {
  it('adds an undocumented key at the top and inside the first object a field case sent', () => {
    const cases = liberalCases(
      base,
      [field('voucher.discount.percent_off', { name: 'n', voucher: { type: 'DISCOUNT_VOUCHER', discount: { percent_off: 1 } } })],
      false,
    );
    const keys = cases.filter((c) => c.kind === 'undocumented_key');
    expect(keys.map((c) => c.body)).toEqual([
      { name: 'n', voucher: { type: 'DISCOUNT_VOUCHER' }, [UNDOCUMENTED_KEY]: 'ignored' },
      { name: 'n', voucher: { type: 'DISCOUNT_VOUCHER', discount: { percent_off: 1 }, [UNDOCUMENTED_KEY]: 'ignored' } },
    ]);
  });

  it('nulls an optional field where the required request lacks it, once per place, and never a required one', () => {
    const cases = liberalCases(
      base,
      [
        field('voucher.discount.percent_off', { name: 'n', voucher: { type: 'DISCOUNT_VOUCHER', discount: { percent_off: 1 } } }),
        field('voucher.discount.type', { name: 'n', voucher: { type: 'DISCOUNT_VOUCHER', discount: { type: 'PERCENT' } } }),
        field('name', { name: 'other', voucher: { type: 'DISCOUNT_VOUCHER' } }),
        field('metadata', { name: 'n', voucher: { type: 'DISCOUNT_VOUCHER' }, metadata: { a: 1 } }),
        field('tags[]', { name: 'n', voucher: { type: 'DISCOUNT_VOUCHER' }, tags: ['x'] }),
      ],
      false,
    );
    const nulls = cases.filter((c) => c.kind === 'null_field');
    expect(nulls.map((c) => [c.field, c.body])).toEqual([
      ['voucher.discount', { name: 'n', voucher: { type: 'DISCOUNT_VOUCHER', discount: null } }],
      ['metadata', { name: 'n', voucher: { type: 'DISCOUNT_VOUCHER' }, metadata: null }],
    ]);
  });

  it('asks for the trailing slash once, and adds a query key to a request without a body', () => {
    const get: RequestCase = { ...base, body: undefined, bodyType: null, query: { limit: 5 } };
    const cases = liberalCases(get, [], true);
    expect(cases.map((c) => c.kind)).toEqual(['undocumented_key', 'trailing_slash']);
    expect(cases[0]?.query).toEqual({ limit: 5, [UNDOCUMENTED_KEY]: 'ignored' });
    expect(cases[1]?.trailingSlash).toBe(true);
  });

  it('fails the check on any refusal of a variant, and on a 404 for the route, whatever the exceptions say', () => {
    const outcome = (kind: Outcome['kind'], status: number, verdict: Outcome['verdict'], details: string): Outcome => ({
      operationId: 'create-thing',
      kind,
      variant: '',
      location: 'body',
      field: 'voucher',
      value: null,
      verdict,
      status,
      key: 'x',
      details,
    });
    const result: RequestCheckResult = {
      outcomes: [
        outcome('null_field', 400, 'refused', 'Property .voucher Invalid input'),
        outcome('trailing_slash', 404, 'not_found', 'No route POST /v1/things/'),
        outcome('trailing_slash', 404, 'not_found', 'Cannot find thing with id x'),
      ],
      requests: {},
      durations: {},
      durationMs: 0,
    };
    const verdicts = judge(result, [{ line: 1, operationId: 'create-thing', selection: '*', field: 'body.voucher', value: '*', why: 'w' }]);
    expect(verdicts.undocumented.map((o) => o.kind)).toEqual(['null_field', 'trailing_slash']);
  });
});
