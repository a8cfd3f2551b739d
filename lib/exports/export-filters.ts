import * as z from '../zod.js';
import type { ExportFilters, FieldConditions, PointsExpirationField } from './export.js';

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

function matches(cell: string, c: FieldConditions): boolean {
  if (c.$in !== undefined && !c.$in.includes(cell)) return false;
  if (c.$not_in?.includes(cell)) return false;
  if (c.$is !== undefined && cell !== c.$is) return false;
  if (c.$is_not !== undefined && cell === c.$is_not) return false;
  return true;
}

/** A predicate over a row's cells (field → text) for the given filters; no filter matches every row. */
export function compileFilters(filters: ExportFilters): (cells: Record<PointsExpirationField, string>) => boolean {
  const entries = Object.entries(filters.conditions) as Array<[PointsExpirationField, FieldConditions]>;
  if (entries.length === 0) return () => true;
  return filters.junction === 'or'
    ? (cells) => entries.some(([field, c]) => matches(cells[field], c))
    : (cells) => entries.every(([field, c]) => matches(cells[field], c));
}
