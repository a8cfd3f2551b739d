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
  /**
   * The segments the customer is a member of (lib/segments): auto-update ones recomputed on each
   * write of the customer, static and passive ones as their segment's creation set them. Absent on
   * customers no segment has touched.
   */
  segmentIds?: string[];
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
 * The counts validation rules read (`redemption.count.per_customer`, `redemption.count.per_campaign`):
 * `n:<id>` is this customer's redemptions of the voucher (by id) or promotion tier, or within the
 * campaign, less those rolled back. Summary items written before the count items
 * (lib/db/entities.ts customerRedemptionCount) carry them as attributes, frozen since; a validation
 * adds them to the count items and names them `b:<id>` (the base the commit does not condition).
 */
export type CustomerRuleCounters = { [counter: `n:${string}` | `b:${string}`]: number | undefined };

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
