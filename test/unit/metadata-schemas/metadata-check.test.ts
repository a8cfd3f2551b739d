import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MetadataValidationError } from '../../../lib/errors.js';
import { checkMetadata, metadataProblems, propertyProblem } from '../../../lib/metadata-schemas/metadata-check.js';
import type { MetadataPropertyDefinition, MetadataType } from '../../../lib/metadata-schemas/metadata-schema.js';

const def = (type: MetadataType, more: Partial<MetadataPropertyDefinition> = {}): MetadataPropertyDefinition => ({
  type,
  optional: true,
  array: false,
  deleted: false,
  objectType: null,
  minLength: null,
  maxLength: null,
  exactLength: null,
  eq: null,
  ne: null,
  lt: null,
  lte: null,
  gt: null,
  gte: null,
  ...more,
});

const schema = (properties: Record<string, MetadataPropertyDefinition>, allowDefinedOnly: boolean | null = null) => ({
  relatedObject: 'customer',
  properties,
  allowDefinedOnly,
});

describe('metadata check', () => {
  it('accepts each type its own values and refuses the others, naming the property and the value', () => {
    const accepted: [MetadataType, unknown][] = [
      ['string', 'a'],
      ['number', 1.5],
      ['boolean', false],
      ['date', '2024-02-29'],
      ['datetime', '2024-02-29T10:00:00.000Z'],
      ['datetime', '2024-02-29T10:00:00+02:00'],
      ['object', { a: 1 }],
      ['geopoint', { latitude: 1, longitude: 2 }],
      ['image_url', 'https://cdn.example.com/a/b.PNG?x=1'],
    ];
    for (const [type, value] of accepted) expect(propertyProblem('p', def(type), value), `${type} ${JSON.stringify(value)}`).toBeNull();
    const refused: [MetadataType, unknown][] = [
      ['string', 1],
      ['number', '1'],
      ['boolean', 'true'],
      ['date', '2023-02-29'],
      ['datetime', '2024-02-29'],
      ['datetime', '2024-02-29T10:00:00'],
      ['object', [1]],
      ['image_url', 'http.com'],
      ['image_url', 'https://cdn.example.com/a.gif'],
    ];
    for (const [type, value] of refused)
      expect(propertyProblem('p', def(type), value), `${type} ${JSON.stringify(value)}`).toMatch(/^p: must .*\(actual value is /);
  });

  it('checks every element of an array property and refuses a non-array', () => {
    const d = def('string', { array: true, eq: ['L1', 'L2'] });
    expect(propertyProblem('loc', d, ['L1', 'L2'])).toBeNull();
    expect(propertyProblem('loc', d, 'L1')).toBe("loc: must be an array (actual value is 'L1')");
    expect(propertyProblem('loc', d, ['L1', 'L3'])).toBe(
      'loc: must be an array, and every element: must be equal to one of L1,L2 (actual value is ["L1","L3"])',
    );
  });

  it('applies lengths to strings and bounds to numbers', () => {
    expect(propertyProblem('s', def('string', { minLength: 2, maxLength: 3 }), 'a')).toContain('at least 2');
    expect(propertyProblem('s', def('string', { exactLength: 2 }), 'abc')).toContain('exactly 2');
    expect(propertyProblem('n', def('number', { gt: 0, lte: 10 }), 0)).toContain('greater than 0');
    expect(propertyProblem('n', def('number', { gt: 0, lte: 10 }), 10)).toBeNull();
    expect(propertyProblem('n', def('number', { ne: [5] }), 5)).toContain('must not be equal');
  });

  it('requires a non-optional property (null is absent), refuses undefined keys only under allow_defined_only, and skips deleted properties', () => {
    const props = { size: def('number', { optional: false }), gone: def('number', { optional: false, deleted: true }) };
    expect(metadataProblems(schema(props), {})).toEqual(['size: is required']);
    expect(metadataProblems(schema(props), { size: null })).toEqual(['size: is required']);
    expect(metadataProblems(schema(props), { size: 1, gone: 'x', extra: 1 })).toEqual([]);
    expect(metadataProblems(schema(props, true), { size: 1, gone: 1, extra: 1 })).toEqual([
      'gone: is not defined in the metadata schema',
      'extra: is not defined in the metadata schema',
    ]);
  });

  it('throws metadata_validation_failed naming every offending property, and passes anything without a schema', () => {
    expect(() => checkMetadata(null, { anything: 1 })).not.toThrow();
    try {
      checkMetadata(schema({ a: def('number', { optional: false }), b: def('string') }), { b: 1 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(MetadataValidationError);
      const details = (error as MetadataValidationError).details ?? '';
      expect(details).toContain('a: is required');
      expect(details).toContain('b: must be a string (actual value is 1)');
    }
  });

  it('never refuses metadata whose values all fit their definitions (property)', () => {
    const value = fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean());
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), value), fc.boolean(), (metadata, required) => {
        const properties = Object.fromEntries(
          Object.entries(metadata).map(([k, v]) => [
            k,
            def(typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : 'boolean', { optional: !required }),
          ]),
        );
        return metadataProblems(schema(properties, true), metadata).length === 0;
      }),
    );
  });

  it('names exactly the properties whose value has the wrong type (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !k.includes(':')),
          fc.oneof(fc.string(), fc.integer()),
        ),
        (metadata) => {
          const properties = Object.fromEntries(Object.keys(metadata).map((k) => [k, def('number')]));
          const named = metadataProblems(schema(properties), metadata).map((p) => p.slice(0, p.indexOf(':')));
          const wrong = Object.entries(metadata)
            .filter(([, v]) => typeof v !== 'number')
            .map(([k]) => k);
          expect(named.sort()).toEqual(wrong.sort());
        },
      ),
    );
  });

  it('never refuses a deleted property, whatever its value (property)', () => {
    fc.assert(
      fc.property(fc.anything(), fc.constantFrom<MetadataType>('string', 'number', 'boolean', 'date', 'object'), (value, type) => {
        return propertyProblem('p', def(type, { optional: false, deleted: true, gt: 0, minLength: 3 }), value) === null;
      }),
    );
  });
});
