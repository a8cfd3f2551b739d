import * as z from '../zod.js';
import { nestQuery } from '../http/query-params.js';
import { validateVoucherBody } from './legacy-validation.schema.js';

/*
 * GET /client/v1/validate: the legacy single-code validation a page can send as a plain GET, its
 * request in query parameters (`code`, `amount`, `item[0][product_id]`, `customer[source_id]` or
 * `customer=<source_id>`, `metadata[k]`, `order[metadata][k]`, `session_key`, `session_ttl`,
 * `session_ttl_unit`, `session_type`, `tracking_id`). They are read into the body of
 * POST /v1/vouchers/{code}/validate and validated by its schema, so both calls take the same
 * request; numbers arrive as text and are read as numbers where the body wants them.
 */

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A digit string as its number; anything else as sent (the body's schema then names it). */
const numeric = (v: unknown): unknown => (typeof v === 'string' && /^-?\d{1,15}(\.\d{1,6})?$/.test(v) ? Number(v) : v);

const ITEM_NUMBERS = new Set(['quantity', 'price', 'amount']);

/** An empty object arrives as an empty value (`metadata=`): read it as the object. */
const objectOrEmpty = (v: unknown): unknown => (v === '' ? {} : v);

const withEmptyMetadata = (v: unknown): unknown => (isObject(v) && 'metadata' in v ? { ...v, metadata: objectOrEmpty(v.metadata) } : objectOrEmpty(v));

function toValidateInput(flat: unknown): unknown {
  const q = nestQuery(flat as Record<string, string>);
  const { code, tracking_id, amount, item, order, customer, metadata, session_key, session_ttl, session_ttl_unit, session_type } = q;
  const items = Array.isArray(item)
    ? item.map((line) => (isObject(line) ? Object.fromEntries(Object.entries(line).map(([k, v]) => [k, ITEM_NUMBERS.has(k) ? numeric(v) : v])) : line))
    : item;
  const orderGiven = withEmptyMetadata(order);
  const orderInput = {
    ...(isObject(orderGiven) ? orderGiven : {}),
    ...(amount !== undefined ? { amount: numeric(amount) } : {}),
    ...(items !== undefined ? { items } : {}),
  };
  const session =
    session_key !== undefined || session_type !== undefined
      ? {
          ...(session_type !== undefined ? { type: session_type } : {}),
          ...(session_key !== undefined ? { key: session_key } : {}),
          ...(session_ttl !== undefined ? { ttl: numeric(session_ttl) } : {}),
          ...(session_ttl_unit !== undefined ? { ttl_unit: session_ttl_unit } : {}),
        }
      : undefined;
  return {
    code,
    body: {
      ...(Object.keys(orderInput).length > 0 || order !== undefined ? { order: orderInput } : {}),
      ...(customer !== undefined ? { customer: typeof customer === 'string' && customer !== '' ? { source_id: customer } : withEmptyMetadata(customer) } : {}),
      ...(session ? { session } : {}),
      ...(tracking_id !== undefined ? { tracking_id } : {}),
      ...(metadata !== undefined ? { metadata: objectOrEmpty(metadata) } : {}),
    },
  };
}

export const validateVoucherClientSideQuery = z.preprocess(
  toValidateInput,
  z.strictObject({ code: z.string({ error: 'is required' }).check(z.minLength(1), z.maxLength(1000)), body: validateVoucherBody }),
);
export type ValidateVoucherClientSideQuery = z.output<typeof validateVoucherClientSideQuery>;
