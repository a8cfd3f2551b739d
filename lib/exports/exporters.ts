import type { ExportedObject } from './export.js';

/**
 * What POST /v1/exports accepts per exported object, as data (no I/O: the request schema, the
 * OpenAPI document and the worker all read it). The rows themselves come from export-sources.ts.
 *
 * - `fields`: the columns this service writes, in the reference's enum order.
 * - `unsupported`: the reference's fields this service does not store (a 400 names them; docs/decisions.md says why).
 * - `defaultFields`: the columns when the request names none.
 * - `orders`: the reference's `order` values (a field, `-` for descending); `defaultOrder` when none is given.
 * - `naturalOrder`: the field the source reads rows in (its index's sort key); any other order goes
 *   through the external sort.
 * - `dates`: fields (and filters) compared as instants (`$after`, `$before`); the others compare as text.
 * - `numbers`: fields an order compares as numbers.
 * - `filters`: filter names beyond the fields (every field is filterable, as the reference's
 *   `additionalProperties` allows), each naming the row cell it compares.
 */
export interface ExporterSpec {
  fields: readonly string[];
  unsupported: readonly string[];
  defaultFields: readonly string[];
  orders: readonly string[];
  defaultOrder: string;
  naturalOrder: string;
  dates: readonly string[];
  numbers: readonly string[];
  filters: Readonly<Record<string, string>>;
}

/** Both directions of each field. */
const both = (...fields: string[]): string[] => fields.flatMap((f) => [f, `-${f}`]);

