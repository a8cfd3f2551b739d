import { pointsBucket } from '../db/entities.js';
import type { Item, QueryOptions } from '../db/entity.js';
import type { Runtime } from '../runtime.js';
import type { PointsBucket } from './points-bucket.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName'>;

/** The stored item of a bucket: its keys (campaign partition + card index) and the bucket. */
export const bucketItem = (bucket: PointsBucket): Item => pointsBucket.toItem(bucket);

export interface BucketPageOptions {
  /** Ascending (soonest expiry first) unless false. */
  ascending?: boolean;
  pageSize?: number;
}

const pageOptions = (options: BucketPageOptions): QueryOptions => ({ ascending: options.ascending ?? true, pageSize: options.pageSize ?? 500 });

/**
 * Streams a campaign's buckets in expiry order, one Query page at a time, so a caller (the
 * export worker) holds at most one page in memory however many buckets exist.
 */
export function campaignBucketPages(deps: Deps, projectId: string, campaignId: string, options: BucketPageOptions = {}): AsyncGenerator<PointsBucket[]> {
  return pointsBucket.queryPages(deps, { key: [projectId, campaignId] }, pageOptions(options));
}

/** Streams one loyalty card's buckets in expiry order (GSI1; eventually consistent). */
export function cardBucketPages(deps: Deps, projectId: string, voucherId: string, options: BucketPageOptions = {}): AsyncGenerator<PointsBucket[]> {
  return pointsBucket.queryPages(deps, { index: [projectId, voucherId] }, pageOptions(options));
}
