import { order as orderEntity, orderEarning, pendingPoints } from '../db/entities.js';
import type { TransactItem } from '../db/transact.js';
import type { Runtime } from '../runtime.js';
import type { OrderEarning, OrderEarningStatus } from './order-earning.js';
import type { PendingPoints, PendingPointsStatus } from './pending-points.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** A card's pending entry by id, in whichever stage it is (both reads at once, strongly consistent), or null. */
export async function getPendingEntry(deps: Deps, projectId: string, voucherId: string, id: string): Promise<PendingPoints | null> {
  const [live, done] = await Promise.all([
    pendingPoints.get(deps, pendingPoints.key(projectId, voucherId, 'PENDING', id)),
    pendingPoints.get(deps, pendingPoints.key(projectId, voucherId, 'PENDING_DONE', id)),
  ]);
  return live ?? done;
}

/**
 * One page of PENDING entries by id (ascending unless `ascending` is false) after the id
 * `afterId` (which need not exist): of one card (its partition, consistent) or of one program
 * (GSI1, a moment behind). Reads at most `limit + 2` items.
 */
export async function pendingEntryPage(
  deps: Deps,
  where: { card: [projectId: string, voucherId: string] } | { campaign: [projectId: string, campaignId: string] },
  limit: number,
  ascending: boolean,
  afterId: string | undefined,
): Promise<{ entries: PendingPoints[]; hasMore: boolean }> {
  const range = afterId === undefined ? undefined : ascending ? { from: afterId } : { to: afterId };
  const options = { ascending, pageSize: limit + 2, ...(range ? { sortRange: range } : {}) };
  const read =
    'card' in where
      ? await pendingPoints.queryPage(deps, { key: [...where.card, 'PENDING'] }, { ...options, consistent: true })
      : await pendingPoints.queryPage(deps, { index: [...where.campaign, 'PENDING'] }, options);
  const after = read.filter((p) => p.id !== afterId);
  return { entries: after.slice(0, limit), hasMore: after.length > limit };
}

/** The due index of one shard: PENDING entries whose activation date is `today` or before, soonest first, one Query page at a time. */
export function duePendingPages(deps: Deps, shard: number, today: string, pageSize = 100): AsyncGenerator<PendingPoints[]> {
  // Every `<date>#…` sort key of today sorts below `<today>#~`.
  return pendingPoints.queryPages(deps, { sparse: [shard] }, { sortRange: { to: `${today}#~` }, pageSize });
}

/** The new entry and its order earning, each put only if absent (the earning's key makes it once per order, card and rule). */
export function holdItems(deps: Pick<Runtime, 'tableName'>, entry: PendingPoints, earning: OrderEarning): TransactItem[] {
  return [pendingPoints.putIfAbsent(deps, entry), orderEarning.putIfAbsent(deps, earning)];
}

/**
 * Ends a PENDING entry: it leaves the PENDING partition (and the due index), conditioned on its
 * status and points as read, and is stored again as `status` in the done partition. Two parallel
 * ends of one entry: one Delete's condition fails.
 */
export function endItems(deps: Pick<Runtime, 'tableName'>, entry: PendingPoints, status: Exclude<PendingPointsStatus, 'PENDING'>, at: string): TransactItem[] {
  return [
    {
      Delete: {
        TableName: deps.tableName,
        Key: pendingPoints.key(entry.projectId, entry.voucherId, 'PENDING', entry.id),
        ConditionExpression: '#status = :pending AND points = :points',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'PENDING', ':points': entry.points },
      },
    },
    pendingPoints.putIfAbsent(deps, { ...entry, status, updatedAt: at }),
  ];
}

/** A PENDING entry's new points, conditioned on its status and points as read. */
export function adjustItem(deps: Pick<Runtime, 'tableName'>, entry: PendingPoints, points: number, at: string): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: pendingPoints.key(entry.projectId, entry.voucherId, 'PENDING', entry.id),
      UpdateExpression: 'SET points = :points, updatedAt = :at',
      ConditionExpression: '#status = :pending AND points = :was',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'PENDING', ':was': entry.points, ':points': points, ':at': at },
    },
  };
}

/**
 * The entry's order earning moves from PENDING to `status` (EARNED on activation, CANCELED on
 * cancellation) or keeps PENDING with new points (an adjustment); holds only while it is PENDING,
 * so an activation and the order's cancellation never both commit.
 */
export function orderEarningItem(
  deps: Pick<Runtime, 'tableName'>,
  entry: PendingPoints,
  status: Extract<OrderEarningStatus, 'EARNED' | 'CANCELED' | 'PENDING'>,
  points: number,
  at: string,
): TransactItem {
  return {
    Update: {
      TableName: deps.tableName,
      Key: orderEarning.key(entry.projectId, entry.orderId, entry.voucherId, entry.ruleId),
      UpdateExpression: 'SET #status = :status, points = :points, updatedAt = :at',
      ConditionExpression: '#status = :pending AND pendingPointsId = :id',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':points': points, ':at': at, ':pending': 'PENDING', ':id': entry.id },
    },
  };
}

/** The check that the stored order still has `status` (as the order earning's own check: a later status write supersedes the change). */
export function orderStatusIs(deps: Pick<Runtime, 'tableName'>, projectId: string, orderId: string, status: string): TransactItem {
  return {
    ConditionCheck: {
      TableName: deps.tableName,
      Key: orderEntity.key(projectId, orderId),
      ConditionExpression: '#status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status },
    },
  };
}

/** An order's earnings (consistent), to find the PENDING ones. */
export function orderEarnings(deps: Deps, projectId: string, orderId: string): Promise<OrderEarning[]> {
  return orderEarning.query(deps, { key: [projectId, orderId] }, { consistent: true });
}
