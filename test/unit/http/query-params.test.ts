import { describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/errors.js';
import { nestQuery } from '../../../lib/http/query-params.js';

describe('nestQuery', () => {
  it('reads bracketed names as nested objects and numbered or empty segments as arrays', () => {
    expect(
      nestQuery({
        limit: '5',
        'filters[junction]': 'or',
        'filters[campaigns][conditions][$in][0]': 'A',
        'filters[campaigns][conditions][$in][1]': 'B',
        'filters[categories][conditions][$in][]': 'X',
        'filters[active][conditions][$enabled]': '',
      }),
    ).toEqual({
      limit: '5',
      filters: {
        junction: 'or',
        campaigns: { conditions: { $in: ['A', 'B'] } },
        categories: { conditions: { $in: ['X'] } },
        active: { conditions: { $enabled: '' } },
      },
    });
  });

  it('reads a JSON object value as that object', () => {
    expect(nestQuery({ filters: '{"campaigns":{"conditions":{"$is":"A"}}}' })).toEqual({
      filters: { campaigns: { conditions: { $is: 'A' } } },
    });
  });

  it.each([
    [{ 'filters[a]': 'x', 'filters[a][b]': 'y' }],
    [{ 'filters[a][b]': 'y', 'filters[a]': 'x' }],
    [{ 'filters[a': 'x' }],
    [{ 'a[1][2][3][4][5][6][7]': 'x' }],
    [{ filters: '{oops' }],
  ])('refuses ambiguous or malformed parameters %j with invalid_query_params', (query) => {
    try {
      nestQuery(query);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).key).toBe('invalid_query_params');
    }
  });

  it('refuses __proto__ segments and JSON keys without touching Object.prototype, and keeps constructor as data', () => {
    const queries: Record<string, string>[] = [
      { 'filters[__proto__][polluted]': 'yes' },
      { 'a[b][__proto__][polluted]': 'yes' },
      { filters: '{"__proto__":{"polluted":"yes"}}' },
    ];
    for (const query of queries) {
      try {
        nestQuery(query);
        throw new Error(`accepted ${JSON.stringify(query)}`);
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ key: 'invalid_query_params' });
      }
    }
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect(nestQuery({ 'filters[constructor][prototype]': 'x', 'filters[toString]': 'y' })).toEqual({
      filters: { constructor: { prototype: 'x' }, toString: 'y' },
    });
  });
});
