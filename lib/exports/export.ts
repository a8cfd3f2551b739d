/** Export ids as this service makes them (`exp_` + base62). */
export const EXPORT_ID = /^exp_[0-9A-Za-z]{1,64}$/;

export type ExportStatus = 'SCHEDULED' | 'IN_PROGRESS' | 'DONE' | 'ERROR';

/** Columns of a points-expiration export, in the order used when the request names none. */
export const POINTS_EXPIRATION_FIELDS = ['id', 'campaign_id', 'voucher_id', 'status', 'expires_at', 'points'] as const;
export type PointsExpirationField = (typeof POINTS_EXPIRATION_FIELDS)[number];

/** `parameters.order`: a field, ascending, or `-` and the field, descending. */
export type ExportOrder = PointsExpirationField | `-${PointsExpirationField}`;

/** The field and direction of an order (`expires_at` ascending when none is given). */
export function parseExportOrder(order: ExportOrder | undefined): { orderBy: PointsExpirationField; ascending: boolean } {
  if (order === undefined) return { orderBy: 'expires_at', ascending: true };
  const ascending = !order.startsWith('-');
  const name = ascending ? order : order.slice(1);
  return { orderBy: POINTS_EXPIRATION_FIELDS.find((f) => f === name) ?? 'expires_at', ascending };
}

/** Objects POST /v1/exports exports (the reference's `exported_object` values, all of them). */
export const EXPORTED_OBJECTS = ['voucher', 'redemption', 'customer', 'publication', 'order', 'points_expiration', 'voucher_transactions'] as const;
export type ExportedObject = (typeof EXPORTED_OBJECTS)[number];

/** One field's conditions: `$after` / `$before` compare dates and date-times (exporters.ts says which fields). */
export interface FieldConditions {
  $in?: string[];
  $not_in?: string[];
  $is?: string;
  $is_not?: string;
  $after?: string;
  $before?: string;
}

/** Stored filters: the junction and each filtered field's conditions (keyed by the object's field names). */
export interface ExportFilters {
  junction: 'and' | 'or';
  conditions: Record<string, FieldConditions>;
}

export interface Export {
  id: string;
  projectId: string;
  exportedObject: ExportedObject;
  channel: 'API';
  status: ExportStatus;
  /** The request's `parameters`, as sent (the reply echoes them). */
  parameters: Record<string, unknown>;
  /**
   * The one campaign a points_expiration export reads (its path's, or its `campaign_id` filter's);
   * for other objects, a voucher export's `parameters.campaign_id` or null.
   */
  campaignId: string | null;
  /**
   * The one voucher a voucher_transactions export reads (a voucher's or loyalty card's export
   * door: its path's voucher), or null. Like `campaignId`, a bound on the rows that is not one of
   * the request's filters, so the request's `junction` cannot widen it.
   */
  voucherId: string | null;
  /** Effective columns (the request's, or the object's default fields). */
  fields: string[];
  /** The column rows are sorted by (stored before other orders existed: absent means expires_at). */
  orderBy: string;
  /** Ascending by `orderBy` (soonest expiry first) unless false. */
  ascending: boolean;
  filters: ExportFilters;
  /**
   * The application key whose request created the export (a key pair's, or a bearer token's key):
   * its IP allow-list applies to downloads through the signed link. Null on exports stored before
   * it was recorded (download-link.ts says what applies to them).
   */
  createdByAppId: string | null;
  /** Signs download tokens of this export (HMAC key); never leaves the table. */
  downloadSecret: string;
  /** Where the file is (deterministic per export, so a redelivered job overwrites it). */
  objectKey: string;
  rowCount: number | null;
  /** Why the export ended in ERROR. */
  failure: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  /**
   * When a customer's permanent deletion deleted the file (its rows could not be told apart:
   * docs/decisions.md "Customer permanent deletion"); absent otherwise. The export stays DONE.
   */
  fileErasedAt?: string | null;
}

/** The export file's object key: one per export, so a rerun overwrites rather than adds a file. */
export const exportObjectKey = (projectId: string, exportId: string): string => `exports/${projectId}/${exportId}.csv`;
