import type { JobMessage } from './job.js';

/**
 * Open-job markers: one small item per job that is not final yet (an async action ENQUEUED or
 * IN_PROGRESS, an export SCHEDULED or IN_PROGRESS), written in the transaction that creates the
 * job and deleted in the one that makes it final. Start-up (and later a cloud sweep) finds every
 * open job with a Query per shard instead of a Scan. I/O-free: the repo is open-job.repo.ts.
 */

/** The job kinds, as the jobs queue names them. */
export type OpenJobType = JobMessage['type'];

/** What a marker holds: enough to put the job back on the queue without reading its subject. */
export interface OpenJob {
  type: OpenJobType;
  projectId: string;
  /** The async action id or the export id. */
  subjectId: string;
  createdAt: string;
}

/** First part of every marker's partition key (`OPEN_JOBS#<shard>`); IAM conditions name it too (infra). */
export const OPEN_JOB_PARTITION_PREFIX = 'OPEN_JOBS';

/**
 * Marker partitions. On AWS every job start and finish writes one marker item; one partition
 * takes about 1,000 writes per second, so a single partition would cap the whole service at a
 * few hundred job starts per second and make it the table's hottest key. 16 shards spread that,
 * and reading all open jobs costs 16 Queries (start-up, a sweep), which is nothing.
 */
export const OPEN_JOB_SHARDS = 16;

/**
 * The shard of a subject: FNV-1a over its id, modulo OPEN_JOB_SHARDS. Ids are random, so jobs
 * spread evenly whatever project starts them; the id alone fixes the shard, so the transaction
 * that ends a job finds its marker from the ids it already has.
 */
export function openJobShard(subjectId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < subjectId.length; i += 1) {
    hash ^= subjectId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % OPEN_JOB_SHARDS;
}

/** The queue message that runs a marked job. */
export const jobMessageOf = (job: OpenJob): JobMessage =>
  job.type === 'export-points-expiration'
    ? { type: job.type, projectId: job.projectId, exportId: job.subjectId }
    : { type: job.type, projectId: job.projectId, asyncActionId: job.subjectId };
