/**
 * Builds requests from the reference's request schemas (`request-snapshot.ts`). For each operation
 * and each branch of every `oneOf` (one selection per branch, the other places at their default
 * branch): a request with the required fields only; one request per documented field and value
 * (that field added to the required ones: every enum value once, both booleans, an array with one
 * item and, without a documented minimum, empty); and, built by the runner once it knows which of
 * those were refused, one request with every other field at once. Values fit the documented type
 * and format (bounds respected, the reference's scalar `example` where it gives one); ids of
 * resources come from hints as placeholders (`$seed.…`: a seeded resource; `$fresh.…`: one made for
 * that request) that the runner replaces. Pure and deterministic: one snapshot, one list of cases.
 */
import type { OperationRequestSnapshot, ParameterSnapshot, RequestSnapshot } from './request-snapshot.js';
import type { LiberalKind } from './liberal-cases.js';
import { isObject, type Json, type JsonObject } from './schema-fields.js';

export type Location = 'body' | 'query';

export type CaseKind = 'required' | 'field' | 'without' | 'together' | LiberalKind;

export interface RequestCase {
  operationId: string;
  kind: CaseKind;
  /** The oneOf branches chosen, e.g. `body: campaign_type=LOYALTY_PROGRAM (4/5)`; '' when the operation has none. */
  variant: string;
  /** For `field` (and `without`: a field the hints add to the required ones, left out): where the field is and its dotted path (`voucher.discount.type`, `filters.campaigns.conditions.$in[]`). */
  location: Location | null;
  field: string | null;
  /** For `field`: the value tried at that path. */
  value: Json | null;
  /** For `field`: the oneOf branches chosen above the field and its place (`…|location.path`): a field is tried once per scope. */
  scope: string | null;
  query: Record<string, Json>;
  body: Json | undefined;
  bodyType: 'application/json' | 'application/x-www-form-urlencoded' | null;
  /** Sent with a `/` after its path (a liberal-reader variant, liberal-cases.ts). */
  trailingSlash?: boolean;
}

/** The requests of one oneOf selection of one operation. */
export interface VariantCases {
  operationId: string;
  variant: string;
  /** The required fields only. */
  required: RequestCase;
  /** One documented field (and value) each, added to the required ones; and the required request without each field the hints require. */
  fields: RequestCase[];
  /**
   * Every field of this selection at once, each with a value it was accepted with alone (`accepted`:
   * a field case's `scope` → value; the case may come from an earlier selection with the same branches
   * above the field); fields accepted with no value are left out.
   */
  together: (accepted: ReadonlyMap<string, Json>) => RequestCase;
}

/** Per-operation knowledge the schemas do not carry: seeded ids, unique names, exclusive fields. */
export interface CaseHints {
  /** Our route's path parameters → placeholders (the runner fills them). */
  path?: Record<string, string>;
  /** Values for the selections whose label contains the key (e.g. a campaign of the type a branch names). */
  variantValues?: Record<string, Record<string, Json>>;
  /** Path parameters for the selections whose label contains the key (a resource of the kind that branch needs). */
  variantPath?: Record<string, Record<string, string>>;
  /** `location.path` → the one value used there (usually a placeholder), whatever the schema says. */
  values?: Record<string, Json>;
  /** `location.path` → the values to try there (each once) instead of the generated ones. */
  candidates?: Record<string, Json[]>;
  /** `location.path` of strings that must differ per request (names, codes, source ids). */
  unique?: string[];
  /** Groups of `location.path` of which a request carries one ("either … or …"): the together request keeps the first. */
  exclusive?: string[][];
  /** `location.path` of fields the reference's prose makes required (sent whenever their parent is). */
  required?: string[];
  /** `location.path` (or `location.path=<JSON value>`) → fields the reference's prose says go with it (`location.path`, or with a value: `location.path=<JSON value>`), sent along in its requests. */
  companions?: Record<string, string[]>;
  /** Last path segment → the values to try for every leaf of that name (operators whose value the prose fixes). */
  byName?: Record<string, Json[]>;
  /** Requests in flight at once for this operation (the runner's default otherwise). */
  concurrency?: number;
  /** The branch (0-based) chosen by default at a oneOf place (`location.path#n`): fields shared by every branch are tried there. */
  branches?: Record<string, number>;
  /**
   * oneOf places (any whose `location.path` contains one of these) that keep their default branch: their other branches
   * are not tried. For operands typed "any of five kinds" at every filter operator (create-export), where a selection per
   * branch per place would make thousands of variants of one request.
   */
  fixedBranches?: string[];
}

