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
