/**
 * The reference's request side (body, query and path parameters) of each operation we implement,
 * reduced to the structural keywords a request can be built from: types, formats, enums, bounds,
 * required lists, composition and `$ref`s, plus scalar `example` values (data, no prose). The
 * request-side check (`request-cases.ts`) builds its requests from this; it is committed as
 * `scripts/compatibility/voucherify-requests.json` so a checkout without the reference (CI) runs
 * the same requests, and refreshed by `npm run compatibility` wherever the reference is present.
 */
import { counterpart, operationsOf } from './compare.js';
import { isObject, type Json, type JsonObject } from './schema-fields.js';

/** A query or path parameter as the reference declares it. */
export interface ParameterSnapshot {
  name: string;
  required: boolean;
  /** deepObject (objects as `name[key]=…`) or the default form style. */
  style: 'form' | 'deepObject';
  schema: JsonObject;
}

export interface OperationRequestSnapshot {
  /** The reference's own operation id, method and path (ours may live elsewhere, e.g. the management API). */
  reference: { operationId: string; method: string; path: string };
  path: ParameterSnapshot[];
  query: ParameterSnapshot[];
  body: { contentType: 'application/json' | 'application/x-www-form-urlencoded'; schema: JsonObject } | null;
}

export interface RequestSnapshot {
  source: string;
  /** The OAuth scopes the reference names (its security scheme's scopes and its operations' security blocks). */
  scopes: string[];
  /** Every component schema the operations reach, pruned. */
  schemas: Record<string, JsonObject>;
  /** Keyed by our operationId; operations the reference lacks are absent. */
  operations: Record<string, OperationRequestSnapshot>;
}

const KEPT = new Set([
  'type',
  'format',
  'enum',
  'nullable',
  'required',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'example',
]);
const SCHEMA_CHILDREN = new Set(['items', 'additionalProperties', 'not']);
const SCHEMA_LISTS = new Set(['allOf', 'oneOf', 'anyOf']);

const isScalar = (v: Json | undefined): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Collects pruned schemas and the component names they reference. */
class Pruner {
  readonly components: Record<string, JsonObject> = {};
  constructor(private readonly document: JsonObject) {}

  private component(ref: string): void {
    const name = ref.replace('#/components/schemas/', '');
    if (name === ref) throw new Error(`Only component schema references are supported: ${ref}`);
    if (name in this.components) return;
    const schemas = isObject(this.document.components) && isObject(this.document.components.schemas) ? this.document.components.schemas : {};
    const target = schemas[name];
    if (!isObject(target)) throw new Error(`Unresolvable reference ${ref}`);
    this.components[name] = {}; // placeholder first: recursive schemas end here
    this.components[name] = this.prune(target);
  }

  prune(schema: JsonObject): JsonObject {
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string') {
        this.component(value);
        out.$ref = value;
      } else if (key === 'properties' && isObject(value)) {
        const props: JsonObject = {};
        for (const [name, child] of Object.entries(value)) if (isObject(child)) props[name] = this.prune(child);
        out.properties = props;
      } else if (SCHEMA_CHILDREN.has(key)) {
        if (isObject(value)) out[key] = this.prune(value);
        else if (typeof value === 'boolean') out[key] = value;
      } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
        out[key] = value.filter(isObject).map((part) => this.prune(part));
      } else if (key === 'required') {
        // Some reference schemas put `required` on a string property (meaningless there): keep lists only.
        if (Array.isArray(value) && value.every((v) => typeof v === 'string') && (schema.type === 'object' || isObject(schema.properties)))
          out.required = value;
      } else if (key === 'example') {
        if (isScalar(value)) out.example = value;
      } else if (KEPT.has(key)) out[key] = value;
    }
    return out;
  }
}

function resolveObject(document: JsonObject, value: Json | undefined): JsonObject | null {
  let node = value;
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string' && hops < 10; hops++) {
    let target: Json = document;
    for (const part of node.$ref.slice(2).split('/')) target = isObject(target) ? (target[part] ?? null) : null;
    node = target;
  }
  return isObject(node) ? node : null;
}

function parameters(document: JsonObject, pruner: Pruner, operation: JsonObject, pathItem: JsonObject, where: 'path' | 'query'): ParameterSnapshot[] {
  const raw = [...(Array.isArray(operation.parameters) ? operation.parameters : []), ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : [])];
  const out: ParameterSnapshot[] = [];
  for (const entry of raw) {
    const p = resolveObject(document, entry);
    if (!p || p.in !== where || typeof p.name !== 'string' || out.some((o) => o.name === p.name)) continue;
    out.push({
      name: p.name,
      required: p.required === true,
      style: p.style === 'deepObject' ? 'deepObject' : 'form',
      schema: pruner.prune(isObject(p.schema) ? p.schema : {}),
    });
  }
  return out;
}

function scopesOf(document: JsonObject): string[] {
  const scopes = new Set<string>();
  const schemes = isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {};
  for (const scheme of Object.values(schemes)) {
    if (!isObject(scheme) || !isObject(scheme.flows)) continue;
    for (const flow of Object.values(scheme.flows)) if (isObject(flow) && isObject(flow.scopes)) for (const s of Object.keys(flow.scopes)) scopes.add(s);
  }
  for (const op of operationsOf(document)) {
    for (const requirement of Array.isArray(op.operation.security) ? op.operation.security : []) {
      if (!isObject(requirement)) continue;
      for (const list of Object.values(requirement)) if (Array.isArray(list)) for (const s of list) if (typeof s === 'string') scopes.add(s);
    }
  }
  return [...scopes].sort();
}

/**
 * The request side of every operation in `operationIds` that the reference has (matched like the
 * reply-side comparison: our operationId, else method and path). `ours` supplies method and path.
 */
export function requestSnapshot(ours: JsonObject, reference: JsonObject, operationIds: readonly string[], source: string): RequestSnapshot {
  const pruner = new Pruner(reference);
  const theirOps = operationsOf(reference);
  const operations: Record<string, OperationRequestSnapshot> = {};
  for (const op of operationsOf(ours).sort((a, b) => (a.operationId < b.operationId ? -1 : 1))) {
    if (!operationIds.includes(op.operationId)) continue;
    const theirs = counterpart(op, theirOps);
    if (!theirs) continue;
    const paths = isObject(reference.paths) ? reference.paths : {};
    const pathItem = isObject(paths[theirs.path]) ? (paths[theirs.path] as JsonObject) : {};
    const body = resolveObject(reference, theirs.operation.requestBody);
    const content = body && isObject(body.content) ? body.content : {};
    const json = isObject(content['application/json']) ? content['application/json'] : null;
    const form = isObject(content['application/x-www-form-urlencoded']) ? content['application/x-www-form-urlencoded'] : null;
    const media = json ?? form;
    operations[op.operationId] = {
      reference: { operationId: theirs.operationId, method: theirs.method, path: theirs.path },
      path: parameters(reference, pruner, theirs.operation, pathItem, 'path'),
      query: parameters(reference, pruner, theirs.operation, pathItem, 'query'),
      body:
        media && isObject(media.schema)
          ? { contentType: json ? 'application/json' : 'application/x-www-form-urlencoded', schema: pruner.prune(media.schema) }
          : null,
    };
  }
  const schemas: Record<string, JsonObject> = {};
  for (const name of Object.keys(pruner.components).sort()) schemas[name] = pruner.components[name] as JsonObject;
  return { source, scopes: scopesOf(reference), schemas, operations };
}
