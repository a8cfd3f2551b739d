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
  /** Points still in the bucket (spending lowers it; at 0 the bucket is USED). */
  points: number;
  status: PointsBucketStatus;
  /** Calendar date (YYYY-MM-DD) after which the points are gone; null = never. */
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
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
    points,
    status: 'ACTIVE',
    expiresAt,
    createdAt: now,
    updatedAt: now,
  };
}
