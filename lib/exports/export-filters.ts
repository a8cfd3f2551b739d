import * as z from '../zod.js';
import type { ExportedObject, ExportFilters, FieldConditions, PointsExpirationField } from './export.js';
import { EXPORTERS, filterCellOf, filterNamesOf } from './exporters.js';

/**
 * The filter grammar of exports (Voucherify's `filters` object):
 *
 *   filters   = { junction?: "and" | "or", <field>: { conditions: { <operator>: <value>, ... } }, ... }
 *   operator  = "$in" | "$not_in"  (value: 0..1000 strings; an empty `$in` matches nothing, an empty `$not_in` everything)
 *             | "$is" | "$is_not"  (value: one string)
 *
 * A row matches a field when it satisfies every operator given for it (AND); fields combine with
 * `junction` (default `and`). Values compare as exact, case-sensitive strings against the cell's
 * text (`expires_at` as YYYY-MM-DD, empty when the points never expire). To make another field
 * filterable, add it to FILTERABLE_FIELDS; to add an operator, add it to `conditions` and to
 * `matches`. Anything else is refused by the schema (400 naming it).
 */
export const FILTERABLE_FIELDS = ['id', 'campaign_id', 'voucher_id', 'status'] as const satisfies readonly PointsExpirationField[];

const value = z.string().check(z.minLength(1), z.maxLength(200));
// The reference sets no minimum: `$in: []` is a filter no row passes (a header-only file), `$not_in: []` one every row passes.
const values = z.array(value).check(z.maxLength(1000));

const conditions = z
  .strictObject({ $in: z.optional(values), $not_in: z.optional(values), $is: z.optional(value), $is_not: z.optional(value) })
  .check(z.refine((c) => Object.values(c).some((v) => v !== undefined), { error: 'needs at least one operator: $in, $not_in, $is, $is_not' }));

const fieldFilter = z.strictObject({ conditions });

export const exportFiltersSchema = z.strictObject({
  junction: z.optional(z.enum(['and', 'or'])),
  id: z.optional(fieldFilter),
  campaign_id: z.optional(fieldFilter),
  voucher_id: z.optional(fieldFilter),
  status: z.optional(fieldFilter),
} satisfies Record<'junction' | (typeof FILTERABLE_FIELDS)[number], z.ZodMiniType>);
export type ExportFiltersInput = z.output<typeof exportFiltersSchema>;

/** The request's filters in the stored form: the junction and each field's conditions. */
export function normalizeFilters(input: ExportFiltersInput | undefined): ExportFilters {
  const result: ExportFilters = { junction: input?.junction ?? 'and', conditions: {} };
  for (const field of FILTERABLE_FIELDS) {
    const given = input?.[field];
    if (given) result.conditions[field] = given.conditions;
  }
  return result;
}

/** An instant of a date or date-time text; NaN when it is neither (an empty cell). */
const instant = (text: string): number => (text === '' ? Number.NaN : Date.parse(text));

/** A number of a cell or value; NaN when it is none (an empty cell). */
const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * Whether a cell passes one field's conditions (all of them). Text compares exactly (case-sensitive);
 * on a date field, `$is` / `$is_not` with a date (YYYY-MM-DD) compare the cell's day, and
 * `$after` / `$before` compare instants (strictly); an empty cell passes no `$after` / `$before`
 * and no comparison of numbers.
 */
export function matches(cell: string, c: FieldConditions, isDate = false): boolean {
  const same = (value: string): boolean => (isDate && value.length === 10 ? cell.slice(0, 10) === value : cell === value);
  if (c.$in !== undefined && !c.$in.some(same)) return false;
  if (c.$not_in?.some(same)) return false;
  if (c.$is !== undefined && !same(c.$is)) return false;
  if (c.$is_not !== undefined && same(c.$is_not)) return false;
  if (c.$after !== undefined && !(instant(cell) > instant(c.$after))) return false;
  if (c.$before !== undefined && !(instant(cell) < instant(c.$before))) return false;
  const x = c as GeneralConditions;
  if (x.$has_value !== undefined && cell === '') return false;
  if (x.$is_unknown !== undefined && cell !== '') return false;
  if (x.$contains !== undefined && !cell.includes(x.$contains)) return false;
  if (x.$not_contain !== undefined && cell.includes(x.$not_contain)) return false;
  if (x.$starts_with !== undefined && !cell.startsWith(x.$starts_with)) return false;
  if (x.$ends_with !== undefined && !cell.endsWith(x.$ends_with)) return false;
  if (x.$more_than !== undefined && !(numberOf(cell) > numberOf(x.$more_than))) return false;
  if (x.$less_than !== undefined && !(numberOf(cell) < numberOf(x.$less_than))) return false;
  if (x.$more_than_equal !== undefined && !(numberOf(cell) >= numberOf(x.$more_than_equal))) return false;
  if (x.$less_than_equal !== undefined && !(numberOf(cell) <= numberOf(x.$less_than_equal))) return false;
  return true;
}

/**
 * A predicate over a row's cells (name → text) for the given filters; no filter matches every row.
 * `cellOf` names the cell a filter compares (a filter name may differ from the column: exporters.ts),
 * `isDate` the filters compared as dates.
 */
