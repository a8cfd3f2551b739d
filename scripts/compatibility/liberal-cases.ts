/**
 * The requests a liberal reader must take as their plain forms (issue 33 item 8, docs/decisions.md
 * "Reading requests liberally"): an accepted request with (a) a key the reference does not document,
 * at the top and one level down, (b) an optional field sent as `null`, (c) a trailing slash on its
 * path. Built from requests the check already saw accepted, so any refusal of these is the
 * reader's fault, never the field's: the check fails on every one. Pure and deterministic.
 */
import type { RequestCase } from './request-cases.js';
import { isObject, type Json, type JsonObject } from './schema-fields.js';

export const LIBERAL_KINDS = ['undocumented_key', 'null_field', 'trailing_slash'] as const;
export type LiberalKind = (typeof LIBERAL_KINDS)[number];

export const isLiberalKind = (kind: string): kind is LiberalKind => (LIBERAL_KINDS as readonly string[]).includes(kind);

/** The key no reference documents, sent where the variants need one. */
export const UNDOCUMENTED_KEY = 'compat_undocumented';

const clone = <T extends Json>(value: T): T => structuredClone(value);

/** The path a field case's `field` names, or null where it passes an array or a free-named member. */
function segmentsOf(field: string): string[] | null {
  const segments = field.split('.');
  return segments.some((s) => s.includes('[]') || s.includes('<name>')) ? null : segments;
}

/** The shallowest place of `segments` that `required` lacks: nulling it there leaves the required request. */
function addedAt(required: Json | undefined, segments: readonly string[]): string[] | null {
  let node: Json | undefined = required;
  for (let i = 0; i < segments.length; i += 1) {
    const name = segments[i] as string;
    if (!isObject(node) || !Object.hasOwn(node, name)) return segments.slice(0, i + 1);
    node = node[name];
  }
  return null;
}

/** Sets `value` at `path`, whose parent must exist. */
function addAt(root: JsonObject, path: readonly string[], value: Json): boolean {
  let node: Json = root;
  for (const name of path.slice(0, -1)) {
    if (!isObject(node)) return false;
    node = node[name] ?? null;
  }
  const last = path[path.length - 1];
  if (!isObject(node) || last === undefined) return false;
  node[last] = value;
  return true;
}

const variantOf = (base: RequestCase, kind: LiberalKind, location: RequestCase['location'], field: string | null): RequestCase => ({
  ...base,
  kind,
  location,
  field,
  value: null,
  scope: null,
});

/**
 * The variants of one selection: `required` was accepted; `acceptedFields` are its field cases
 * that were accepted alone. `withSlash`: the operation's trailing-slash request (once per operation).
 */
export function liberalCases(required: RequestCase, acceptedFields: readonly RequestCase[], withSlash: boolean): RequestCase[] {
  const out: RequestCase[] = [];
  const json = required.bodyType === 'application/json' || required.bodyType === null;
  if (isObject(required.body) && required.bodyType === 'application/json') {
    out.push({ ...variantOf(required, 'undocumented_key', 'body', UNDOCUMENTED_KEY), body: { ...clone(required.body), [UNDOCUMENTED_KEY]: 'ignored' } });
  } else if (required.body === undefined) {
    out.push({ ...variantOf(required, 'undocumented_key', 'query', UNDOCUMENTED_KEY), query: { ...required.query, [UNDOCUMENTED_KEY]: 'ignored' } });
  }
  // One level down: inside the first object a field case sent (a free-named member's object, metadata, would take the key as data).
  for (const c of acceptedFields) {
    if (c.location !== 'body' || c.field === null || !isObject(c.body) || !json) continue;
    const segments = segmentsOf(c.field);
    const top = segments?.[0];
    if (!segments || segments.length < 2 || top === undefined || top === 'metadata') continue;
    const inner = c.body[top];
    if (!isObject(inner)) continue;
    const body = clone(c.body);
    (body[top] as JsonObject)[UNDOCUMENTED_KEY] = 'ignored';
    out.push({ ...variantOf(c, 'undocumented_key', 'body', `${top}.${UNDOCUMENTED_KEY}`), body });
    break;
  }
  const nulled = new Set<string>();
  for (const c of acceptedFields) {
    if (c.location !== 'body' || c.field === null || !isObject(c.body) || required.bodyType !== 'application/json') continue;
    const segments = segmentsOf(c.field);
    const at = segments ? addedAt(required.body, segments) : null;
    if (!at || nulled.has(at.join('.')) || !isObject(required.body)) continue;
    // The required request with the field's place as null: absent, so it must be taken as the required request was.
    const body = clone(required.body);
    if (!addAt(body, at, null)) continue;
    nulled.add(at.join('.'));
    out.push({ ...variantOf(c, 'null_field', 'body', at.join('.')), body });
  }
  if (withSlash) out.push({ ...variantOf(required, 'trailing_slash', null, null), trailingSlash: true });
  return out;
}
