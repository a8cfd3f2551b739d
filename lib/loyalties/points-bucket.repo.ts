import { keys } from '../db/keys.js';
import { queryPages } from '../db/query.js';
import { tableDesign } from '../db/table.js';
import type { Runtime } from '../runtime.js';
import { expiresKeyOf, type PointsBucket } from './points-bucket.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

const ENTITY = 'points_bucket';

/** The stored item of a bucket: its keys (campaign partition + card index) and the bucket. */
export function bucketItem(bucket: PointsBucket): Record<string, unknown> {
  const expiresKey = expiresKeyOf(bucket.expiresAt);
  return {
    ...keys.pointsBucket(bucket.projectId, bucket.campaignId, expiresKey, bucket.id),
    ...keys.pointsBucketByCard(bucket.projectId, bucket.voucherId, expiresKey, bucket.id),
    entity: ENTITY,
    v: 1,
    ...bucket,
  };
}

export function toBucket(item: Record<string, unknown>): PointsBucket {
  const i = item as unknown as PointsBucket;
  return {
    id: i.id,
    projectId: i.projectId,
    campaignId: i.campaignId,
    voucherId: i.voucherId,
    points: i.points,
    status: i.status,
    expiresAt: i.expiresAt ?? null,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}

export interface BucketPageOptions {
  /** Ascending (soonest expiry first) unless false. */
  ascending?: boolean;
  pageSize?: number;
}

/**
 * Streams a campaign's buckets in expiry order, one Query page at a time, so a caller (the
 * export worker) holds at most one page in memory however many buckets exist.
 */
export async function* campaignBucketPages(
  deps: Deps,
  projectId: string,
  campaignId: string,
  options: BucketPageOptions = {},
): AsyncGenerator<PointsBucket[]> {
  const pages = queryPages(deps.ddb, {
    TableName: deps.tableName,
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.campaignBucketsPartition(projectId, campaignId) },
    ScanIndexForward: options.ascending ?? true,
    Limit: options.pageSize ?? 500,
  });
  for await (const page of pages) yield page.map(toBucket);
}

/** Streams one loyalty card's buckets in expiry order (GSI1; eventually consistent). */
export async function* cardBucketPages(
  deps: Deps,
  projectId: string,
  voucherId: string,
  options: BucketPageOptions = {},
): AsyncGenerator<PointsBucket[]> {
  const pages = queryPages(deps.ddb, {
    TableName: deps.tableName,
    IndexName: tableDesign.indexes.gsi1.name,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.cardBucketsPartition(projectId, voucherId) },
    ScanIndexForward: options.ascending ?? true,
    Limit: options.pageSize ?? 500,
  });
  for await (const page of pages) yield page.map(toBucket);
}
