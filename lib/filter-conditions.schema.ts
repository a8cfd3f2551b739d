import * as z from './zod.js';

/**
 * Voucherify's list filters in bracketed query parameters: `filters[<field>][conditions][<operator>]=<value>`.
 * Array operands are written `[$in][0]=a&[$in][1]=b`; one value (`$in=a`) is read as a list of one.
 */
export const queryList = <T extends z.ZodMiniType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(item).check(z.minLength(1), z.maxLength(100)));

/** Operators without an operand (`$has_value`, `$is_unknown`, `$active`, …) take an empty value. */
export const noOperand = z.literal('', { error: 'takes no value' });

/**
 * Voucherify's FilterConditionsString: every operator is accepted by syntax; each list serves
 * those its keys can answer. `maxLength`: the longest value the filtered field can hold.
 */
export const stringConditions = (maxLength: number) => {
  const text = z.string().check(z.minLength(1), z.maxLength(maxLength));
  return z.strictObject({
    $in: z.optional(queryList(text)),
    $not_in: z.optional(queryList(text)),
    $is: z.optional(text),
    $is_not: z.optional(text),
    $has_value: z.optional(noOperand),
    $is_unknown: z.optional(noOperand),
    $starts_with: z.optional(text),
    $ends_with: z.optional(text),
    $contains: z.optional(text),
    $not_contain: z.optional(text),
  });
};

/** How a list's filter fields combine (Voucherify's Junction; its SDK also writes the upper case). */
export const junction = z.enum(['and', 'or', 'AND', 'OR']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Refuses keys outside `known`, each named. A filter field or operator is never dropped as an
 * undocumented key is (lib/http/lenient.ts): an ignored filter would list rows the client excluded.
 */
const onlyKnown = (known: readonly string[], what: string) =>
  z.superRefine((value: unknown, ctx) => {
    if (!isRecord(value)) return;
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      ctx.issues.push({ code: 'custom', path: [key], input: value[key], message: `is not ${what}; expected one of ${known.join(', ')}` });
    }
  });

const STRING_OPERATORS = ['$in', '$not_in', '$is', '$is_not', '$has_value', '$is_unknown', '$starts_with', '$ends_with', '$contains', '$not_contain'];

/**
 * A list's `filters` object of string fields (FilterConditionsString each): `junction` and one
 * `{conditions}` per field, at least one operator each. Unknown fields and operators are refused
 * by name (onlyKnown); which fields and operators a list can serve is its service's rule.
 * `maxLength`: the longest value a filtered field holds.
 */
export function stringFilters<const F extends string>(fields: readonly F[], maxLength: number, list: string) {
  const conditions = z.looseObject(stringConditions(maxLength).def.shape).check(
    onlyKnown(STRING_OPERATORS, 'an operator of these filters'),
    z.refine((c) => Object.values(c).some((v) => v !== undefined), 'needs at least one operator'),
  );
  const condition = z.strictObject({ conditions });
  const shape = Object.fromEntries(fields.map((f) => [f, z.optional(condition)])) as { [K in F]: z.ZodMiniOptional<typeof condition> };
  return z.looseObject({ junction: z.optional(junction), ...shape }).check(onlyKnown(['junction', ...fields], `a filter of ${list}`));
}

/** The conditions of one string filter field, as stringFilters reads them. */
export interface StringFilterConditions {
  $in?: string[] | undefined;
  $not_in?: string[] | undefined;
  $is?: string | undefined;
  $is_not?: string | undefined;
  $has_value?: string | undefined;
  $is_unknown?: string | undefined;
  $starts_with?: string | undefined;
  $ends_with?: string | undefined;
  $contains?: string | undefined;
  $not_contain?: string | undefined;
}
