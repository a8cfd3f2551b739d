import * as z from 'zod';
import { metadataSchema } from '../campaigns/campaign.schema.js';
import { storableNumbers } from '../db/storable.js';

/** Source ids are part of an item key (2048-byte limit): bounded in bytes, not only characters. */
export const MAX_SOURCE_ID_BYTES = 1500;

export const sourceId = z
  .string()
  .min(1, 'must not be empty')
  .max(1500)
  .refine((s) => Buffer.byteLength(s) <= MAX_SOURCE_ID_BYTES, `must not exceed ${MAX_SOURCE_ID_BYTES} bytes`);

const calendarDate = z.iso.date();
const text = (max: number) => z.string().max(max);

const addressSchema = z.strictObject({
  city: text(200).optional(),
  state: text(200).optional(),
  line_1: text(500).optional(),
  line_2: text(500).optional(),
  country: text(200).optional(),
  postal_code: text(50).optional(),
});

/**
 * The customer of a request (events today; redemptions and validations later): an existing one
 * by `id`, or one identified by `source_id`, created on first use. Other fields update it.
 */
export const customerInput = z
  .strictObject({
    id: z.string().min(1).max(1000).optional(),
    source_id: sourceId.optional(),
    name: text(500).optional(),
    email: text(254).optional(),
    description: text(5000).optional(),
    phone: text(100).optional(),
    birthdate: calendarDate.optional(),
    /** Deprecated by Voucherify in favour of birthdate; taken as birthdate when that is absent. */
    birthday: calendarDate.optional(),
    address: addressSchema.nullable().optional(),
    metadata: metadataSchema.superRefine(storableNumbers).optional(),
  })
  .refine((c) => c.id !== undefined || c.source_id !== undefined, { message: 'must have source_id (or the id of an existing customer)' });
export type CustomerInput = z.output<typeof customerInput>;

/** The simple customer object of event replies. */
export const simpleCustomerReplySchema = z.strictObject({
  id: z.string().regex(/^cust_/),
  name: z.string().optional(),
  email: z.string().optional(),
  source_id: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()),
  object: z.literal('customer'),
});
