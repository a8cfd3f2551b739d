import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';

/** Points a loyalty card earned in one go, spent and expired together. */
export type PointsBucketStatus = 'ACTIVE' | 'EXPIRED' | 'USED';

export interface PointsBucket {
  id: string;
  projectId: string;
  campaignId: string;
  /** The loyalty card (voucher) holding the points. */
  voucherId: string;
  /** The card's code (its item's key), so the expiry worker reaches the card without a lookup; absent on buckets stored before it existed. */
  voucherCode?: string;
  /** Points still in the bucket (spending lowers it; at 0 the bucket is USED). */
  points: number;
  status: PointsBucketStatus;
  /** Calendar date (YYYY-MM-DD) after which the points are gone; null = never. */
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The earning rule whose points these are: a tier's mapping of the rule applies to them (lib/loyalties/tier.ts). Absent on other points. */
  earningRuleId?: string;
}

/** Sort key part for the expiry: dates sort as text; "never" sorts after every date. */
export const expiresKeyOf = (expiresAt: string | null): string => expiresAt ?? '9999-12-31';

/** A new bucket of `points` for a card, expiring on `expiresAt`. */
export function newBucket(deps: Pick<Runtime, 'ids'>, card: Voucher, points: number, expiresAt: string | null, now: string): PointsBucket {
  if (!card.campaignId) throw new Error(`Loyalty card ${card.id} has no campaign`);
  return {
    id: deps.ids.id('lopb'),
    projectId: card.projectId,
    campaignId: card.campaignId,
    voucherId: card.id,
    voucherCode: card.code,
    points,
    status: 'ACTIVE',
    expiresAt,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Partitions of the expiry index (the sparse GSI2 entries of buckets that still hold points and
 * have an expiry). A bucket's shard follows its card, so one sweeper of a shard meets every
 * expired bucket of a card and no two sweepers of one run contend for a card.
 */
export const EXPIRY_SHARDS = 16;

/** First part of the expiry index's partition keys (`EXPIRING_POINTS#<shard>`). */
export const EXPIRY_PARTITION_PREFIX = 'EXPIRING_POINTS';

/** The expiry shard of a card: FNV-1a over its id, modulo EXPIRY_SHARDS. */
export function expiryShard(voucherId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < voucherId.length; i += 1) {
    hash ^= voucherId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % EXPIRY_SHARDS;
}

/** Whether a bucket is in the expiry index: it still holds points (ACTIVE, above 0) and has an expiry date. */
export const awaitsExpiry = (b: Pick<PointsBucket, 'status' | 'points' | 'expiresAt'>): boolean =>
  b.status === 'ACTIVE' && b.points > 0 && b.expiresAt !== null;