/** A schema seen through allOf and the chosen oneOf branches: what a value at one place must be. */
interface View {
  types: Set<string>;
  format: string | null;
  enumValues: Json[] | null;
  example: Json | undefined;
  minimum: number | null;
  maximum: number | null;
  minItems: number;
  properties: Map<string, JsonObject[]>;
  required: Set<string>;
  items: JsonObject[];
  /** `additionalProperties` schemas: an object keyed by names the client picks. */
  additional: JsonObject[];
}

type Selection = ReadonlyMap<string, number>;

/** Where a oneOf was met, how many branches it has and a label per branch. */
type Found = Map<string, { count: number; labels: string[] }>;

/** A leaf: a scalar, an array of scalars, or an object without declared properties (metadata). */
interface Leaf {
  location: Location;
  path: string;
  candidates: Json[];
}

/** The path segment and the key sent for a member of an `additionalProperties` object. */
const ANY_NAME = '<name>';
const ANY_KEY = 'compat_property';

const FUTURE_START = '2030-01-01T00:00:00.000Z';
const FUTURE_END = '2031-06-30T00:00:00.000Z';

/** `location.path` or `location.path=<JSON value>`. */
function split(key: string): { location: Location; path: string; value: Json | undefined } {
  const eq = key.indexOf('=');
  const place = eq < 0 ? key : key.slice(0, eq);
  return {
    location: place.slice(0, place.indexOf('.')) as Location,
    path: place.slice(place.indexOf('.') + 1),
    value: eq < 0 ? undefined : (JSON.parse(key.slice(eq + 1)) as Json),
  };
}

const join = (path: string, name: string): string => (path ? `${path}.${name}` : name);

/** Whether `path` is `target` or one of its ancestors. */
const isOnPath = (path: string, target: string): boolean => target === path || path === '' || target.startsWith(`${path}.`) || target.startsWith(`${path}[]`);

export class CaseBuilder {
  private counter = 0;

  constructor(
    private readonly snapshot: RequestSnapshot,
    private readonly hintsByOperation: Record<string, CaseHints> = {},
  ) {}

  private resolve(schema: JsonObject, seen: Set<string>): JsonObject | null {
    let node = schema;
    while (typeof node.$ref === 'string') {
      if (seen.has(node.$ref)) return null; // a recursive schema is not followed a second time
      seen.add(node.$ref);
      const target = this.snapshot.schemas[node.$ref.replace('#/components/schemas/', '')];
      if (!target) throw new Error(`Unresolvable reference ${node.$ref}`);
      const { $ref: _ref, ...siblings } = node;
      node = { ...siblings, ...target };
    }
    return node;
  }

  /** A branch's label: its single-valued enum property (`campaign_type=LOYALTY_PROGRAM`), else its position. */
  private branchLabel(branch: JsonObject, index: number, count: number): string {
    const v = this.view([branch], '', new Map(), new Map());
    for (const [name, schemas] of v.properties) {
      const child = this.view(schemas, '', new Map(), new Map());
      if (child.enumValues?.length === 1) return `${name}=${String(child.enumValues[0])} (${index + 1}/${count})`;
    }
    return `branch ${index + 1}/${count}`;
  }

