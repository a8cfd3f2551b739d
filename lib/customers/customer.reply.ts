import * as z from '../zod.js';

/** The simple customer object of event replies (lib/customers/customer.mapper.ts); not imported by handlers. */
export const simpleCustomerReplySchema = z.strictObject({
  id: z.string().check(z.regex(/^cust_/)),
  name: z.optional(z.string()),
  email: z.optional(z.string()),
  source_id: z.optional(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  object: z.literal('customer'),
});
