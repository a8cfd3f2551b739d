import type * as z from '../zod.js';
import { querySegments } from './query-params.js';

/**
 * Voucherify reads requests liberally: a key it does not document is ignored, and `null` for an
 * optional field means the field is absent (docs/decisions.md "Reading requests liberally"). The
 * request schemas stay strict, so they still say exactly what a route takes (and feed the OpenAPI
 * document); a request they refuse only for such keys is read again without them. This module
 * finds those keys in a failed parse's issues and removes them from a copy of the input. No I/O.
 */

export type Path = readonly PropertyKey[];

/** A key that may be dropped, and why: not in the schema, or `null` where the schema wants a value. */
export interface Ignorable {
  path: Path;
  reason: 'unknown' | 'null';
}

type Issue = z.core.$ZodIssue;

/**
 * Objects whose keys are conditions, not fields: a filter on a field we do not serve, a rule or an
 * operator we do not know would, dropped, widen what a list returns or what a voucher applies to.
 * A key the schema does not know at or under one of these is refused as before.
 */
const CLOSED = new Set(['filters', 'filter', 'conditions', 'rules', 'bundle_rules']);
/**
 * Where a list pages: a list that pages otherwise (by cursor, or not at all) would answer its first
 * page again to `page=2`, and a client walking pages would never stop.
 */
const PAGING = new Set(['page', 'starting_after', 'starting_after_id']);
/** Keys that change what a rule gives wherever they appear (a points formula): never dropped. */
const PRICED = new Set(['points_formula']);
/** A flat query name (`filters[a][b]`) is the path nestQuery makes of it. */
const keysOf = (path: Path): string[] => path.flatMap((key) => (typeof key === 'string' ? (querySegments(key) ?? [key]) : []));
const isClosed = (path: Path): boolean => {
  const keys = keysOf(path);
  return keys.some((key) => CLOSED.has(key) || PRICED.has(key)) || (path.length === 1 && keys[0] !== undefined && PAGING.has(keys[0]));
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at `path` in `input`, or undefined where the path leaves it. */
function valueAt(input: unknown, path: Path): unknown {
  let node: unknown = input;
  for (const key of path) {
    if (typeof key === 'symbol' || typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[String(key)];
  }
  return node;
}

/**
 * What in a set of issues may be ignored, or null when some issue is of another kind (the input is
 * wrong whatever is dropped). A union whose every branch failed contributes the branch that needs
 * nothing but drops (the fewest, where several do).
 */
function ignorablesOf(issues: readonly Issue[], input: unknown, base: Path): Ignorable[] | null {
  const found: Ignorable[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      if (issue.keys.some((key) => isClosed([...path, key]))) return null;
      for (const key of issue.keys) found.push({ path: [...path, key], reason: 'unknown' });
      continue;
    }
    // An element of an array is not a field: dropping it would shift the others. Whatever the issue (a type, an enum, a union), null there is absent.
    const parent = valueAt(input, path.slice(0, -1));
    if (path.length > 0 && isRecord(parent) && valueAt(input, path) === null) {
      found.push({ path, reason: 'null' });
      continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branches = issue.errors.map((branch) => ignorablesOf(branch, input, path)).filter((b): b is Ignorable[] => b !== null);
      const best = branches.sort((a, b) => a.length - b.length)[0];
      if (best && best.length > 0) {
        found.push(...best);
        continue;
      }
    }
    return null;
  }
  return found;
}

/**
 * The keys to drop so that the request may pass: those of the issues that are only unknown keys or
 * nulls. Issues of other kinds stay and are reported as they are once these are dropped, so a
 * request with a wrong value and an unknown key is refused for the value alone.
 */
export function ignorableKeys(issues: readonly Issue[], input: unknown): Ignorable[] {
  const found: Ignorable[] = [];
  for (const issue of issues) found.push(...(ignorablesOf([issue], input, []) ?? []));
  return found;
}

const startsWith = (segments: readonly string[], path: Path): boolean => path.length <= segments.length && path.every((key, i) => String(key) === segments[i]);

/**
 * A copy of `input` without the keys at `paths` (the input itself is never changed: it is also
 * the idempotency fingerprint). A flat query (`filters[x]=…`, nested by the schema itself) loses
 * the parameters whose bracketed name lies under a path. Returns the copy and how many keys went.
 */
export function withoutKeys(input: unknown, paths: readonly Path[]): { value: unknown; removed: number } {
  const root: unknown = structuredClone(input);
  let removed = 0;
  for (const path of paths) {
    const parent = valueAt(root, path.slice(0, -1));
    const last = path[path.length - 1];
    if (isRecord(parent) && last !== undefined && typeof last !== 'symbol' && Object.hasOwn(parent, String(last))) {
      delete parent[String(last)];
      removed += 1;
      continue;
    }
    if (!isRecord(root)) continue;
    for (const name of Object.keys(root)) {
      const segments = querySegments(name);
      if (segments && segments.length > 1 && startsWith(segments, path)) {
        delete root[name];
        removed += 1;
      }
    }
  }
  return { value: root, removed };
}

/** `a.b[0].c`, as a log line names an ignored key. */
export const pathName = (path: Path): string =>
  path.map((key, i) => (typeof key === 'number' || /^\d+$/.test(String(key)) ? `[${String(key)}]` : `${i > 0 ? '.' : ''}${String(key)}`)).join('');
