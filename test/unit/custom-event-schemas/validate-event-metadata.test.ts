import { describe, expect, it } from 'vitest';
import type { CustomEventSchema, EventPropertyDefinition } from '../../../lib/custom-event-schemas/event-schema.js';
import { validateEventMetadata } from '../../../lib/custom-event-schemas/event-schema.service.js';
import { MetadataValidationError } from '../../../lib/errors.js';

const prop = (type: EventPropertyDefinition['type'], optional = true, deleted = false): EventPropertyDefinition => ({ type, optional, deleted });

const schema = (properties: Record<string, EventPropertyDefinition>): CustomEventSchema => ({
  id: 'ms_1',
  projectId: 'proj_1',
  name: 'evt',
  properties,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
});

function problems(s: CustomEventSchema, metadata: Record<string, unknown>): string | null {
  try {
    validateEventMetadata(s, metadata);
    return null;
  } catch (error) {
    if (error instanceof MetadataValidationError) return error.details ?? '';
    throw error;
  }
}

describe('validateEventMetadata', () => {
  it.each([
    ['string', 'text', 42],
    ['number', 3.5, '3.5'],
    ['number', -1, true],
    ['boolean', false, 'false'],
    ['date', '2026-02-28', '2026-02-30'],
    ['date', '2024-02-29', '2026-02-28T10:00:00Z'],
    ['datetime', '2026-02-28T10:00:00Z', '2026-02-28'],
    ['datetime', '2026-02-28T10:00:00.123+02:00', '2026-02-28T10:00:00'],
  ] as const)('accepts a %s property holding %j and refuses %j naming it', (type, good, bad) => {
    const s = schema({ p: prop(type) });
    expect(problems(s, { p: good })).toBeNull();
    expect(problems(s, { p: bad })).toMatch(/^p: must be /);
  });

  it('requires a non-optional property, counting null as absent, and lets an optional one be absent or null', () => {
    const s = schema({ need: prop('number', false), may: prop('string', true) });
    expect(problems(s, {})).toBe('need: is required (custom event evt)');
    expect(problems(s, { need: null })).toBe('need: is required (custom event evt)');
    expect(problems(s, { need: 1, may: null })).toBeNull();
  });

  it('ignores deleted properties and passes properties the schema does not define', () => {
    const s = schema({ gone: prop('number', false, true) });
    expect(problems(s, { gone: 'text', extra: { nested: true } })).toBeNull();
  });

  it('names every offending property with its actual value', () => {
    const s = schema({ a: prop('number'), b: prop('boolean', false) });
    expect(problems(s, { a: 'x' })).toBe("a: must be a number (actual value is 'x'); b: is required (custom event evt)");
  });
});
