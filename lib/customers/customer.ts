export interface CustomerAddress {
  city?: string;
  state?: string;
  line1?: string;
  line2?: string;
  country?: string;
  postalCode?: string;
}

/** A customer, known by its id (`cust_...`) and usually by the merchant's `sourceId`. */
export interface Customer {
  id: string;
  projectId: string;
  sourceId: string | null;
  name: string | null;
  email: string | null;
  description: string | null;
  phone: string | null;
  /** YYYY-MM-DD. */
  birthdate: string | null;
  address: CustomerAddress | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string | null;
  /** Optimistic lock: every write raises it and holds only if it read the current one. */
  revision: number;
  /**
   * Whether the customer's list entries and counts exist. False for customers stored before lists
   * did (POST /v1/events only); their next change writes them.
   */
  listed: boolean;
}

/**
 * A customer's entry in one list view (all customers, or those of one email, city or name): its
 * sort keys and nothing else; a page reads the customers themselves by id.
 */
export interface CustomerListEntry {
  view: string;
  customerId: string;
  createdAt: string;
  updatedAt: string | null;
}

/**
 * The counts validation rules read (`redemption.count.per_customer`, `redemption.count.per_campaign`),
 * on the same item: `n:<id>` is this customer's redemptions of the voucher (by id) or promotion tier,
 * or within the campaign, less those rolled back. One item, so a redemption that checks a
 * per-customer limit conditions on the counts it read without an extra transaction item.
 */
export type CustomerRuleCounters = { [counter: `n:${string}`]: number | undefined };

/**
 * What a customer's redemptions add up to (lib/db/entities.ts customerRedemptionSummary): counts of
 * redemptions (one per redeemed voucher or promotion tier), of those rolled back, and the gift
 * credits redeemed net of rollbacks. Missing counters are 0.
 */
export interface CustomerRedemptionSummary extends CustomerRuleCounters {
  redeemed?: number;
  succeeded?: number;
  rolledBack?: number;
  rollbackSucceeded?: number;
  giftRedeemedAmount?: number;
}

/** A loyalty card the customer holds, as their `loyalty` summary shows it: its program's name and its spendable points. */
export interface CustomerLoyaltyCard {
  campaignName: string;
  balance: number;
}

/** Fields a request may set on a customer (absent = leave as is). */
export type CustomerFields = Partial<Pick<Customer, 'name' | 'email' | 'description' | 'phone' | 'birthdate' | 'address' | 'metadata'>>;
