import * as z from '../zod.js';
import { queryBoolean } from '../http/query-params.js';

/** A JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) as plain data. */
export type JsonSchema = { [key: string]: unknown };

export const isRecord = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

interface ZodInternals {
  _zod: { def: { type: string; in?: unknown; out?: unknown; innerType?: unknown; defaultValue?: unknown } };
}

const defOf = (schema: unknown): ZodInternals['_zod']['def'] | undefined => (schema as Partial<ZodInternals> | undefined)?._zod?.def;

/**
 * A query integer (lib/http/query-params.ts `queryInt`) is a digit string piped into a ranged
 * integer. On the wire it is text, but OpenAPI describes a query parameter by the value it
 * serialises: `integer` with its range tells a client more than a digit pattern.
 */
const isQueryNumber = (def: ZodInternals['_zod']['def'] | undefined): boolean =>
  def?.type === 'pipe' && defOf(def.out)?.type === 'number' && defOf(def.in)?.type === 'pipe';

function queryNumberOverride(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  // Likewise a query boolean (`true`/`false` text) is described as the boolean it stands for.
  if (ctx.zodSchema === queryBoolean) {
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
    ctx.jsonSchema.type = 'boolean';
    return;
  }
  const def = defOf(ctx.zodSchema);
  // zod leaves out the default of a transformed value in input mode; as an integer it is worth showing.
  if (def?.type === 'default' && isQueryNumber(defOf(def.innerType)) && typeof def.defaultValue === 'number') {
    ctx.jsonSchema.default = def.defaultValue;
    return;
  }
  if (!def || !isQueryNumber(def)) return;
  const target = z.toJSONSchema(def.out as z.core.$ZodType, { target: 'draft-2020-12' });
  if (ctx.jsonSchema.default !== undefined) target.default = ctx.jsonSchema.default;
  delete target.$schema;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, target);
}

const SAFE_MAX = Number.MAX_SAFE_INTEGER;
/** Keywords whose value maps names to schemas: the names themselves are data, never keywords. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/**
 * Drops what only makes the document noisy: `$schema`/`$id` inside components, zod's
 * reconstruction of `format` as a regular expression, and the ±2^53 bounds every `z.int()` carries.
 */
export function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!isRecord(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === '$id') continue;
    if (key === 'pattern' && typeof node.format === 'string') continue;
    if (key === 'minimum' && value === -SAFE_MAX) continue;
    if (key === 'maximum' && value === SAFE_MAX) continue;
    out[key] = SCHEMA_MAPS.has(key) && isRecord(value) ? Object.fromEntries(Object.entries(value).map(([name, s]) => [name, tidy(s)])) : tidy(value);
  }
  return out;
}

/**
 * Without `additionalProperties: false`: a request's schemas are strict so that they say exactly
 * what a route reads, but keys they do not name are ignored, not refused (lib/http/lenient.ts).
 */
function openObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openObjects);
  if (!isRecord(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] =
      SCHEMA_MAPS.has(key) && isRecord(value) ? Object.fromEntries(Object.entries(value).map(([name, s]) => [name, openObjects(s)])) : openObjects(value);
  }
  return out;
}

/** A request schema as a client sends it (`io: 'input'`): defaults are optional, transforms are not shown, unknown keys are allowed. */
export function requestJsonSchema(schema: z.core.$ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    override: queryNumberOverride,
  });
  return openObjects(tidy(json)) as JsonSchema;
}

/**
 * Reply schemas as components: one registry, so a schema nested in another (a category in a
 * campaign) is a `$ref` to its own component rather than a copy.
 */
export function replyComponents(schemas: Readonly<Record<string, z.core.$ZodType>>, refPrefix: string): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: converted } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `${refPrefix}${id}`,
  });
  const out: Record<string, JsonSchema> = {};
  for (const id of Object.keys(converted).sort()) out[id] = tidy(converted[id]) as JsonSchema;
  return out;
}
