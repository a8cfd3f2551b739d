import { isObject, SchemaReader, type FieldInfo, type FieldMap, type Json, type JsonObject, type JsonType } from './schema-fields.js';

/** Where in an operation a field lives. */
export type Location = 'request' | 'query' | 'response';

export type DifferenceKind = 'missing' | 'type' | 'enum';

export interface Difference {
  location: Location;
  field: string;
  kind: DifferenceKind;
  ours: string;
  theirs: string;
}

export interface OperationRef {
  operationId: string;
  method: string;
  path: string;
  operation: JsonObject;
}

/** Where Voucherify has the operation. */
export interface ReferenceRoute {
  operationId: string;
  method: string;
  path: string;
}

/** Fields as plain data (sorted), for the committed snapshot of the reference. */
export type SerializedFields = Record<string, { types: JsonType[]; enum?: string[] }>;

/** Voucherify's side of one of our operations: its route and its fields, or null when it has no such operation. */
export interface ReferenceOperation extends ReferenceRoute {
  fields: Record<Location, SerializedFields>;
}

/**
 * The reference reduced to what the comparison reads (field paths, JSON types, enum values: data,
 * no prose), keyed by our operationId. Committed, so the report and its test work on a checkout
 * without `../shared/`; regenerated from the reference by `npm run compatibility` where it exists.
 */
export interface ReferenceSnapshot {
  source: string;
  operations: Record<string, ReferenceOperation | null>;
}

export interface OperationComparison {
  ours: OperationRef;
  theirs: ReferenceRoute | null;
  /** Response status compared (ours; Voucherify's same status when it has it). */
  status: string | null;
  differences: Difference[];
  /** Fields we have that Voucherify does not document (not a compatibility problem; counted only). */
  extras: number;
  ourFields: Record<Location, FieldMap>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function operationsOf(document: JsonObject): OperationRef[] {
  const out: OperationRef[] = [];
  const paths = document.paths;
  if (!isObject(paths)) return out;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (isObject(operation) && typeof operation.operationId === 'string') {
        out.push({ operationId: operation.operationId, method: method.toUpperCase(), path, operation });
      }
    }
  }
  return out;
}

