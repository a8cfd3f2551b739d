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

const toCamel = (key: string): string => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const toSnake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function convert(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => convert(v, rename));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), convert(v, rename)]));
  }
  return value;
}

export const camelize = <T>(value: T): Camelize<T> => convert(value, toCamel) as Camelize<T>;
export const snakeize = <T>(value: T): Snakeize<T> => convert(value, toSnake) as Snakeize<T>;
