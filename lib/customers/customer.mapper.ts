import type * as z from '../zod.js';
import type { Customer, CustomerAddress, CustomerFields, CustomerLoyaltyCard, CustomerRedemptionSummary } from './customer.js';
import type { customerListReplySchema, customerReplySchema } from './customer.reply.js';
import type { CustomerFieldsInput } from './customer.schema.js';
import type { CustomerPage } from './customer.service.js';

/** The simple customer of event replies: `name`, `email` and `source_id` only when set. */
export const toSimpleCustomerReply = (c: {
  id: string;
  name: string | null;
  email: string | null;
  sourceId: string | null;
  metadata: Record<string, unknown>;
}) => ({
  id: c.id,
  ...(c.name !== null ? { name: c.name } : {}),
  ...(c.email !== null ? { email: c.email } : {}),
  ...(c.sourceId !== null ? { source_id: c.sourceId } : {}),
  metadata: c.metadata,
  object: 'customer' as const,
});

type CustomerReply = z.input<typeof customerReplySchema>;

/** Wire name → stored name of each address field; both directions read this one table. */
const ADDRESS_NAMES = {
  city: 'city',
  state: 'state',
  line_1: 'line1',
  line_2: 'line2',
  country: 'country',
  postal_code: 'postalCode',
} as const satisfies Record<string, keyof CustomerAddress>;
type WireAddress = NonNullable<CustomerReply['address']>;
const ADDRESS_PAIRS = Object.entries(ADDRESS_NAMES) as [keyof WireAddress, keyof CustomerAddress][];

/** Copies the fields that are set, renamed; absent ones stay absent. */
function addressOf(a: NonNullable<CustomerFieldsInput['address']>): CustomerAddress {
  const address: CustomerAddress = {};
  for (const [wire, stored] of ADDRESS_PAIRS) if (a[wire] !== undefined) address[stored] = a[wire];
  return address;
}

/** The fields a request sets (wire → domain); absent ones stay absent. */
export function customerFieldsOf(input: CustomerFieldsInput): CustomerFields {
  const birthdate = input.birthdate ?? input.birthday;
  return {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.phone !== undefined ? { phone: input.phone } : {}),
    ...(birthdate !== undefined ? { birthdate } : {}),
    ...(input.address !== undefined ? { address: input.address === null ? null : addressOf(input.address) } : {}),
    ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
  };
}

function addressReply(a: CustomerAddress): WireAddress {
  const address: WireAddress = {};
  for (const [wire, stored] of ADDRESS_PAIRS) if (a[stored] !== undefined) address[wire] = a[stored];
  return address;
}

/**
 * The redemption counters come from the customer's summary item where the caller read it (GET
 * /v1/customers/{id}); orders and referrals are not attributed to customers yet,
 * so their counters are zero. A redemption refused before its commit writes nothing, so
 * `total_failed` stays 0 (docs/decisions.md).
 */
const summaryOf = (r: CustomerRedemptionSummary): CustomerReply['summary'] => ({
  redemptions: {
    total_redeemed: r.redeemed ?? 0,
    total_failed: 0,
    total_succeeded: r.succeeded ?? 0,
    total_rolled_back: r.rolledBack ?? 0,
    total_rollback_failed: 0,
    total_rollback_succeeded: r.rollbackSucceeded ?? 0,
    gift: { redeemed_amount: r.giftRedeemedAmount ?? 0, amount_to_go: 0 },
    loyalty_card: { redeemed_points: 0, points_to_go: 0 },
  },
  orders: { total_amount: 0, total_count: 0, average_amount: 0, last_order_amount: 0 },
});

/**
 * The `loyalty` summary: the points of every loyalty card the customer holds, in all and by the
 * program's name, where the caller read the cards (GET /v1/customers/{id}); zero elsewhere.
 * Referred customers are not counted here yet.
 */
function loyaltyOf(cards: readonly CustomerLoyaltyCard[]): CustomerReply['loyalty'] {
  const campaigns: CustomerReply['loyalty']['campaigns'] = {};
  for (const card of cards) {
    const seen = campaigns[card.campaignName];
    campaigns[card.campaignName] = { points: (seen?.points ?? 0) + card.balance, referred_customers: 0 };
  }
  return { points: cards.reduce((sum, c) => sum + c.balance, 0), referred_customers: 0, campaigns };
}

/** The customer object (Voucherify's shape): unset strings and empty metadata left out, `updated_at` once changed. */
export const toCustomerReply = (c: Customer & { redemptionSummary?: CustomerRedemptionSummary; loyaltyCards?: CustomerLoyaltyCard[] }): CustomerReply => ({
  id: c.id,
  ...(c.sourceId !== null ? { source_id: c.sourceId } : {}),
  ...(c.name !== null ? { name: c.name } : {}),
  ...(c.description !== null ? { description: c.description } : {}),
  ...(c.email !== null ? { email: c.email } : {}),
  ...(c.phone !== null ? { phone: c.phone } : {}),
  ...(c.birthdate !== null ? { birthdate: c.birthdate } : {}),
  address: c.address === null ? null : addressReply(c.address),
  ...(Object.keys(c.metadata).length > 0 ? { metadata: c.metadata } : {}),
  summary: summaryOf(c.redemptionSummary ?? {}),
  loyalty: loyaltyOf(c.loyaltyCards ?? []),
  referrals: { total: 0, campaigns: [] },
  system_metadata: {},
  created_at: c.createdAt,
  ...(c.updatedAt !== null ? { updated_at: c.updatedAt } : {}),
  object: 'customer',
});

/** One page of the customer list (Voucherify's shape). */
export const toCustomerListReply = (page: CustomerPage): z.input<typeof customerListReplySchema> => ({
  object: 'list',
  data_ref: 'customers',
  customers: page.customers.map(toCustomerReply),
  total: page.total,
  has_more: page.hasMore,
});
