import { BadRequestError } from '../errors.js';
import type { ExpirationRules } from './expiration.js';
import { expiryShard } from './points-bucket.js';

/*
 * Pending points (docs/decisions.md "Pending points"): what an `order.paid` rule with
 * `pending_points` gives is held here until its activation date, counted in the card's
 * `pendingPoints` but not in its balance. Pure: I/O lives in pending-points.repo.ts and .service.ts.
 */

/** PENDING until activated (its points reach the card) or cancelled (they never do). */
export type PendingPointsStatus = 'PENDING' | 'ACTIVATED' | 'CANCELED';

/** An earning rule's `pending_points` (the reference accepts only days). */
export interface PendingPointsPeriod {
  periodType: 'DAY';
  /** 1–90 days. */
  periodValue: number;
}

/** What earned the points (the reference's LoyaltyPendingPointsDetails, camelCase). */
export interface PendingPointsDetails {
  event: { id: string; type: string; entityId: string; createdAt: string };
  earningRule: { id: string; source: { banner: string } };
  order: { id: string; sourceId: string | null };
}

/** One pending points entry (`lopp_…`): one rule's points for one card of one paid order. */
export interface PendingPoints {
  id: string;
  projectId: string;
  campaignId: string;
  voucherId: string;
  /** The card's code (its item's key), so the worker reaches the card without a lookup. */
  code: string;
  customerId: string;
  orderId: string;
  ruleId: string;
  points: number;
  /** Calendar date (YYYY-MM-DD, UTC) on which the worker activates the points. */
  activatesAt: string;
  status: PendingPointsStatus;
  details: PendingPointsDetails;
  /**
   * The expiration rules of the points once active (the rule's, else the program's, when the
   * order earned them): the bucket made at activation expires by them, counted from that day.
   */
  expirationRules: ExpirationRules | null;
  /** The bucket and PENDING_POINTS_ACTIVATION transaction the activation writes (ids fixed at earning, so an order's take-back names them). */
  bucketId: string;
  transactionId: string;
  createdAt: string;
  updatedAt: string;
}

/** The day a pending entry created at `now` activates: `days` calendar days later (UTC). */
export function activationDateOf(now: Date, days: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/** Whether the entry is due on `today` (its activation date reached). */
export const isDue = (p: Pick<PendingPoints, 'activatesAt' | 'status'>, today: string): boolean => p.status === 'PENDING' && p.activatesAt <= today;

/** Partitions of the due index (the sparse GSI2 entries of PENDING entries); a card's entries share one, as its expiring buckets do. */
export const pendingShard = expiryShard;

/** First part of the due index's partition keys (`PENDING_POINTS_DUE#<shard>`). */
export const PENDING_DUE_PARTITION_PREFIX = 'PENDING_POINTS_DUE';

/** What is asked of a pending entry that must be PENDING. */
export type PendingPointsAction = 'activated' | 'canceled' | 'updated';

/** The reference's refusal of an entry no longer PENDING. */
export function invalidPendingPointsState(action: PendingPointsAction, status: PendingPointsStatus): BadRequestError {
  return new BadRequestError(
    'invalid_pending_points_state',
    'Invalid pending points state',
    `Only pending points in 'PENDING' status can be ${action}. Current status: '${status}'.`,
  );
}

/** The reference's refusal of an adjustment that would leave the entry at 0 points or fewer. */
export const invalidPendingAmount = (): BadRequestError => new BadRequestError('invalid_amount', 'Invalid Amount', 'Amount has to be a valid positive number');
