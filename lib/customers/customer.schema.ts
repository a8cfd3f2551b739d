import * as z from '../zod.js';
import { metadataSchema } from '../metadata.schema.js';
import { storableNumbers } from '../db/storable.js';
import { dateTime } from '../date-time.schema.js';
import { queryInt } from '../http/query-params.js';

/** Source ids are part of an item key (2048-byte limit): bounded in bytes, not only characters. */
export const MAX_SOURCE_ID_BYTES = 1500;

export const sourceId = z.string().check(
  z.minLength(1, 'must not be empty'),
  z.maxLength(1500),
  z.refine((s) => Buffer.byteLength(s) <= MAX_SOURCE_ID_BYTES, `must not exceed ${MAX_SOURCE_ID_BYTES} bytes`),
);

const calendarDate = z.isoDate();
const text = (max: number) => z.string().check(z.maxLength(max));

const addressSchema = z.strictObject({
  city: z.optional(text(200)),
  state: z.optional(text(200)),
  line_1: z.optional(text(500)),
  line_2: z.optional(text(500)),
  country: z.optional(text(200)),
  postal_code: z.optional(text(50)),
});

/** The fields of a customer a request may set (Voucherify's CustomerBase). */
const customerFields = {
  name: z.optional(text(500)),
  email: z.optional(text(254)),
  description: z.optional(text(5000)),
  phone: z.optional(text(100)),
  birthdate: z.optional(calendarDate),
  /** Deprecated by Voucherify in favour of birthdate; taken as birthdate when that is absent. */
  birthday: z.optional(calendarDate),
  address: z.optional(z.nullable(addressSchema)),
  metadata: z.optional(metadataSchema.check(z.superRefine(storableNumbers))),
};

/**
 * The customer of a request: an existing one by `id`, one identified by `source_id` (created on
 * first use), or, with neither, a new anonymous customer (source_id null), as Voucherify does.
 * Other fields set or update it.
 */
export const customerInput = z.strictObject({
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
  source_id: z.optional(sourceId),
  ...customerFields,
});
export type CustomerInput = z.output<typeof customerInput>;
/** The settable fields of any customer request. */
export type CustomerFieldsInput = Omit<CustomerInput, 'id' | 'source_id'>;

/**
 * POST /v1/customers: the customer object's writable fields. `source_id` finds the customer or
 * creates it; `id` names an existing customer (its `source_id` is then ignored); neither creates
 * a new customer without a source id.
 */
export const createCustomerBody = customerInput;
export type CreateCustomerBody = CustomerInput;

/** A customer's `id` or `source_id`, as the customer endpoints' path names it. */
export const customerParams = z.strictObject({ customerId: sourceId });

/**
 * PUT /v1/customers/{customerId}: the fields to change; those not sent stay. `source_id` is not
 * Voucherify's, but its SDK sends it when it updates a customer by source id: it is accepted when
 * it is the customer's own.
 */
export const updateCustomerBody = z.strictObject({ source_id: z.optional(sourceId), ...customerFields });
export type UpdateCustomerBody = z.output<typeof updateCustomerBody>;

/** The orders GET /v1/customers offers (`-` = descending). */
export const CUSTOMER_ORDERS = ['created_at', '-created_at', 'updated_at', '-updated_at', 'source_id', '-source_id'] as const;

/**
 * GET /v1/customers. The date filters are named as Voucherify names them, brackets included
 * (`created_at[before]`), which is also how its SDK's query serializer writes `{created_at: {before}}`.
 * Which of them may go together is the service's rule (listCustomers).
 */
export const listCustomersQuery = z.strictObject({
  limit: z._default(queryInt(1, 100), 10),
  page: z._default(queryInt(1, 99), 1),
  email: z.optional(z.string().check(z.minLength(1), z.maxLength(254))),
  city: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  name: z.optional(z.string().check(z.minLength(1), z.maxLength(500))),
  segment_id: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
  'created_at[before]': z.optional(dateTime),
  'created_at[after]': z.optional(dateTime),
  'updated_at[before]': z.optional(dateTime),
  'updated_at[after]': z.optional(dateTime),
  order: z._default(z.enum(CUSTOMER_ORDERS), '-created_at'),
  starting_after: z.optional(dateTime),
});
export type ListCustomersQuery = z.output<typeof listCustomersQuery>;
