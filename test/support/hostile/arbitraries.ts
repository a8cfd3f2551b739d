import fc from 'fast-check';
import * as z from '../../../lib/zod.js';

/** The subset of JSON Schema (draft 2020-12, as zod 4 writes it) the generators read. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

export const jsonSchemaOf = (schema: z.core.$ZodType): JsonSchema => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as unknown as JsonSchema;

/** Names every plain object inherits, and the one that sets a prototype: as map keys, query segments and extra fields. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

/** Map keys that are not well-formed Unicode (lone UTF-16 surrogates): DynamoDB refuses them as attribute names. */
export const LONE_SURROGATE_KEYS = ['\uD800', '\uDC00X', 'X\uD800', 'a\uDFFFb'];

/** Strings that make keys, paths and parsers trip: separators, traversal, escapes, control and unpaired UTF-16. */
export const nastyStrings: readonly string[] = [
  '',
  ' ',
  '#',
  'a#b',
  'P#x#CAMPAIGN#y',
  '%',
  '%25',
  '%00',
  '%2F',
  '/',
  'a/b',
  '.',
  '..',
  '../..',
  '../../etc/passwd',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  '\r\n',
  '\t',
  '\uD800',
  'x\uDC00y',
  '\uDC00X',
  'X\uD800',
  '\uFFFF',
  '\u202E',
  '\u200B',
  '😀',
  'Ω≈ç√∫',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a Log4Shell probe, meant literally
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '0x10',
  '1.5',
  '99999999999999999999',
  '[object Object]',
];

/** Query-number spellings a parser might accept by accident. */
export const nastyNumbers: readonly string[] = ['', '-1', '0', '1.5', '1e3', '1e309', 'NaN', 'Infinity', '-0', '+1', '0x1F', ' 1', '1 ', '99999999999', '１２'];

/** Strings, mostly short and hostile, sometimes huge (up to a little over 1 MiB). */
export const hostileString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...nastyStrings) },
    { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom('#', '%', '/', '.', '\u0000', '\uD800', 'a'), maxLength: 30 }) },
    { weight: 1, arbitrary: fc.constantFrom(256, 1_001, 2_049, 10_240, 400_000).map((n) => 'x'.repeat(n)) },
    { weight: 1, arbitrary: fc.constantFrom(1_048_577).map((n) => 'y'.repeat(n)) },
  );

/** Any JSON value of the wrong kind for most places: numbers out of range, floats, NaN-ish strings, nesting. */
export const hostileValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: hostileString() },
    {
      weight: 3,
      arbitrary: fc.constantFrom<unknown>(
        null,
        true,
        false,
        0,
        -1,
        -0.5,
        0.5,
        1.5,
        1e-200,
        5e-324,
        1e200,
        2 ** 31,
        2 ** 53 + 2,
        -(2 ** 53) - 2,
        1e308,
        -1e308,
        [],
        {},
        [null],
        { '': '' },
      ),
    },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.constantFrom(17, 40, 300).map(nested) },
    { weight: 1, arbitrary: fc.constantFrom(1_000, 20_000).map((n) => Array.from({ length: n }, (_, i) => i)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );

/**
 * JSON text nested `levels` containers deep (`{"a":{"a":…1…}}` or `[[…]]`), built as text:
 * JSON.stringify overflows the stack a few thousand levels down.
 */
export function deepJson(shape: 'object' | 'array' | 'mixed', levels: number): string {
  if (shape === 'array') return `${'['.repeat(levels)}${']'.repeat(levels)}`;
  if (shape === 'object') return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const pairs = Math.ceil(levels / 2);
  return `${'[{"a":'.repeat(pairs)}1${'}]'.repeat(pairs)}`;
}

/** An object nested `depth` levels deep. */
export function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? { a: value } : [value];
  return value;
}

interface Ctx {
  root: JsonSchema;
  depth: number;
  /** Where string leaves come from (valid-ish strings by default; a project's ids in the isolation test). */
  strings?: fc.Arbitrary<string>;
  /** Only the required properties of objects: requests that pass validation more often. */
  minimal?: boolean;
}

const isoDate = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true });

function stringArb(schema: JsonSchema, ctx: Ctx): fc.Arbitrary<string> {
  if (ctx.strings && !schema.format && !schema.pattern) return ctx.strings;
  if (schema.format === 'date') return isoDate.map((d) => d.toISOString().slice(0, 10));
  if (schema.format === 'date-time') return isoDate.map((d) => d.toISOString());
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 24, 24);
  if (schema.pattern) {
    try {
      const re = new RegExp(schema.pattern);
      const fits = (s: string) => re.test(s) && s.length >= minLength && s.length <= (schema.maxLength ?? Infinity);
      const matching = fc.stringMatching(re).filter(fits);
      // `.` and `..` fit most code patterns yet can never be addressed in a URL path: offered on purpose.
      const dotSegments = ['.', '..'].filter(fits);
      return dotSegments.length > 0 ? fc.oneof({ weight: 4, arbitrary: matching }, { weight: 1, arbitrary: fc.constantFrom(...dotSegments) }) : matching;
    } catch {
      // Not a JavaScript regular expression: any string will do for a valid-ish request.
    }
  }
  if (ctx.strings) return ctx.strings;
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
}

