import { pointsBucket, voucherChangeSet, voucher as voucherEntity } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { Voucher } from '../vouchers/voucher.js';
import type { CardPlan } from './loyalty-card.js';
import { awaitsExpiry, expiresKeyOf, type PointsBucket } from './points-bucket.js';
import { tableDesign } from '../db/table.js';
import { cardBucketPages } from './points-bucket.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The attributes of a bucket's entry in the expiry index (GSI2), removed when the bucket leaves it. */
export const EXPIRY_INDEX_KEYS = `${tableDesign.indexes.gsi2.partitionKey}, ${tableDesign.indexes.gsi2.sortKey}`;

/** Every bucket of a card, soonest expiry first (GSI1: eventually consistent; callers check completeness). */
export async function listCardBuckets(deps: Deps, projectId: string, voucherId: string): Promise<PointsBucket[]> {
  const out: PointsBucket[] = [];
  for await (const page of cardBucketPages(deps, projectId, voucherId)) out.push(...page);
  return out;
}

/**
 * The transaction items of a plan: first the card (conditioned on the revision and balance that
 * were read, so a concurrent change makes this one fail and re-plan), then each changed bucket
 * (conditioned on the points and status that were read), then each new bucket (must be new).
 */
export function cardPlanItems(deps: Deps, voucher: Voucher, plan: CardPlan, now: string): TransactItem[] {
  const before = voucher.loyaltyCard;
  if (!before) throw new Error(`Voucher ${voucher.id} is not a loyalty card`);
  const revisionCondition = before.revision === undefined ? 'attribute_not_exists(loyaltyCard.revision)' : 'loyaltyCard.revision = :rev';
  const items: TransactItem[] = [
    {
      Update: {
        TableName: deps.tableName,
        Key: voucherEntity.key(voucher.projectId, voucher.code),
        UpdateExpression: 'SET loyaltyCard = :card, updatedAt = :now, #chpk = :chpk, #chsk = :chsk',
        ConditionExpression: `id = :id AND loyaltyCard.balance = :balance AND ${revisionCondition}`,
        ExpressionAttributeNames: voucherChangeSet(voucher, now).names,
        ExpressionAttributeValues: {
          ...voucherChangeSet(voucher, now).values,
          ':card': plan.card,
          ':now': now,
          ':id': voucher.id,
          ':balance': before.balance,
          ...(before.revision === undefined ? {} : { ':rev': before.revision }),
        },
      },
    },
  ];
  for (const u of plan.updates) {
    // A bucket emptied or ended leaves the expiry index (the sparse GSI2): the worker never reads it again.
    const leavesIndex = !awaitsExpiry({ ...u.bucket, points: u.points, status: u.status });
    items.push({
      Update: {
        TableName: deps.tableName,
        Key: pointsBucket.key(u.bucket.projectId, u.bucket.campaignId, expiresKeyOf(u.bucket.expiresAt), u.bucket.id),
        UpdateExpression: `SET points = :points, #status = :status, updatedAt = :now${leavesIndex ? ` REMOVE ${EXPIRY_INDEX_KEYS}` : ''}`,
        ConditionExpression: 'points = :was AND #status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':points': u.points, ':status': u.status, ':now': now, ':was': u.bucket.points, ':active': 'ACTIVE' },
      },
    });
  }
  for (const b of plan.inserts) {
    items.push(pointsBucket.putIfAbsent(deps, b));
  }
  return items;
}
