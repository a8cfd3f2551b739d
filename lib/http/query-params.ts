import * as z from '../zod.js';
import { InvalidQueryParamsError } from '../errors.js';
import { FORBIDDEN_KEY, ForbiddenKeyError, parseJsonText, RefusedJsonError } from './json-text.js';

/** A query integer: digits only (no sign, exponent or fraction), then range-checked; either failure names the range (`limit=-1` is not "not an integer"). */
export const queryInt = (min: number, max: number) =>
  z.pipe(
    z.pipe(z.string().check(z.regex(/^\d{1,9}$/, `must be a whole number from ${min} to ${max}`)), z.transform(Number)),
    z.int().check(z.minimum(min, `must be a whole number from ${min} to ${max}`), z.maximum(max, `must be a whole number from ${min} to ${max}`)),
  );

/** A query boolean: exactly `true` or `false`. */
export const queryBoolean = z.pipe(
  z.enum(['true', 'false']),
  z.transform((v) => v === 'true'),
);

type Nested = { [key: string]: Nested | string };

/** A bracketed parameter name as its path: `filters[a][0]` → `['filters', 'a', '0']`; null for a name that is not one. */
export function querySegments(name: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  if (!match) return null;
  return [match[1] as string, ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] as string)];
}

const MAX_DEPTH = 6;

/**
 * Reads bracketed query parameters as objects, the way Voucherify's clients send list filters:
 * `filters[campaigns][conditions][$in][0]=A` becomes `{ filters: { campaigns: { conditions: { $in: ['A'] } } } }`.
 * Numeric or empty segments (`[0]`, `[]`) make arrays. A parameter sent both as a value and as an
 * object, or nested deeper than six levels, is refused. A bracketless `filters={...}` JSON value
 * is read as its object.
 * @throws InvalidQueryParamsError naming the parameter.
 */
export function nestQuery(flat: Record<string, string>): Record<string, unknown> {
  const root: Nested = {};
  for (const [key, value] of Object.entries(flat)) {
    const segments = querySegments(key);
    if (!segments) throw new InvalidQueryParamsError(`Property .${key} is not a valid parameter name`);
    if (segments.length > MAX_DEPTH + 1) throw new InvalidQueryParamsError(`Property .${key} is nested too deeply`);
    // `a[__proto__][x]=1` would otherwise walk into Object.prototype and write there.
    if (segments.includes(FORBIDDEN_KEY)) throw new InvalidQueryParamsError(`Property .${key}: ${new ForbiddenKeyError().message}`);
    let node: Nested = root;
    segments.forEach((segment, i) => {
      const name = segment === '' ? String(Object.keys(node).length) : segment;
      if (i === segments.length - 1) {
        if (Object.hasOwn(node, name)) throw new InvalidQueryParamsError(`Property .${key} is given more than once`);
        node[name] = value;
        return;
      }
      const next = Object.hasOwn(node, name) ? (node[name] as Nested | string) : {};
      if (typeof next === 'string') throw new InvalidQueryParamsError(`Property .${key} is given both as a value and as an object`);
      node[name] = next;
      node = next;
    });
  }
  const out = arrays(root) as Record<string, unknown>;
  for (const [name, value] of Object.entries(out)) {
    if (typeof value === 'string' && value.trim().startsWith('{')) {
      try {
        out[name] = parseJsonText(value);
      } catch (error) {
        if (error instanceof RefusedJsonError) throw new InvalidQueryParamsError(error.at([name]), error);
        throw new InvalidQueryParamsError(`Property .${name} is not valid JSON`, error);
      }
    }
  }
  return out;
}

/** Objects whose keys are exactly 0..n-1 become arrays. */
function arrays(node: Nested | string): unknown {
  if (typeof node === 'string') return node;
  const entries = Object.entries(node);
  const isList = entries.length > 0 && entries.every(([k], i) => k === String(i));
  if (isList) return entries.map(([, v]) => arrays(v));
  return Object.fromEntries(entries.map(([k, v]) => [k, arrays(v)]));
}