function numberArb(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lo = Math.max(schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1e6), -1e9);
  const hi = Math.min(schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1e6), 1e9);
  if (integer) return fc.integer({ min: Math.ceil(Math.min(lo, hi)), max: Math.floor(Math.max(lo, hi)) });
  return fc.double({ min: Math.min(lo, hi), max: Math.max(lo, hi), noNaN: true });
}

function resolve(schema: JsonSchema, ctx: Ctx): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace(/^#\/\$defs\//, '');
  return ctx.root.$defs?.[name] ?? {};
}

/** A value that (mostly) satisfies the schema: the starting point that mutations then break. */
export function validish(schema: JsonSchema, ctx: Ctx): fc.Arbitrary<unknown> {
  const s = resolve(schema, ctx);
  const deeper: Ctx = { ...ctx, depth: ctx.depth + 1 };
  if (ctx.depth > 6) return fc.constant(null);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union && union.length > 0) return fc.oneof(...union.map((u) => validish(u, deeper)));
  if (s.allOf && s.allOf.length > 0) return validish(s.allOf[0] as JsonSchema, deeper);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringArb(s, ctx);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = s.minItems ?? 0;
      const items = s.items ? validish(s.items, deeper) : fc.jsonValue({ maxDepth: 1 });
      return fc.array(items, { minLength: min, maxLength: Math.max(min, Math.min(s.maxItems ?? 3, 3)) });
    }
    case 'object': {
      const required = new Set(s.required ?? []);
      const props = Object.fromEntries(Object.entries(s.properties ?? {}).filter(([k]) => !ctx.minimal || required.has(k)));
      const record = fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validish(v, deeper)])), {
        requiredKeys: Object.keys(props).filter((k) => required.has(k)),
      });
      if (typeof s.additionalProperties === 'object' && Object.keys(props).length === 0) {
        const free = s.propertyNames ? stringArb(resolve(s.propertyNames, ctx), { ...ctx, strings: undefined }) : fc.string({ maxLength: 12 });
        // Map keys (metadata, schema properties) that every plain object already has, or that hold lone surrogates: both broke storage once.
        const names = fc.oneof(
          { weight: 4, arbitrary: free },
          { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
          { weight: 1, arbitrary: fc.constantFrom(...LONE_SURROGATE_KEYS) },
        );
        return fc.dictionary(names, validish(s.additionalProperties, deeper), { maxKeys: 3 });
      }
      return record;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Paths to every node of a JSON value (objects and arrays included), root first. */
export function pathsOf(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (out.length > 200) return out;
  if (Array.isArray(value)) for (const [i, v] of value.entries()) pathsOf(v, [...prefix, i], out);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

function setAt(root: unknown, path: (string | number)[], edit: (parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  if (path.length === 0) return root;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  edit(node, path[path.length - 1] as string | number);
  return copy;
}

/** One way of breaking a valid-ish JSON body. */
export type BodyMutation =
  | { kind: 'replace'; pick: number; value: unknown }
  | { kind: 'delete'; pick: number }
  | { kind: 'extra'; pick: number; key: string; value: unknown }
  | { kind: 'root'; value: unknown }
  | { kind: 'none' };

export const bodyMutation = (): fc.Arbitrary<BodyMutation> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: hostileValue() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('extra' as const),
        pick: fc.nat(),
        key: fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, ...LONE_SURROGATE_KEYS, 'extra', '', '$where', 'a.b', '#'), fc.string({ maxLength: 10 })),
        value: hostileValue(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('root' as const), value: hostileValue() }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
  );

export function applyBodyMutation(value: unknown, m: BodyMutation): unknown {
  if (m.kind === 'none') return value;
  if (m.kind === 'root') return m.value;
  const paths = pathsOf(value);
  const path = paths[m.pick % paths.length] ?? [];
  if (m.kind === 'replace') return path.length === 0 ? m.value : setAt(value, path, (p, k) => void (p[k] = m.value));
  if (m.kind === 'delete') {
    if (path.length === 0) return undefined;
    return setAt(value, path, (p, k) => {
      if (Array.isArray(p)) p.splice(Number(k), 1);
      else delete p[k];
    });
  }
  const containers = paths.filter((p) => {
    let node: unknown = value;
    for (const key of p) node = (node as Record<string | number, unknown>)[key];
    return node !== null && typeof node === 'object' && !Array.isArray(node);
  });
  const target = containers[m.pick % Math.max(containers.length, 1)];
  if (!target) return value;
  if (target.length === 0) return { ...(value as object), [m.key]: m.value };
  return setAt(value, target, (p, k) => void (p[k] = { ...(p[k] as object), [m.key]: m.value }));
}