  /** Merges schemas (allOf parts, the chosen oneOf branch) into one view; `place` is `location.path`. */
  private view(schemas: readonly JsonObject[], place: string, selection: Selection, found: Found): View {
    const v: View = {
      types: new Set(),
      format: null,
      enumValues: null,
      example: undefined,
      minimum: null,
      maximum: null,
      minItems: 0,
      properties: new Map(),
      required: new Set(),
      items: [],
      additional: [],
    };
    let ordinal = 0;
    const add = (raw: JsonObject, seen: Set<string>): void => {
      const s = this.resolve(raw, seen);
      if (!s) return;
      if (typeof s.type === 'string') v.types.add(s.type);
      if (typeof s.format === 'string') v.format ??= s.format;
      if (Array.isArray(s.enum)) {
        const values: Json[] = s.enum.filter((x) => x !== null);
        v.enumValues = v.enumValues ? v.enumValues.filter((x) => values.includes(x)) : values;
      }
      if (s.example !== undefined && v.example === undefined) v.example = s.example;
      if (typeof s.minimum === 'number') v.minimum = Math.max(v.minimum ?? s.minimum, s.minimum);
      if (typeof s.maximum === 'number') v.maximum = Math.min(v.maximum ?? s.maximum, s.maximum);
      if (typeof s.minItems === 'number') v.minItems = Math.max(v.minItems, s.minItems);
      if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === 'string') v.required.add(r);
      if (isObject(s.properties)) {
        v.types.add('object');
        for (const [name, child] of Object.entries(s.properties)) {
          if (!isObject(child)) continue;
          v.properties.set(name, [...(v.properties.get(name) ?? []), child]);
        }
      }
      if (isObject(s.items)) {
        v.types.add('array');
        v.items.push(s.items);
      }
      if (isObject(s.additionalProperties)) v.additional.push(s.additionalProperties);
      if (Array.isArray(s.allOf)) for (const part of s.allOf) if (isObject(part)) add(part, new Set(seen));
      for (const key of ['oneOf', 'anyOf'] as const) {
        const parts = (Array.isArray(s[key]) ? (s[key] as Json[]) : []).filter(isObject);
        if (parts.length === 0) continue;
        const id = `${place}#${ordinal++}`;
        if (!found.has(id)) found.set(id, { count: parts.length, labels: parts.map((p, i) => this.branchLabel(p, i, parts.length)) });
        const branch = parts[Math.min(selection.get(id) ?? 0, parts.length - 1)];
        if (branch) add(branch, new Set(seen));
      }
    };
    for (const s of schemas) add(s, new Set());
    return v;
  }

  /** The members of an object view: its properties, or one client-named member of an `additionalProperties` object. */
  private members(v: View): Map<string, JsonObject[]> {
    if (v.properties.size > 0 || v.additional.length === 0) return v.properties;
    return new Map([[ANY_NAME, v.additional]]);
  }

  /** Required by the reference, a discriminator (a single-valued enum: it names the oneOf branch), or by the hints. */
  private isRequired(v: View, child: View, name: string, location: Location, path: string, hints: CaseHints, omit: string | null): boolean {
    const key = `${location}.${path}`;
    if (v.required.has(name) || child.enumValues?.length === 1) return true;
    return key !== omit && (hints.required?.includes(key) ?? false);
  }

  /** The values a leaf is tried with. */
  private candidates(v: View, location: Location, path: string, hints: CaseHints): Json[] {
    const key = `${location}.${path}`;
    const fixed = hints.values?.[key];
    if (fixed !== undefined) return [fixed];
    const listed = hints.candidates?.[key] ?? hints.byName?.[path.slice(path.lastIndexOf('.') + 1)];
    if (listed) return listed;
    if (v.enumValues && v.enumValues.length > 0) return v.enumValues;
    if (v.types.has('boolean')) return [true, false];
    if (v.types.has('array')) {
      const itemView = this.view(v.items, `${key}[]`, new Map(), new Map());
      const items = this.candidates(itemView, location, `${path}[]`, hints);
      // An array of enum values takes them all at once: every value is tried, in one request.
      const filled = itemView.enumValues?.length ? [items] : items.map((item) => Array.from({ length: Math.max(1, v.minItems) }, () => item));
      // Without a minimum an empty array is a documented value (an `$in` that matches nothing); a query string cannot carry one.
      return v.minItems === 0 && location === 'body' ? [...filled, []] : filled;
    }
    if (v.types.has('integer') || v.types.has('number')) {
      const within = (n: number): boolean => (v.minimum === null || n >= v.minimum) && (v.maximum === null || n <= v.maximum);
      const example = typeof v.example === 'number' && (v.types.has('number') || Number.isInteger(v.example)) ? v.example : null;
      if (example !== null && within(example)) return [example];
      if (within(1)) return [1];
      return [v.minimum ?? v.maximum ?? 1];
    }
    if (v.types.has('object')) return [{}];
    if (hints.unique?.includes(key)) return [`compat-${path.replace(/[^a-z0-9]+/gi, '-')}`];
    const last = path.slice(path.lastIndexOf('.') + 1);
    if (v.format === 'date-time') return [/start|after|from/i.test(path) ? FUTURE_START : FUTURE_END];
    if (v.format === 'date') return [(/start|after|from/i.test(path) ? FUTURE_START : FUTURE_END).slice(0, 10)];
    if (v.format === 'email' || last === 'email') return ['compat@example.com'];
    if (v.format === 'uri' || v.format === 'url' || /_url$/.test(last)) return ['https://example.com/compat.png'];
    if (last === 'phone') return ['+1 555 0100'];
    return [typeof v.example === 'string' ? v.example : 'compat'];
  }

  /** Every leaf under a view, recording the oneOf places met on the way. */
  private leaves(v: View, location: Location, path: string, selection: Selection, found: Found, hints: CaseHints, out: Leaf[]): void {
    const key = `${location}.${path}`;
    const fixed = hints.values?.[key] !== undefined || hints.candidates?.[key] !== undefined;
    const members = this.members(v);
    if (!fixed && members.size > 0) {
      for (const [name, schemas] of members) {
        const child = join(path, name);
        this.leaves(this.view(schemas, `${location}.${child}`, selection, found), location, child, selection, found, hints, out);
      }
      return;
    }
    if (!fixed && v.types.has('array') && v.items.length > 0) {
      const itemView = this.view(v.items, `${key}[]`, selection, found);
      if (this.members(itemView).size > 0) {
        this.leaves(itemView, location, `${path}[]`, selection, found, hints, out);
        return;
      }
    }
    out.push({ location, path, candidates: this.candidates(v, location, path, hints) });
  }

  /**
   * A value for a view: required members always; an optional one when `wants` asks for its path;
   * a leaf takes `valueAt(path)` when given, else its first candidate.
   */
  private build(
    v: View,
    location: Location,
    path: string,
    selection: Selection,
    hints: CaseHints,
    wants: (path: string) => boolean,
    valueAt: (path: string) => Json | undefined,
    omit: string | null,
  ): Json {
    const given = valueAt(path);
    if (given !== undefined) return given;
    const key = `${location}.${path}`;
    const fixed = hints.values?.[key] ?? hints.candidates?.[key]?.[0];
    if (fixed !== undefined) return this.unique(fixed, hints, key);
    const members = this.members(v);
    if (members.size > 0) {
      const out: JsonObject = {};
      for (const [name, schemas] of members) {
        const child = join(path, name);
        const childView = this.view(schemas, `${location}.${child}`, selection, new Map());
        if (displaced(hints, location, child, wants)) continue;
        if (!this.isRequired(v, childView, name, location, child, hints, omit) && !wants(child)) continue;
        out[name === ANY_NAME ? ANY_KEY : name] = this.build(childView, location, child, selection, hints, wants, valueAt, omit);
      }
      return out;
    }
    if (v.types.has('array') && v.items.length > 0) {
      const itemPath = `${path}[]`;
      const itemView = this.view(v.items, `${location}.${itemPath}`, selection, new Map());
      if (this.members(itemView).size > 0) {
        const item = this.build(itemView, location, itemPath, selection, hints, wants, valueAt, omit);
        return Array.from({ length: Math.max(1, v.minItems) }, () => item);
      }
    }
    return this.unique(this.candidates(v, location, path, hints)[0] ?? null, hints, key);
  }

  /** A string that must differ per request gets a suffix counted per builder (deterministic). */
  private unique(value: Json, hints: CaseHints, key: string): Json {
    if (typeof value !== 'string' || !hints.unique?.includes(key)) return value;
    this.counter += 1;
    return `${value}-${this.counter}`;
  }

  private request(
    op: OperationRequestSnapshot,
    selection: Selection,
    hints: CaseHints,
    wants: (loc: Location, path: string) => boolean,
    valueAt: (loc: Location, path: string) => Json | undefined,
    omit: string | null = null,
  ): Pick<RequestCase, 'query' | 'body' | 'bodyType'> {
    const result: Pick<RequestCase, 'query' | 'body' | 'bodyType'> = { query: {}, body: undefined, bodyType: op.body?.contentType ?? null };
    for (const root of rootsOf(op)) {
      const loc = root.location;
      const v = this.view(root.schemas, `${loc}.`, selection, new Map());
      const value = this.build(
        v,
        loc,
        '',
        selection,
        hints,
        (p) => wants(loc, p),
        (p) => valueAt(loc, p),
        omit,
      );
      if (loc === 'body') result.body = value;
      else result.query = isObject(value) ? value : {};
    }
    return result;
  }

  /** The cases of one operation, one group per oneOf selection. */
  cases(operationId: string): VariantCases[] {
    const op = this.snapshot.operations[operationId];
    if (!op) return [];
    const opHints = this.hintsByOperation[operationId] ?? {};
    const defaults = new Map(Object.entries(opHints.branches ?? {}));
    // One selection per oneOf branch: the defaults first, then one selection for every branch met and not yet chosen.
    const selections: Array<Map<string, number>> = [defaults];
    const covered = new Set<string>();
    const out: VariantCases[] = [];
    const tested = new Set<string>();
    for (let i = 0; i < selections.length; i++) {
      const selection = selections[i] as Map<string, number>;
      const found: Found = new Map();
      for (const root of rootsOf(op))
        this.leaves(this.view(root.schemas, `${root.location}.`, selection, found), root.location, '', selection, found, opHints, []);
      const labels: string[] = [];
      for (const [id, { count, labels: branchLabels }] of found) {
        const chosen = selection.get(id) ?? 0;
        if (count > 1) labels.push(`${id.replace(/#\d+$/, '').replace(/\.$/, '')}: ${branchLabels[chosen]}`);
        covered.add(`${id}=${chosen}`);
        if (opHints.fixedBranches?.some((place) => id.includes(place))) continue;
        for (let b = 0; b < count; b++) {
          if (covered.has(`${id}=${b}`)) continue;
          covered.add(`${id}=${b}`);
          selections.push(new Map([...defaults, ...[...selection].filter(([k]) => found.has(k))]).set(id, b));
        }
      }
      const variant = labels.join('; ');
      const hints = hintsOfVariant(opHints, variant);
      const leaves: Leaf[] = [];
      for (const root of rootsOf(op))
        this.leaves(this.view(root.schemas, `${root.location}.`, selection, new Map()), root.location, '', selection, new Map(), hints, leaves);
      const request = (wants: (loc: Location, path: string) => boolean, valueAt: (loc: Location, path: string) => Json | undefined) =>
        this.request(op, selection, hints, wants, valueAt);
      const base = { operationId, variant, location: null, field: null, value: null, scope: null };
      const fields: RequestCase[] = [];
      for (const leaf of leaves) {
        const key = `${leaf.location}.${leaf.path}`;
        // A field is tried again whenever a oneOf above it chooses another branch (a promotion may refuse what a coupon takes).
        const scope = `${choicesAbove(key, selection, found)}|${key}`;
        for (const value of leaf.candidates) {
          const seenKey = `${scope}=${hints.unique?.includes(key) ? '*' : JSON.stringify(value)}`;
          if (tested.has(seenKey)) continue;
          tested.add(seenKey);
          const along = [...(hints.companions?.[key] ?? []), ...(hints.companions?.[`${key}=${JSON.stringify(value)}`] ?? [])].map(split);
          const c = request(
            (loc, p) => (loc === leaf.location && isOnPath(p, leaf.path)) || along.some((a) => a.location === loc && isOnPath(p, a.path)),
            (loc, p) => {
              if (loc === leaf.location && p === leaf.path) return this.unique(value, hints, key);
              return along.find((a) => a.location === loc && a.path === p)?.value;
            },
          );
          fields.push({ ...base, kind: 'field', location: leaf.location, field: leaf.path, value, scope, ...c });
        }
      }
      // What the hints add to the reference's required fields is tried absent too: a refusal then is ours to document.
      const required = this.request(
        op,
        selection,
        hints,
        () => false,
        () => undefined,
      );
      for (const key of hints.required ?? []) {
        const loc = key.slice(0, key.indexOf('.')) as Location;
        const path = key.slice(key.indexOf('.') + 1);
        const seenKey = `${choicesAbove(key, selection, found)}|${key}=(absent)`;
        if (tested.has(seenKey) || !leaves.some((l) => l.location === loc && isOnPath(path, l.path))) continue;
        // The field's parent is sent (with what it requires), the field itself not.
        const parent = path.replace(/(\.[^.]+|\[\])$/, '');
        const without = this.request(
          op,
          selection,
          hints,
          (l, p) => l === loc && parent !== path && isOnPath(p, parent),
          () => undefined,
          key,
        );
        if (JSON.stringify(without) === JSON.stringify(required) && parent !== path && parent !== '') continue; // a parent without members
        tested.add(seenKey);
        fields.push({ ...base, kind: 'without', location: loc, field: path, value: null, ...without });
      }
      const all = leaves.map(({ location, path }) => {
        const key = `${location}.${path}`;
        return { location, path, key, scope: `${choicesAbove(key, selection, found)}|${key}` };
      });
      out.push({
        operationId,
        variant,
        required: { ...base, kind: 'required', ...required },
        fields,
        together: (accepted) => {
          const kept = all.filter((l) => accepted.has(l.scope));
          const wanted = (loc: Location, p: string): boolean => kept.some((l) => l.location === loc && isOnPath(p, l.path));
          const valueAt = (loc: Location, p: string): Json | undefined => {
            const leaf = kept.find((l) => l.location === loc && l.path === p);
            const value = leaf ? accepted.get(leaf.scope) : undefined;
            return value === undefined || !leaf ? undefined : this.unique(value, hints, leaf.key);
          };
          return { ...base, kind: 'together', ...request(wanted, valueAt) };
        },
      });
    }
    return out;
  }
}