export function compileFilters(
  filters: ExportFilters,
  cellOf: (name: string) => string = (name) => name,
  isDate: (name: string) => boolean = () => false,
): (cells: Readonly<Record<string, string>>) => boolean {
  const entries = Object.entries(filters.conditions).map(([name, c]) => ({ cell: cellOf(name), c, date: isDate(name) }));
  if (entries.length === 0) return () => true;
  const one = (cells: Readonly<Record<string, string>>, e: (typeof entries)[number]): boolean => matches(cells[e.cell] ?? '', e.c, e.date);
  return filters.junction === 'or' ? (cells) => entries.some((e) => one(cells, e)) : (cells) => entries.every((e) => one(cells, e));
}

/** The predicate of an export's filters over its object's rows. */
export function compileExportFilters(object: ExportedObject, filters: ExportFilters): (cells: Readonly<Record<string, string>>) => boolean {
  const dates = new Set(EXPORTERS[object].dates);
  return compileFilters(
    filters,
    (name) => filterCellOf(object, name),
    (name) => dates.has(name) || dates.has(filterCellOf(object, name)),
  );
}

/**
 * The operators of POST /v1/exports beyond the loyalty path's four. The reference's relative-date
 * and count operators (`$is_days_ago`, `$more_than_ago`, `$count`, …) are refused as unknown keys
 * (docs/decisions.md "Exports").
 */
export interface GeneralConditions extends FieldConditions {
  $has_value?: string;
  $is_unknown?: string;
  $contains?: string;
  $not_contain?: string;
  $starts_with?: string;
  $ends_with?: string;
  $more_than?: string;
  $less_than?: string;
  $more_than_equal?: string;
  $less_than_equal?: string;
}

// The reference types every operand as an array ("Any"): a scalar or a one-element list is one value.
const scalar = z.union([z.string().check(z.maxLength(200)), z.number()]);
const one = z.pipe(
  z.union([scalar, z.array(scalar).check(z.length(1, { error: 'must be one value (or a list of one)' }))]),
  z.transform((v) => String(Array.isArray(v) ? v[0] : v)),
);
const many = z.pipe(
  z.union([scalar, z.array(scalar).check(z.maxLength(1000))]),
  z.transform((v) => (Array.isArray(v) ? v : [v]).map(String)),
);
const dateValue = z.pipe(
  one,
  z.transform((v, ctx) => {
    if (Number.isNaN(Date.parse(v))) ctx.issues.push({ code: 'custom', message: `must be a date or date-time (got ${JSON.stringify(v)})`, input: v });
    return v;
  }),
);
// `$has_value` / `$is_unknown` take no operand: anything given (Voucherify's examples send an empty string or true) only switches them on.
const flag = z.pipe(
  z.unknown(),
  z.transform(() => ''),
);

const textConditions = {
  $in: z.optional(many),
  $not_in: z.optional(many),
  $is: z.optional(one),
  $is_not: z.optional(one),
  $has_value: z.optional(flag),
  $is_unknown: z.optional(flag),
  $contains: z.optional(one),
  $not_contain: z.optional(one),
  $starts_with: z.optional(one),
  $ends_with: z.optional(one),
  $more_than: z.optional(one),
  $less_than: z.optional(one),
  $more_than_equal: z.optional(one),
  $less_than_equal: z.optional(one),
};

const someOperator = z.refine((c: unknown) => Object.values(c as Record<string, unknown>).some((v) => v !== undefined), {
  error: 'needs at least one operator',
});

const textFilter = z.strictObject({ conditions: z.strictObject(textConditions).check(someOperator) });
const dateFilter = z.strictObject({
  conditions: z.strictObject({ ...textConditions, $after: z.optional(dateValue), $before: z.optional(dateValue) }).check(someOperator),
});

/**
 * The `filters` of POST /v1/exports for one object: `junction` and, per filter name (its fields and
 * its extra names, exporters.ts), `{ conditions: { <operator>: <value> } }`. Any other name or
 * operator is a 400 naming it; `$after` / `$before` only on date fields.
 */
export function objectFiltersSchema(object: ExportedObject) {
  const dates = new Set(EXPORTERS[object].dates);
  const shape: Record<string, z.ZodMiniType> = { junction: z.optional(z.enum(['and', 'or'])) };
  for (const name of filterNamesOf(object)) {
    shape[name] = z.optional(dates.has(name) || dates.has(filterCellOf(object, name)) ? dateFilter : textFilter);
  }
  return z.strictObject(shape);
}

/** Parsed `filters` of POST /v1/exports in the stored form. */
export function normalizeObjectFilters(input: Record<string, unknown> | undefined): ExportFilters {
  const result: ExportFilters = { junction: input?.junction === 'or' ? 'or' : 'and', conditions: {} };
  for (const [name, given] of Object.entries(input ?? {})) {
    if (name === 'junction' || given === undefined) continue;
    const conditions = (given as { conditions: Record<string, string | string[] | undefined> }).conditions;
    result.conditions[name] = Object.fromEntries(Object.entries(conditions).filter(([, v]) => v !== undefined)) as FieldConditions;
  }
  return result;
}
