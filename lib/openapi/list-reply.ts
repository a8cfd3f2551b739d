import * as z from '../zod.js';

/*
 * The list envelope Voucherify wraps every page in: `object: 'list'`, `data_ref` naming the key
 * that holds the items, the items under that key, then `total`, `has_more` and whatever else the
 * list adds (`more_starting_after`). One builder, so each reply module states only what its list
 * does differently. Only reply modules (the OpenAPI generator and the tests) import this: handler
 * bundles never carry it.
 */

/** A non-negative integer: the default `total`. */
export const countReply = z.int().check(z.nonnegative());

type Envelope<T extends z.ZodMiniType, D extends string> = {
  object: z.ZodMiniLiteral<'list'>;
  data_ref: z.ZodMiniLiteral<D>;
} & { [K in D]: z.ZodMiniArray<T> };

type None = Record<never, never>;
type TotalField<Total> = Total extends null ? None : Total extends z.ZodMiniType ? { total: Total } : { total: typeof countReply };
type HasMoreField<HasMore> = HasMore extends true | string ? { has_more: z.ZodMiniBoolean<boolean> } : None;

export interface ListReplyOptions<D extends string, Total, HasMore, After extends z.core.$ZodShape> {
  /** The key the items stand under, and the value of `data_ref`. */
  dataRef: D;
  /** `total`: a plain count by default; a string describes the count; a schema replaces it (an optional count); null leaves it out. */
  total?: Total;
  /** `has_more`, a boolean: left out by default; a string describes it. */
  hasMore?: HasMore;
  /** The fields after `has_more`, in their wire order (`more_starting_after`, …). */
  after?: After;
}

export type ListReplySchema<T extends z.ZodMiniType, D extends string, Total, HasMore, After extends z.core.$ZodShape> = z.ZodMiniObject<
  Envelope<T, D> & TotalField<Total> & HasMoreField<HasMore> & After,
  z.core.$strict
>;

const described = <S extends z.ZodMiniType>(schema: S, description: true | string): S =>
  typeof description === 'string' ? schema.check(z.describe(description)) : schema;

/**
 * The strict reply schema of a list of `item`: `object`, `data_ref`, the items, `total`,
 * `has_more`, then the `after` fields, in that order (the key order of the JSON Schema in
 * docs/openapi.json).
 */
export function listReply<
  T extends z.ZodMiniType,
  const D extends string,
  Total extends z.ZodMiniType | string | null = typeof countReply,
  HasMore extends true | string | undefined = undefined,
  After extends z.core.$ZodShape = None,
>(item: T, options: ListReplyOptions<D, Total, HasMore, After>): ListReplySchema<T, D, Total, HasMore, After> {
  const { dataRef, total, hasMore, after } = options;
  const totalSchema = total === undefined ? countReply : typeof total === 'string' ? described(countReply, total) : total;
  const shape = {
    object: z.literal('list'),
    data_ref: z.literal(dataRef),
    [dataRef]: z.array(item),
    ...(totalSchema === null ? {} : { total: totalSchema }),
    ...(hasMore === undefined ? {} : { has_more: described(z.boolean(), hasMore) }),
    ...after,
  };
  // The computed `[dataRef]` key widens the literal shape to an index signature; the declared type restores it.
  return z.strictObject(shape) as unknown as ListReplySchema<T, D, Total, HasMore, After>;
}