interface Root {
  location: Location;
  schemas: JsonObject[];
}

/** The query parameters as the properties of one object, then the body. */
function rootsOf(op: OperationRequestSnapshot): Root[] {
  const roots: Root[] = [];
  if (op.query.length > 0) roots.push({ location: 'query', schemas: [queryObject(op.query)] });
  if (op.body) roots.push({ location: 'body', schemas: [op.body.schema] });
  return roots;
}

function queryObject(params: readonly ParameterSnapshot[]): JsonObject {
  const properties: JsonObject = {};
  for (const p of params) properties[p.name] = p.schema;
  return { type: 'object', properties, required: params.filter((p) => p.required).map((p) => p.name) };
}

/**
 * Of an exclusive group, a request carries the first member it asks for (or, asking for none, the
 * first the hints require): every other member is left out, even one the hints require.
 */
function displaced(hints: CaseHints, location: Location, path: string, wants: (path: string) => boolean): boolean {
  const key = `${location}.${path}`;
  for (const group of hints.exclusive ?? []) {
    if (!group.includes(key)) continue;
    const asked = group.find((member) => member.startsWith(`${location}.`) && wants(member.slice(location.length + 1)));
    const chosen = asked ?? group.find((member) => hints.required?.includes(member));
    if (chosen !== undefined && chosen !== key) return true;
  }
  return false;
}