/** `/v1/exports/{export_Id}` and `/v1/exports/{exportId}` are the same route. */
const shape = (method: string, path: string): string => `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;

/** Voucherify's operation for ours: the same operationId (we reuse theirs), else the same method and path. */
export function counterpart(ours: OperationRef, theirs: readonly OperationRef[]): OperationRef | null {
  return theirs.find((t) => t.operationId === ours.operationId) ?? theirs.find((t) => shape(t.method, t.path) === shape(ours.method, ours.path)) ?? null;
}

function requestSchema(reader: SchemaReader, op: JsonObject): Json | undefined {
  let body = op.requestBody;
  if (isObject(body) && typeof body.$ref === 'string') body = reader.resolve(body.$ref);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const media = body.content['application/json'] ?? body.content['application/x-www-form-urlencoded'];
  return isObject(media) ? media.schema : undefined;
}

function queryFields(reader: SchemaReader, op: JsonObject): FieldMap {
  const out: FieldMap = new Map();
  const params = Array.isArray(op.parameters) ? op.parameters : [];
  for (let p of params) {
    if (isObject(p) && typeof p.$ref === 'string') p = reader.resolve(p.$ref);
    if (!isObject(p) || p.in !== 'query' || typeof p.name !== 'string') continue;
    for (const [path, info] of reader.fields(p.schema)) out.set(path ? `${p.name}.${path}` : p.name, info);
  }
  return out;
}

function successStatuses(op: JsonObject): string[] {
  return isObject(op.responses)
    ? Object.keys(op.responses)
        .filter((s) => /^2\d\d$/.test(s))
        .sort()
    : [];
}

function responseSchema(reader: SchemaReader, op: JsonObject, status: string): Json | undefined {
  if (!isObject(op.responses)) return undefined;
  let response = op.responses[status];
  if (isObject(response) && typeof response.$ref === 'string') response = reader.resolve(response.$ref);
  if (!isObject(response) || !isObject(response.content)) return undefined;
  const media = response.content['application/json'];
  return isObject(media) ? media.schema : undefined;
}

/** Non-null types, with integer read as a kind of number when the other side says number. */
function typeProblem(ours: FieldInfo, theirs: FieldInfo): boolean {
  const o = [...ours.types].filter((t) => t !== 'null');
  const t = new Set<JsonType>([...theirs.types].filter((x) => x !== 'null'));
  if (o.length === 0 || t.size === 0) return false; // an unconstrained side accepts anything
  const fits = (x: JsonType): boolean => t.has(x) || (x === 'integer' && t.has('number'));
  return !o.every(fits);
}

const describe = (info: FieldInfo | undefined): string => {
  if (!info) return '—';
  const types = [...info.types].sort().join(' | ') || 'any';
  return info.enumValues ? `${types} (${[...info.enumValues].sort().join(', ')})` : types;
};

function compareFields(location: Location, ours: FieldMap, theirs: FieldMap, out: Difference[]): number {
  let extras = 0;
  for (const [field, t] of theirs) {
    if (field === '') continue;
    const o = ours.get(field);
    if (!o) {
      // Only the topmost missing field is reported: its children are missing with it.
      const parent = parentOf(field);
      if (parent !== '' && !ours.has(parent)) continue;
      out.push({ location, field, kind: 'missing', ours: '—', theirs: describe(t) });
      continue;
    }
    if (typeProblem(o, t)) out.push({ location, field, kind: 'type', ours: describe(o), theirs: describe(t) });
    else if (o.enumValues && t.enumValues) {
      const same = o.enumValues.size === t.enumValues.size && [...o.enumValues].every((v) => t.enumValues?.has(v));
      if (!same) out.push({ location, field, kind: 'enum', ours: describe(o), theirs: describe(t) });
    }
  }
  for (const field of ours.keys()) if (field !== '' && !theirs.has(field)) extras += 1;
  return extras;
}

/** `a.b` → `a`, `a[]` → `a`, `a[].b` → `a[]`, `a` → '' (the root). */
function parentOf(field: string): string {
  if (field.endsWith('[]')) return field.slice(0, -2);
  const dot = field.lastIndexOf('.');
  return dot > 0 ? field.slice(0, dot) : '';
}

function serialize(fields: FieldMap): SerializedFields {
  const out: SerializedFields = {};
  for (const path of [...fields.keys()].sort()) {
    const info = fields.get(path);
    if (!info) continue;
    out[path] = { types: [...info.types].sort(), ...(info.enumValues ? { enum: [...info.enumValues].sort() } : {}) };
  }
  return out;
}

function deserialize(fields: SerializedFields): FieldMap {
  return new Map(Object.entries(fields).map(([path, f]) => [path, { types: new Set(f.types), enumValues: f.enum ? new Set(f.enum) : null }]));
}

function operationFields(reader: SchemaReader, op: JsonObject, status: string | null): Record<Location, FieldMap> {
  return {
    request: reader.fields(requestSchema(reader, op)),
    query: queryFields(reader, op),
    response: status ? reader.fields(responseSchema(reader, op, status)) : new Map(),
  };
}

/** Voucherify's operation for each of ours (same operationId, else same method and path), reduced to its fields. */
export function referenceSnapshot(oursDoc: JsonObject, theirsDoc: JsonObject, source: string): ReferenceSnapshot {
  const theirReader = new SchemaReader(theirsDoc);
  const theirOps = operationsOf(theirsDoc);
  const operations: Record<string, ReferenceOperation | null> = {};
  for (const ours of operationsOf(oursDoc).sort((a, b) => (a.operationId < b.operationId ? -1 : 1))) {
    const theirs = counterpart(ours, theirOps);
    if (!theirs) {
      operations[ours.operationId] = null;
      continue;
    }
    const status = successStatuses(ours.operation)[0] ?? null;
    const theirStatus = status && successStatuses(theirs.operation).includes(status) ? status : (successStatuses(theirs.operation)[0] ?? null);
    const fields = operationFields(theirReader, theirs.operation, theirStatus);
    operations[ours.operationId] = {
      operationId: theirs.operationId,
      method: theirs.method,
      path: theirs.path,
      fields: { request: serialize(fields.request), query: serialize(fields.query), response: serialize(fields.response) },
    };
  }
  return { source, operations };
}

/** Compares each of our operations with Voucherify's, as the snapshot holds it. */
export function compareWithReference(oursDoc: JsonObject, reference: ReferenceSnapshot): OperationComparison[] {
  const ourReader = new SchemaReader(oursDoc);
  return operationsOf(oursDoc).map((ours) => {
    const theirs = reference.operations[ours.operationId] ?? null;
    const status = successStatuses(ours.operation)[0] ?? null;
    const ourFields = operationFields(ourReader, ours.operation, status);
    const differences: Difference[] = [];
    let extras = 0;
    if (theirs) {
      for (const location of ['request', 'query', 'response'] as const) {
        extras += compareFields(location, ourFields[location], deserialize(theirs.fields[location]), differences);
      }
    }
    return {
      ours,
      theirs: theirs ? { operationId: theirs.operationId, method: theirs.method, path: theirs.path } : null,
      status,
      differences,
      extras,
      ourFields,
    };
  });
}

/** Compares each of our operations with Voucherify's operation of the same id or route. */
export function compareDocuments(oursDoc: JsonObject, theirsDoc: JsonObject): OperationComparison[] {
  return compareWithReference(oursDoc, referenceSnapshot(oursDoc, theirsDoc, ''));
}
