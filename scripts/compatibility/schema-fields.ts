/**
 * Flattens a JSON Schema (OpenAPI 3.0 or 3.1 flavour) into the fields a client can see: one entry
 * per dotted path (`parameters.loyalty.points`, `campaigns[].voucher.type`) with the JSON types and
 * enum values the schema allows there. Both our document and Voucherify's are read this way, so the
 * comparison is between like and like whatever composition keywords each document uses.
 */

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export interface FieldInfo {
  types: Set<JsonType>;
  enumValues: Set<string> | null;
}

export type FieldMap = Map<string, FieldInfo>;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How deep the walk goes: deeper fields are sub-objects of sub-objects, compared by their parents. */
const MAX_DEPTH = 6;

export class SchemaReader {
  constructor(private readonly document: JsonObject) {}

  /** Resolves a local `$ref` (`#/components/schemas/X`). */
  resolve(ref: string): JsonObject {
    if (!ref.startsWith('#/')) throw new Error(`Only local references are supported: ${ref}`);
    let node: Json = this.document;
    for (const raw of ref.slice(2).split('/')) {
      const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (!isObject(node) || !(part in node)) throw new Error(`Unresolvable reference ${ref}`);
      node = node[part] ?? null;
    }
    if (!isObject(node)) throw new Error(`Reference ${ref} is not a schema`);
    return node;
  }

  /** The fields of a schema, keyed by dotted path; the root itself is the path ''. */
  fields(schema: Json | undefined): FieldMap {
    const out: FieldMap = new Map();
    if (schema !== undefined) this.walk(schema, '', 0, new Set(), out);
    return out;
  }

  private walk(schema: Json, path: string, depth: number, refs: Set<string>, out: FieldMap): void {
    if (!isObject(schema)) return;
    if (typeof schema.$ref === 'string') {
      if (refs.has(schema.$ref)) return; // a recursive schema: its inner fields are already listed
      const next = new Set(refs).add(schema.$ref);
      this.walk(this.resolve(schema.$ref), path, depth, next, out);
      // 3.1 allows siblings of $ref (e.g. a description, or nullability via anyOf); fall through for those
    }
    const info = entry(out, path);
    for (const t of typesOf(schema)) info.types.add(t);
    if (schema.nullable === true) info.types.add('null');
    const enumValues = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const ?? null] : null;
    if (enumValues) {
      info.enumValues ??= new Set();
      for (const v of enumValues) {
        if (v === null) info.types.add('null');
        else info.enumValues.add(String(v));
      }
      for (const v of enumValues) if (v !== null) info.types.add(jsonTypeOf(v));
    }
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const parts = schema[key];
      if (Array.isArray(parts)) for (const part of parts) this.walk(part, path, depth, refs, out);
    }
    if (depth >= MAX_DEPTH) return;
    if (isObject(schema.properties)) {
      info.types.add('object');
      for (const [name, child] of Object.entries(schema.properties)) {
        this.walk(child, path ? `${path}.${name}` : name, depth + 1, refs, out);
      }
    }
    if (schema.items !== undefined) {
      info.types.add('array');
      this.walk(schema.items, `${path}[]`, depth + 1, refs, out);
    }
  }
}

function entry(out: FieldMap, path: string): FieldInfo {
  let info = out.get(path);
  if (!info) {
    info = { types: new Set(), enumValues: null };
    out.set(path, info);
  }
  return info;
}

function typesOf(schema: JsonObject): JsonType[] {
  const t = schema.type;
  if (typeof t === 'string') return [t as JsonType];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string') as JsonType[];
  return [];
}

function jsonTypeOf(value: Json): JsonType {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

export type { Json, JsonObject };
export { isObject };