export const EXPORTERS: Readonly<Record<ExportedObject, ExporterSpec>> = {
  voucher: {
    fields: [
      'code',
      'voucher_type',
      'value',
      'formula',
      'discount_type',
      'campaign',
      'category',
      'start_date',
      'expiration_date',
      'gift_balance',
      'loyalty_balance',
      'redemption_quantity',
      'redemption_count',
      'active',
      'metadata',
      'id',
      'is_referral_code',
      'created_at',
      'updated_at',
      'validity_timeframe_interval',
      'validity_timeframe_duration',
      'validity_day_of_week',
      'discount_amount_limit',
      'campaign_id',
      'additional_info',
      'customer_id',
      'discount_effect',
      'discount_unit_type',
      'discount_unit_effect',
    ],
    unsupported: ['qr_code', 'bar_code', 'validation_rules_id', 'customer_source_id'],
    defaultFields: ['code', 'voucher_type', 'value', 'discount_type'],
    orders: both('created_at', 'updated_at', 'code'),
    defaultOrder: '-created_at',
    naturalOrder: 'created_at',
    dates: ['created_at', 'updated_at', 'start_date', 'expiration_date'],
    numbers: ['value', 'gift_balance', 'loyalty_balance', 'redemption_quantity', 'redemption_count', 'discount_amount_limit'],
    filters: { holder_id: 'customer_id', category_ids: 'category_id', categories: 'category' },
  },
  redemption: {
    fields: [
      'id',
      'object',
      'date',
      'voucher_code',
      'campaign',
      'promotion_tier_id',
      'customer_id',
      'customer_source_id',
      'tracking_id',
      'order_id',
      'order_amount',
      'gift_amount',
      'loyalty_points',
      'result',
      'metadata',
    ],
    unsupported: ['customer_name', 'failure_code', 'failure_message'],
    defaultFields: ['id', 'object', 'voucher_code', 'customer_id', 'date', 'result'],
    orders: both('id', 'voucher_code', 'tracking_id', 'customer_id', 'created_at'),
    defaultOrder: '-created_at',
    naturalOrder: 'created_at',
    dates: ['date', 'created_at'],
    numbers: ['order_amount', 'gift_amount', 'loyalty_points'],
    filters: {
      created_at: 'created_at',
      campaign: 'campaign',
      campaign_name: 'campaign',
      customer: 'customer_id',
      voucher: 'voucher_code',
      related_object: 'related_object_type',
      related_object_id: 'related_object_id',
      status: 'status',
    },
  },
  customer: {
    fields: [
      'name',
      'id',
      'description',
      'email',
      'source_id',
      'created_at',
      'address_city',
      'address_state',
      'address_line_1',
      'address_line_2',
      'address_country',
      'address_postal_code',
      'updated_at',
      'phone',
      'birthday',
      'metadata',
      'birthdate',
    ],
    unsupported: [
      'redemptions_total_redeemed',
      'redemptions_total_failed',
      'redemptions_total_succeeded',
      'redemptions_total_rolled_back',
      'redemptions_total_rollback_failed',
      'redemptions_total_rollback_succeeded',
      'orders_total_amount',
      'orders_total_count',
      'orders_average_amount',
      'orders_last_order_amount',
      'orders_last_order_date',
      'loyalty_points',
      'loyalty_referred_customers',
    ],
    defaultFields: ['name', 'source_id'],
    orders: both('name', 'id', 'email', 'source_id', 'created_at', 'updated_at'),
    defaultOrder: '-created_at',
    naturalOrder: 'created_at',
    dates: ['created_at', 'updated_at'],
    numbers: [],
    filters: { city: 'address_city' },
  },
  publication: {
    fields: ['voucher_code', 'customer_id', 'customer_source_id', 'date', 'channel', 'campaign', 'metadata'],
    unsupported: ['is_winner'],
    defaultFields: ['voucher_code', 'customer_id', 'date', 'channel'],
    orders: both('id', 'voucher_code', 'tracking_id', 'customer_id', 'created_at', 'channel'),
    defaultOrder: '-created_at',
    naturalOrder: 'created_at',
    dates: ['date', 'created_at'],
    numbers: [],
    filters: {
      created_at: 'created_at',
      campaign: 'campaign',
      campaign_name: 'campaign',
      customer: 'customer_id',
      voucher: 'voucher_code',
      voucher_type: 'voucher_type',
      is_referral_code: 'is_referral_code',
      source_id: 'source_id',
    },
  },
  order: {
    fields: [
      'id',
      'source_id',
      'created_at',
      'updated_at',
      'status',
      'amount',
      'discount_amount',
      'items_discount_amount',
      'total_discount_amount',
      'total_amount',
      'customer_id',
      'referrer_id',
      'metadata',
    ],
    unsupported: [],
    defaultFields: ['id', 'source_id', 'status'],
    orders: both('created_at', 'updated_at', 'status'),
    defaultOrder: '-created_at',
    naturalOrder: 'created_at',
    dates: ['created_at', 'updated_at'],
    numbers: ['amount', 'discount_amount', 'items_discount_amount', 'total_discount_amount', 'total_amount'],
    filters: {},
  },
  points_expiration: {
    fields: ['id', 'campaign_id', 'voucher_id', 'status', 'expires_at', 'points'],
    unsupported: [],
    defaultFields: ['id', 'campaign_id', 'voucher_id', 'status', 'expires_at', 'points'],
    // The reference lists the expiry orders only; the loyalty path also takes every field (export.schema.ts EXPORT_ORDERS).
    orders: both('expires_at', 'id', 'campaign_id', 'voucher_id', 'status', 'points'),
    defaultOrder: 'expires_at',
    naturalOrder: 'expires_at',
    dates: [],
    numbers: ['points'],
    filters: {},
  },
  voucher_transactions: {
    fields: [
      'id',
      'campaign_id',
      'voucher_id',
      'type',
      'source_id',
      'reason',
      'source',
      'balance',
      'amount',
      'related_transaction_id',
      'created_at',
      'details',
    ],
    unsupported: [],
    defaultFields: ['id', 'type', 'source_id', 'reason', 'balance', 'amount', 'created_at'],
    orders: both('created_at'),
    defaultOrder: '-created_at',
    naturalOrder: 'created_at',
    dates: ['created_at'],
    numbers: ['balance', 'amount'],
    filters: {},
  },
};

/** Every name a filter of `object` may use: its fields and its extra filter names. */
export const filterNamesOf = (object: ExportedObject): string[] => [...new Set([...EXPORTERS[object].fields, ...Object.keys(EXPORTERS[object].filters)])];

/** The row cell a filter name compares. */
export const filterCellOf = (object: ExportedObject, name: string): string => EXPORTERS[object].filters[name] ?? name;

/** The field and direction of an order value (`-x` is x descending). */
export function parseOrder(order: string): { orderBy: string; ascending: boolean } {
  return order.startsWith('-') ? { orderBy: order.slice(1), ascending: false } : { orderBy: order, ascending: true };
}
