import type { StringFilterConditions } from './filter-conditions.schema.js';

/**
 * Evaluating Voucherify's list filters on rows already read (no I/O). A field's operators all
 * hold (`and`); the fields combine by the junction. `null` is a field without a value: it is not
 * any value, so `$is_not`, `$not_in` and `$not_contain` hold for it and `$is_unknown` does.
 */

export function matchesString(value: string | null, c: StringFilterConditions): boolean {
  if (c.$in !== undefined && (value === null || !c.$in.includes(value))) return false;
  if (c.$not_in !== undefined && value !== null && c.$not_in.includes(value)) return false;
  if (c.$is !== undefined && value !== c.$is) return false;
  if (c.$is_not !== undefined && value === c.$is_not) return false;
  if (c.$has_value !== undefined && value === null) return false;
  if (c.$is_unknown !== undefined && value !== null) return false;
  if (c.$starts_with !== undefined && !(value?.startsWith(c.$starts_with) ?? false)) return false;
  if (c.$ends_with !== undefined && !(value?.endsWith(c.$ends_with) ?? false)) return false;
  if (c.$contains !== undefined && !(value?.includes(c.$contains) ?? false)) return false;
  if (c.$not_contain !== undefined && (value?.includes(c.$not_contain) ?? false)) return false;
  return true;
}

/** The operators given (those with a value). */
export const operatorsOf = (c: StringFilterConditions): string[] =>
  Object.entries(c)
    .filter(([, v]) => v !== undefined)
    .map(([op]) => op);

/** The one value `$is` (or an `$in` of one value) asks for, when that is the field's only operator: what an index key can serve. */
export function soleValue(c: StringFilterConditions): string | undefined {
  if (operatorsOf(c).length !== 1) return undefined;
  return c.$is ?? (c.$in?.length === 1 ? c.$in[0] : undefined);
}

/** Whether `junction` is `or` (either case); absent means `and`, Voucherify's default. */
export const isOr = (junction: string | undefined): boolean => junction?.toLowerCase() === 'or';

/** The filter fields given, each with its conditions, in a stable order. */
export function givenFilters<F extends string>(
  filters: Partial<Record<F, { conditions: StringFilterConditions } | undefined>> | undefined,
  fields: readonly F[],
): [F, StringFilterConditions][] {
  if (!filters) return [];
  return fields.flatMap((f) => {
    const given = filters[f];
    return given ? [[f, given.conditions] as [F, StringFilterConditions]] : [];
  });
}

/** Whether a row passes the given filters (`read` gives a field of it). No field given: every row passes. */
export function matchesFilters<F extends string>(given: readonly [F, StringFilterConditions][], or: boolean, read: (field: F) => string | null): boolean {
  if (given.length === 0) return true;
  const test = ([field, c]: [F, StringFilterConditions]) => matchesString(read(field), c);
  return or ? given.some(test) : given.every(test);
}
