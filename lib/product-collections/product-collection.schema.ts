import { queryInt } from '../http/query-params.js';
import * as z from '../zod.js';
import { FILTER_OPERATORS, isFilterField } from './collection-filter.js';
import { MAX_STATIC_MEMBERS, type CollectionFilter, type FilterValue } from './product-collection.js';

const name = z.string().check(z.minLength(1), z.maxLength(1000));
const ref = z.string().check(z.minLength(1), z.maxLength(200));
const operand = z.union([z.string().check(z.maxLength(1000)), z.number()]);
/** The reference writes every operand as a list; one value alone is read as a list of one. */
const operands = z.preprocess((v) => (Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v]), z.array(operand).check(z.maxLength(100)));

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A filter field's value as the reference shapes it: an object with `conditions`. */
const isCondition = (v: unknown): boolean => isRecord(v) && Object.hasOwn(v, 'conditions');

/** One filter field: `{conditions: {<operator>: [values]}}`; an operator this service does not evaluate is refused by name. */
const fieldFilter = z.strictObject({
  conditions: z.record(z.string(), operands).check(
    z.superRefine((c, ctx) => {
      const ops = Object.keys(c);
      if (ops.length === 0) ctx.issues.push({ code: 'custom', input: c, message: 'needs at least one operator' });
      for (const op of ops) {
        if ((FILTER_OPERATORS as readonly string[]).includes(op)) continue;
        ctx.issues.push({
          code: 'custom',
          path: [op],
          input: c[op],
          message: `is not an operator product collections evaluate; expected one of ${FILTER_OPERATORS.join(', ')}`,
        });
      }
    }),
  ),
});

/**
 * An AUTO_UPDATE collection's `filter`: `junction` and one condition object per product field
 * (`id`, `source_id`, `name`, `price`, `image_url`, `created_at`, `metadata.<key>`). A field or
 * operator the service cannot evaluate is refused by name rather than ignored: an ignored
 * condition would put products in the collection that the client excluded.
 */
export const collectionFilter = z.pipe(
  z.looseObject({ junction: z.enum(['and', 'or', 'AND', 'OR']) }).check(
    z.superRefine((f, ctx) => {
      const fields = Object.keys(f).filter((k) => k !== 'junction');
      if (fields.length > 20) ctx.issues.push({ code: 'custom', input: f, message: 'names at most 20 fields' });
      for (const field of fields) {
        // A key that is no condition is an undocumented key: ignored, as everywhere (lib/http/lenient.ts).
        if (!isFilterField(field) && !isCondition(f[field])) continue;
        if (!isFilterField(field)) {
          ctx.issues.push({
            code: 'custom',
            path: [field],
            input: f[field],
            message: 'is not a field product collections filter on; expected id, source_id, name, price, image_url, created_at or metadata.<key>',
          });
          continue;
        }
        const parsed = z.safeParse(fieldFilter, f[field]);
        if (!parsed.success) for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, path: [field, ...issue.path], input: undefined });
      }
    }),
  ),
  z.transform((f): CollectionFilter => {
    const fields: CollectionFilter['fields'] = {};
    for (const [field, value] of Object.entries(f)) {
      if (field === 'junction' || !isRecord(value) || (!isFilterField(field) && !isCondition(value))) continue;
      fields[field] = z.parse(fieldFilter, value) as { conditions: Record<string, FilterValue[]> };
    }
    return { junction: f.junction.toLowerCase() === 'or' ? 'or' : 'and', fields };
  }),
);

/** A product or SKU a STATIC collection lists. */
const staticMember = z.strictObject({
  id: ref,
  object: z.enum(['product', 'sku']),
  product_id: z.optional(ref),
});

/** POST /v1/product-collections: a STATIC collection of products and SKUs picked by id, or an AUTO_UPDATE one with a filter. */
export const createProductCollectionBody = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('STATIC'),
    name,
    products: z._default(z.array(staticMember).check(z.maxLength(MAX_STATIC_MEMBERS)), []),
  }),
  z.strictObject({ type: z.literal('AUTO_UPDATE'), name, filter: collectionFilter }),
]);
export type CreateProductCollectionBody = z.output<typeof createProductCollectionBody>;

/** PUT /v1/product-collections/{productCollectionId}: a new name, and for an AUTO_UPDATE collection a new filter (each optional). */
export const putProductCollectionBody = z.strictObject({ name: z.optional(name), filter: z.optional(collectionFilter) });
export type PutProductCollectionBody = z.output<typeof putProductCollectionBody>;

export const productCollectionParams = z.strictObject({ productCollectionId: ref });

/** The orders served: by creation (the reference's other values name voucher fields a collection lacks). */
export const COLLECTION_ORDERS = ['created_at', '-created_at'] as const;

/** GET /v1/product-collections: `limit` (1–100, default 10), `page`, by creation. */
export const listProductCollectionsQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 100), 1),
  order: z._default(z.enum(COLLECTION_ORDERS), 'created_at'),
});
export type ListProductCollectionsQuery = z.output<typeof listProductCollectionsQuery>;

/** GET /v1/product-collections/{productCollectionId}/products: `limit`, `page`; members in id order. */
export const listProductsInCollectionQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 100), 1),
});
export type ListProductsInCollectionQuery = z.output<typeof listProductsInCollectionQuery>;
