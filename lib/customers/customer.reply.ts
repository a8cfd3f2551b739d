import { listReply } from '../openapi/list-reply.js';
import * as z from '../zod.js';

/*
 * Reply schemas of the customer objects (lib/customers/customer.mapper.ts writes these shapes).
 * Only the OpenAPI generator and the tests import this module: handler bundles stay small.
 */

const dateTimeReply = z.iso.datetime();
const count = z.int().check(z.nonnegative());

/** The simple customer object of event replies (lib/customers/customer.mapper.ts); not imported by handlers. */
export const simpleCustomerReplySchema = z.strictObject({
  id: z.string().check(z.regex(/^cust_/)),
  name: z.optional(z.string()),
  email: z.optional(z.string()),
  source_id: z.optional(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  object: z.literal('customer'),
});

const addressReply = z.strictObject({
  city: z.optional(z.string()),
  state: z.optional(z.string()),
  line_1: z.optional(z.string()),
  line_2: z.optional(z.string()),
  country: z.optional(z.string()),
  postal_code: z.optional(z.string()),
});

const summaryReply = z.strictObject({
  redemptions: z.strictObject({
    total_redeemed: count,
    total_failed: count,
    total_succeeded: count,
    total_rolled_back: count,
    total_rollback_failed: count,
    total_rollback_succeeded: count,
    gift: z.strictObject({ redeemed_amount: z.int(), amount_to_go: z.int() }),
    loyalty_card: z.strictObject({ redeemed_points: z.int(), points_to_go: z.int() }),
  }),
  orders: z.strictObject({
    total_amount: z.int(),
    total_count: count,
    average_amount: z.int(),
    last_order_amount: z.int(),
    last_order_date: z.optional(dateTimeReply),
  }),
});

const loyaltyReply = z.strictObject({
  points: z.int(),
  referred_customers: count,
  /** By campaign name. */
  campaigns: z.record(z.string(), z.strictObject({ points: z.int(), loyalty_tier: z.optional(z.string()), referred_customers: count })),
});

const referralsReply = z.strictObject({
  total: count,
  campaigns: z.array(
    z.strictObject({
      campaign_id: z.string(),
      referrer_id: z.string(),
      related_object_id: z.string(),
      related_object_type: z.string(),
      date: dateTimeReply,
    }),
  ),
});

/**
 * The customer object (Voucherify's CustomerWithSummaryLoyaltyReferrals): strings the customer
 * has no value for are left out (`source_id` too, for a customer created without one), `metadata`
 * when it is empty (as the reference's GET example leaves it out), `address` is null until one is
 * set, `updated_at` appears once the customer has changed. `birthday` and `assets` are documented by Voucherify and never sent
 * here (birthday is read into birthdate; there is no dashboard to link to).
 */
export const customerReplySchema = z.strictObject({
  id: z.string().check(z.regex(/^cust_/)),
  source_id: z.optional(z.string()),
  name: z.optional(z.string()),
  description: z.optional(z.string()),
  email: z.optional(z.string()),
  phone: z.optional(z.string()),
  birthday: z.optional(z.iso.date()),
  birthdate: z.optional(z.iso.date()),
  address: z.nullable(addressReply),
  metadata: z.optional(z.record(z.string(), z.unknown())),
  summary: summaryReply,
  loyalty: loyaltyReply,
  referrals: referralsReply,
  system_metadata: z.record(z.string(), z.unknown()),
  created_at: dateTimeReply,
  updated_at: z.optional(dateTimeReply),
  assets: z.optional(z.strictObject({ cockpit_url: z.optional(z.string()), cockpit_preference_center_url: z.optional(z.string()) })),
  object: z.literal('customer'),
});
export type CustomerReply = z.output<typeof customerReplySchema>;

/** GET /v1/customers (Voucherify's CustomersListResponseBody). */
export const customerListReplySchema = listReply(customerReplySchema, {
  dataRef: 'customers',
  total:
    'The number of customers of the project, or, with `email`, `city` or `name`, of those with that exact value; date bounds and `starting_after` do not narrow it (it is kept as a count, not counted per request). 0 with `segment_id`.',
  hasMore: 'Whether more customers follow this page in its order and date bounds.',
});
