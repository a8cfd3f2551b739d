import { MetadataValidationError } from '../errors.js';
import type { MetadataPropertyDefinition, MetadataSchema, MetadataType } from './metadata-schema.js';

/*
 * The metadata check itself: pure, no I/O. Problems read as Voucherify's `metadata_validation_failed`
 * details do: `name: problem, problem (actual value is …)`, one property after another.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// ISO 8601 with a time and a zone (Z or ±hh:mm), optional fraction.
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/;
const IMAGE_URL = /^https?:\/\/[^\s/?#]+\.[^\s/?#]+\/[^\s?#]*\.(jpe?g|png)([?#]\S*)?$/i;

function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() + 1 === Number(m[2]) && d.getUTCDate() === Number(m[3]);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const fits: Record<MetadataType, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  date: (v) => typeof v === 'string' && isCalendarDate(v),
  datetime: (v) => {
    if (typeof v !== 'string') return false;
    const m = DATE_TIME.exec(v);
    return m !== null && isCalendarDate(m[1] as string) && !Number.isNaN(Date.parse(v));
  },
  object: isPlainObject,
  // The reference does not say how a geopoint is written: any object is taken (docs/decisions.md "Metadata schemas").
  geopoint: isPlainObject,
  image_url: (v) => typeof v === 'string' && IMAGE_URL.test(v),
};

const expected: Record<MetadataType, string> = {
  string: 'must be a string',
  number: 'must be a number',
  boolean: 'must be a boolean',
  date: 'must be a date (YYYY-MM-DD)',
  datetime: 'must be an ISO 8601 date-time with a time zone',
  object: 'must be an object',
  geopoint: 'must be an object',
  image_url: 'must be a URL pointing to JPG/JPEG or PNG resource',
};

const shown = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : JSON.stringify(value));

/** What one element breaks: its type first (nothing else is checked on a wrong type), then each constraint. */
function elementProblems(d: MetadataPropertyDefinition, value: unknown): string[] {
  if (!fits[d.type](value)) return [expected[d.type]];
  const problems: string[] = [];
  if (typeof value === 'string' && d.type === 'string') {
    const length = [...value].length;
    if (d.exactLength !== null && length !== d.exactLength) problems.push(`must be exactly ${d.exactLength} characters long`);
    if (d.minLength !== null && length < d.minLength) problems.push(`must be at least ${d.minLength} characters long`);
    if (d.maxLength !== null && length > d.maxLength) problems.push(`must be at most ${d.maxLength} characters long`);
  }
  if (typeof value === 'number') {
    if (d.ne?.includes(value)) problems.push(`must not be equal to any of ${d.ne.join(',')}`);
    if (d.lt !== null && !(value < d.lt)) problems.push(`must be less than ${d.lt}`);
    if (d.lte !== null && !(value <= d.lte)) problems.push(`must be less than or equal to ${d.lte}`);
    if (d.gt !== null && !(value > d.gt)) problems.push(`must be greater than ${d.gt}`);
    if (d.gte !== null && !(value >= d.gte)) problems.push(`must be greater than or equal to ${d.gte}`);
  }
  if ((typeof value === 'string' || typeof value === 'number') && d.eq !== null && d.eq.length > 0 && !d.eq.includes(value)) {
    problems.push(`must be equal to one of ${d.eq.join(',')}`);
  }
  return problems;
}

/** The problem of one defined property, or null. `value` undefined or null means absent (the house's reading of null). */
export function propertyProblem(name: string, d: MetadataPropertyDefinition, value: unknown): string | null {
  if (d.deleted) return null;
  if (value === undefined || value === null) return d.optional ? null : `${name}: is required`;
  if (!d.array) {
    const problems = elementProblems(d, value);
    return problems.length > 0 ? `${name}: ${problems.join(', ')} (actual value is ${shown(value)})` : null;
  }
  if (!Array.isArray(value)) return `${name}: must be an array (actual value is ${shown(value)})`;
  const bad = value.map((v) => elementProblems(d, v)).find((p) => p.length > 0);
  return bad ? `${name}: must be an array, and every element: ${bad.join(', ')} (actual value is ${shown(value)})` : null;
}

/**
 * Every problem of `metadata` under `schema`: each defined (not deleted) property has its type and
 * constraints, each required one is present, and under `allow_defined_only` no other key is set.
 * Empty when it passes.
 */
export function metadataProblems(schema: Pick<MetadataSchema, 'properties' | 'allowDefinedOnly'>, metadata: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  for (const [name, definition] of Object.entries(schema.properties)) {
    const problem = propertyProblem(name, definition, Object.hasOwn(metadata, name) ? metadata[name] : undefined);
    if (problem) problems.push(problem);
  }
  if (schema.allowDefinedOnly === true) {
    for (const [name, value] of Object.entries(metadata)) {
      const definition = Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
      if ((definition === undefined || definition.deleted) && value !== null) problems.push(`${name}: is not defined in the metadata schema`);
    }
  }
  return problems;
}

/**
 * Checks metadata against its object's schema; no schema passes everything.
 * @throws MetadataValidationError naming each offending property (Voucherify's `metadata_validation_failed`).
 */
export function checkMetadata(
  schema: Pick<MetadataSchema, 'properties' | 'allowDefinedOnly' | 'relatedObject'> | null,
  metadata: Readonly<Record<string, unknown>>,
): void {
  if (schema === null) return;
  const problems = metadataProblems(schema, metadata);
  if (problems.length > 0) throw new MetadataValidationError(`${problems.join('; ')} (metadata schema of ${schema.relatedObject})`);
}
