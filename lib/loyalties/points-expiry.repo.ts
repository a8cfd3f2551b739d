import { pointsBucket } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { CardTransaction } from './card-transaction.js';
import { putCardTransactionItem } from './card-transaction.repo.js';
import type { CardPlan } from './loyalty-card.js';
import { cardPlanItems, EXPIRY_INDEX_KEYS } from './loyalty-card.repo.js';
import { expiresKeyOf, type PointsBucket } from './points-bucket.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/**
 * The expiry index entries of one shard whose last day is before `today`, soonest first, one
 * Query page at a time (the sparse GSI2: `GSI2PK = EXPIRING_POINTS#<shard>`, `GSI2SK <= today`,
 * which every `<date>#…` key of an earlier day is and none of today's is). Eventually consistent:
 * an entry may name a bucket written off a moment ago; the write-off's condition tells.
 */
export function dueBucketPages(deps: Deps, shard: number, today: string, pageSize = 100): AsyncGenerator<PointsBucket[]> {
  return pointsBucket.queryPages(deps, { sparse: [shard] }, { sortRange: { to: today }, pageSize });
}

/** A bucket as stored now (consistent GetItem), or null. */
export function getBucket(deps: Deps, b: PointsBucket): Promise<PointsBucket | null> {
  return pointsBucket.get(deps, pointsBucket.key(b.projectId, b.campaignId, expiresKeyOf(b.expiresAt), b.id));
}

/**
 * The one transaction of a card's write-offs: the card (conditioned on the revision and balance
 * read), each bucket (conditioned on its points and ACTIVE status as read, leaving the expiry
 * index) and each POINTS_EXPIRATION. Two sweeps that read the same buckets both send this; one commits.
 */
export function writeOffItems(deps: Deps, voucher: Voucher, plan: CardPlan, records: readonly CardTransaction[], now: string): TransactItem[] {
  return [...cardPlanItems(deps, voucher, plan, now), ...records.map((r) => putCardTransactionItem(deps, r))];
}

/** Empties a bucket whose card is gone (conditioned on what was read), so it leaves the index; no card, no card transaction. */
export function orphanWriteOffItem(deps: Deps, b: PointsBucket, now: string): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: pointsBucket.key(b.projectId, b.campaignId, expiresKeyOf(b.expiresAt), b.id),
      UpdateExpression: `SET #status = :expired, updatedAt = :now REMOVE ${EXPIRY_INDEX_KEYS}`,
      ConditionExpression: 'points = :was AND #status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':expired': 'EXPIRED', ':now': now, ':was': b.points, ':active': 'ACTIVE' },
    },
  };
}