/** What travels on the wire, after the JSON value: sometimes not JSON at all, or sent as the wrong type. */
export type Transport =
  | { kind: 'json' }
  | { kind: 'malformed'; cut: number; junk: string }
  | { kind: 'content-type'; value: string | null }
  | { kind: 'oversized' }
  | { kind: 'deep'; shape: 'object' | 'array' | 'mixed'; depth: number; at: 'metadata' | 'field' | 'root'; pick: number }
  | { kind: 'base64-garbage' };

export const transport = (): fc.Arbitrary<Transport> =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant({ kind: 'json' as const }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('malformed' as const),
        cut: fc.nat(),
        junk: fc.constantFrom('', '{', '}', ',', '"', "'", 'NaN', '\u0000', '\uFEFF', ']]]]', '{"a":', '/*', 'undefined'),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('content-type' as const),
        value: fc.constantFrom(
          null,
          '',
          'text/plain',
          'application/xml',
          'application/x-www-form-urlencoded',
          'application/json; charset=utf-16',
          'APPLICATION/JSON',
          'application/vnd.api+json',
          'multipart/form-data; boundary=x',
          '*/*',
          'application/json\u0000',
        ),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'oversized' as const }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('deep' as const),
        shape: fc.constantFrom('object' as const, 'array' as const, 'mixed' as const),
        // Just past the bound, past where JSON.stringify overflowed (about 4,100 levels inside a Lambda), and far past it.
        depth: fc.constantFrom(33, 4_100, 10_000, 100_000),
        at: fc.constantFrom('metadata' as const, 'field' as const, 'root' as const),
        pick: fc.nat(),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'base64-garbage' as const }) },
  );

/** Query string edits: unknown names, duplicates, bad numbers, deep brackets, broken escapes. */
export type QueryMutation =
  | { kind: 'none' }
  | { kind: 'duplicate'; pick: number }
  | { kind: 'unknown'; name: string; value: string }
  | { kind: 'number'; pick: number; value: string }
  | { kind: 'value'; pick: number; value: string }
  | { kind: 'raw'; text: string }
  | { kind: 'json'; name: string; text: string };

export const queryMutation = (): fc.Arbitrary<QueryMutation> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), pick: fc.nat() }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('unknown' as const),
        name: fc.constantFrom(
          'x',
          'filters[a][b][c][d][e][f][g][h]',
          'a[]',
          '[',
          ']',
          '__proto__',
          'limit[0]',
          'filters[__proto__][polluted]',
          'filters[constructor][prototype][polluted]',
        ),
        value: hostileString(),
      }),
    },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('number' as const), pick: fc.nat(), value: fc.constantFrom(...nastyNumbers) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('value' as const), pick: fc.nat(), value: hostileString() }) },
    {
      weight: 1,
      // JSON read from the query (list filters): nested far past the bound, or with lone surrogates written as escapes.
      arbitrary: fc.record({
        kind: fc.constant('json' as const),
        name: fc.constantFrom('filters', 'x'),
        text: fc.constantFrom(deepJson('object', 10_000), deepJson('mixed', 4_100), '{"\\ud800":1}', '{"junction":"\\udc00X"}', '{"a":{"b\\ud800c":[]}}'),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('raw' as const),
        text: fc.constantFrom('%', '%ZZ', '&&&', '=', 'a=%E0%A4%A', '&=&=', 'a==b', '%00=%00', 'a=1&a=1&a=1'),
      }),
    },
  );

const encodePair = (name: string, value: string) => `${encodeURIComponent(name)}=${encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))}`;

export function buildQuery(valid: Record<string, unknown>, m: QueryMutation): string {
  const pairs: [string, string][] = Object.entries(valid)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
  const at = (pick: number) => (pairs.length > 0 ? pick % pairs.length : -1);
  switch (m.kind) {
    case 'duplicate': {
      const i = at(m.pick);
      if (i >= 0) pairs.push([pairs[i]?.[0] ?? 'x', pairs[i]?.[1] ?? '']);
      else pairs.push(['limit', '1'], ['limit', '2']);
      break;
    }
    case 'unknown':
      pairs.push([m.name, m.value]);
      break;
    case 'number':
    case 'value': {
      const i = at(m.pick);
      if (i >= 0) pairs[i] = [pairs[i]?.[0] ?? 'x', m.value];
      else pairs.push(['limit', m.value]);
      break;
    }
    case 'raw':
      return [...pairs.map(([k, v]) => encodePair(k, v)), m.text].join('&');
    case 'json':
      pairs.push([m.name, m.text]);
      break;
    default:
      break;
  }
  return pairs.map(([k, v]) => encodePair(k, v)).join('&');
}
