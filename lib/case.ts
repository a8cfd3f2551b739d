/**
 * Key-case conversion for nested configuration objects (discounts, gift and loyalty settings,
 * validity hours, ...): the wire is snake_case, domain objects are camelCase. Only ever applied
 * to such known structures, never to `metadata`, whose keys belong to the client.
 */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
type SnakeCase<S extends string> = S extends `${infer C}${infer Rest}` ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${SnakeCase<Rest>}` : S;

export type Camelize<T> = T extends readonly (infer U)[]
  ? Camelize<U>[]
  : T extends object
    ? { [K in keyof T as K extends string ? CamelCase<K> : K]: Camelize<T[K]> }
    : T;

export type Snakeize<T> = T extends readonly (infer U)[]
  ? Snakeize<U>[]
  : T extends object
    ? { [K in keyof T as K extends string ? SnakeCase<K> : K]: Snakeize<T[K]> }
    : T;

/**
 * A rename remembered per key: the structures converted have a small fixed set of keys, renamed on
 * every reply (a qualification converts fifty discounts). Bounded, in case a caller ever passes
 * keys of its own.
 */
function remembered(rename: (key: string) => string): (key: string) => string {
  const seen = new Map<string, string>();
  return (key) => {
    let out = seen.get(key);
    if (out === undefined) {
      out = rename(key);
      if (seen.size < 1000) seen.set(key, out);
    }
    return out;
  };
}

const toCamel = remembered((key) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
const toSnake = remembered((key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

function convert(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => convert(v, rename));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const renamed = rename(key);
      const converted = convert((value as Record<string, unknown>)[key], rename);
      // A key named __proto__ stays a field (as Object.fromEntries kept it): never the prototype.
      if (renamed === '__proto__') Object.defineProperty(out, renamed, { value: converted, enumerable: true, writable: true, configurable: true });
      else out[renamed] = converted;
    }
    return out;
  }
  return value;
}

export const camelize = <T>(value: T): Camelize<T> => convert(value, toCamel) as Camelize<T>;
export const snakeize = <T>(value: T): Snakeize<T> => convert(value, toSnake) as Snakeize<T>;
