import type { Customer } from '../customers/customer.js';

/** A custom event received on POST /v1/events, as stored. */
export interface CustomEvent {
  id: string;
  projectId: string;
  /** The event name, defined by a custom event schema. */
  type: string;
  customerId: string;
  metadata: Record<string, unknown>;
  /** A referral conversion claimed by the event (lib/referrals: the conversion and the referee reward commit with the event). */
  referral: { code: string; referrerId: string | null } | null;
  /** The loyalty card the event is attributed to; its program's earning rules add points (lib/loyalties/loyalty-earning.ts). */
  loyalty: { code: string } | null;
  /** The Idempotency-Key the event was sent with, if any. */
  idempotencyKey: string | null;
  createdAt: string;
}

/** What POST /v1/events replies from: the event and its (upserted) customer. */
export interface TrackedEvent {
  event: CustomEvent;
  customer: Customer;
}