/** The case groups of every operation in the snapshot, in operation order. */
export function requestCases(snapshot: RequestSnapshot, hints: Record<string, CaseHints> = {}): VariantCases[] {
  const builder = new CaseBuilder(snapshot, hints);
  return Object.keys(snapshot.operations)
    .sort()
    .flatMap((id) => builder.cases(id));
}

/**
 * The query string of a query object: `name=v`; objects deepObject-style (`name[a][b]=v`), arrays
 * with indexes (`name[a][$in][0]=v`), an empty object as an empty value (`name[a][$active]=`). A
 * top-level array of values is the form style's repeated parameter (`name=a&name=b`); of objects, indexed (`name[0][a]=v`).
 */
export function queryString(query: Record<string, Json>): string {
  const pairs: Array<[string, string]> = [];
  const add = (key: string, value: Json): void => {
    if (value === null) pairs.push([key, '']);
    else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) add(`${key}[${i}]`, item);
    } else if (isObject(value)) {
      const entries = Object.entries(value);
      if (entries.length === 0) pairs.push([key, '']);
      for (const [k, v] of entries) add(`${key}[${k}]`, v);
    } else pairs.push([key, String(value)]);
  };
  for (const [name, value] of Object.entries(query)) {
    // Objects in a top-level array go deepObject-style with indexes (`item[0][product_id]=v`): repeated, they would read `[object Object]`.
    if (Array.isArray(value) && !value.some(isObject)) for (const item of value) pairs.push([name, String(item)]);
    else add(name, value);
  }
  const encode = (s: string): string => encodeURIComponent(s).replace(/%5B/gi, '[').replace(/%5D/gi, ']').replace(/%24/g, '$');
  return pairs.map(([k, v]) => `${encode(k)}=${encodeURIComponent(v)}`).join('&');
}

/** The branches chosen at the oneOf places above `key` (`location.path`), as text. */
function choicesAbove(key: string, selection: Selection, found: Found): string {
  const above: string[] = [];
  for (const id of found.keys()) {
    const place = id.replace(/#\d+$/, '');
    const isAbove = place.endsWith('.') ? key.startsWith(place) : key === place || key.startsWith(`${place}.`) || key.startsWith(`${place}[]`);
    if (isAbove) above.push(`${id}=${selection.get(id) ?? 0}`);
  }
  return above.sort().join(',');
}

/** The hints of one selection: `variantValues` whose key is in its label override `values`. */
function hintsOfVariant(hints: CaseHints, variant: string): CaseHints {
  const matching = Object.entries(hints.variantValues ?? {}).filter(([match]) => variant.includes(match));
  if (matching.length === 0) return hints;
  return { ...hints, values: Object.assign({ ...hints.values }, ...matching.map(([, values]) => values)) };
}

/** The path parameters of a selection: `variantPath` where its key is in the label, else `path`. */
export function pathParameters(hints: CaseHints | undefined, variant: string): Record<string, string> {
  for (const [match, path] of Object.entries(hints?.variantPath ?? {})) if (variant.includes(match)) return path;
  return hints?.path ?? {};
}
