import { queryInt } from '../http/query-params.js';
import * as z from '../zod.js';
import { type ExportOrder, POINTS_EXPIRATION_FIELDS } from './export.js';
import { EXPORTED_OBJECTS, type ExportedObject } from './export.js';
import { exportFiltersSchema, objectFiltersSchema } from './export-filters.js';
import { EXPORTERS } from './exporters.js';

/**
 * Sort orders of an export: any exportable field, ascending, or descending with a leading `-`.
 * Expiry orders stream in key order (buckets are stored sorted by expiry); the others go through
 * an external merge sort in the worker (external-sort.ts). Anything else is refused.
 */
export const EXPORT_ORDERS = [
  'expires_at',
  '-expires_at',
  'id',
  '-id',
  'campaign_id',
  '-campaign_id',
  'voucher_id',
  '-voucher_id',
  'status',
  '-status',
  'points',
  '-points',
] as const satisfies readonly ExportOrder[];
// Every field, both ways: a field added to POINTS_EXPIRATION_FIELDS without its orders fails to compile here.
const _everyOrder: readonly (typeof EXPORT_ORDERS)[number][] = [] as ExportOrder[];
void _everyOrder;

const field = z.enum(POINTS_EXPIRATION_FIELDS, {
  error: (issue) => `must be one of ${POINTS_EXPIRATION_FIELDS.join(', ')} (got ${JSON.stringify(issue.input)})`,
});

/** An export's parameters: validated in the request, echoed in the reply (export.reply.ts). */
export const exportParameters = z.strictObject({
  // An empty list names no field, like an absent one: every field (the reference sets no minimum).
  fields: z.optional(z.array(field).check(z.refine((fields) => new Set(fields).size === fields.length, { error: 'must not name a field twice' }))),
  order: z.optional(
    z.enum(EXPORT_ORDERS, {
      error: (issue) => `must be one of ${EXPORT_ORDERS.join(', ')} (got ${JSON.stringify(issue.input)})`,
    }),
  ),
  filters: z.optional(exportFiltersSchema),
});

/** POST /v1/loyalties/{campaignId}/points-expiration/export */
export const createPointsExpirationExportBody = z.strictObject({ parameters: z.optional(exportParameters) });
export type CreatePointsExpirationExportBody = z.output<typeof createPointsExpirationExportBody>;

export const loyaltyCampaignParams = z.strictObject({ campaignId: z.string().check(z.minLength(1), z.maxLength(1000)) });

export const exportParams = z.strictObject({ exportId: z.string().check(z.minLength(1), z.maxLength(100)) });

/** The download cluster's query: the token from `result.url`. */
/** Without a token the reply is the same 401 as with a wrong one. */
export const downloadExportQuery = z.strictObject({ token: z.optional(z.string().check(z.maxLength(1000))) });

/** One object's `fields`: its columns, each at most once; a reference field this service does not store is named as such. */
function fieldsOf(object: ExportedObject) {
  const spec = EXPORTERS[object];
  const column = z.enum(spec.fields as [string, ...string[]], {
    error: (issue) =>
      spec.unsupported.includes(String(issue.input))
        ? `${JSON.stringify(issue.input)} is not exported by this service (docs/decisions.md "Exports"); ${object} exports ${spec.fields.join(', ')}`
        : `must be one of ${spec.fields.join(', ')} (got ${JSON.stringify(issue.input)})`,
  });
  return z.array(column).check(
    z.maxLength(100),
    z.refine((fields) => new Set(fields).size === fields.length, { error: 'must not name a field twice' }),
  );
}

/** One object's `order`: its orders, a field ascending or `-` and the field descending. */
function orderOf(object: ExportedObject) {
  const spec = EXPORTERS[object];
  return z.enum(spec.orders as [string, ...string[]], { error: (issue) => `must be one of ${spec.orders.join(', ')} (got ${JSON.stringify(issue.input)})` });
}

/** One object's `parameters`: `fields`, `order` and `filters` (export.ts, exporters.ts). */
function parametersOf(object: ExportedObject) {
  return {
    fields: z.optional(fieldsOf(object)),
    order: z.optional(orderOf(object)),
    filters: z.optional(objectFiltersSchema(object)),
  };
}

function exportBodyOf<O extends ExportedObject>(object: O) {
  return z.strictObject({
    exported_object: z.literal(object),
    parameters: z.optional(
      z.strictObject({
        ...parametersOf(object),
        // The reference's voucher export also takes a campaign: only that campaign's vouchers.
        ...(object === 'voucher' ? { campaign_id: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))) } : {}),
      }),
    ),
  });
}

/** POST /v1/exports: one branch per `exported_object` (lib/exports/exporters.ts says what each takes). */
export const createExportBody = z.discriminatedUnion(
  'exported_object',
  [
    exportBodyOf('voucher'),
    exportBodyOf('redemption'),
    exportBodyOf('customer'),
    exportBodyOf('publication'),
    exportBodyOf('order'),
    exportBodyOf('points_expiration'),
    exportBodyOf('voucher_transactions'),
  ],
  {
    error: (issue) =>
      `exported_object must be one of ${EXPORTED_OBJECTS.join(', ')} (got ${JSON.stringify((issue.input as { exported_object?: unknown })?.exported_object)})`,
  },
);
export type CreateExportBody = z.output<typeof createExportBody>;

/** GET /v1/exports: a page of the project's exports, newest first unless `order=created_at`. */
export const listExportsQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 100), 1),
  order: z._default(
    z.enum(['created_at', '-created_at'], {
      error: (issue) =>
        `must be created_at or -created_at (got ${JSON.stringify(issue.input)}); the status orders are not served (docs/decisions.md "Exports")`,
    }),
    '-created_at',
  ),
});
export type ListExportsQuery = z.output<typeof listExportsQuery>;

/** POST /v1/orders/export: the order branch of POST /v1/exports without `exported_object` (an empty body exports id, source_id, status). */
export const createOrderExportBody = z.strictObject({ parameters: z.optional(z.strictObject(parametersOf('order'))) });
export type CreateOrderExportBody = z.output<typeof createOrderExportBody>;

/**
 * POST /v1/vouchers/{code}/transactions/export: `fields` and `order` of a voucher_transactions
 * export (the reference takes no filters here: the path names the voucher).
 */
export const exportVoucherTransactionsBody = z.strictObject({
  parameters: z.optional(z.strictObject({ fields: z.optional(fieldsOf('voucher_transactions')), order: z.optional(orderOf('voucher_transactions')) })),
});
export type ExportVoucherTransactionsBody = z.output<typeof exportVoucherTransactionsBody>;

/**
 * POST /v1/campaigns/{campaignId}/transactions/export and the loyalty transaction exports: a
 * voucher_transactions export's `fields`, `order` and `filters`, bounded by the path's campaign or card.
 */
export const exportTransactionsBody = z.strictObject({ parameters: z.optional(z.strictObject(parametersOf('voucher_transactions'))) });
export type ExportTransactionsBody = z.output<typeof exportTransactionsBody>;
