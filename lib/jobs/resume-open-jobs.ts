import { getAsyncAction } from '../async-actions/async-action.repo.js';
import { getExport } from '../exports/export.repo.js';
import type { Runtime } from '../runtime.js';
import type { JobQueue } from './job.js';
import { jobMessageOf, type OpenJob } from './open-job.js';
import { deleteOpenJob, openJobPages } from './open-job.repo.js';

type Deps = Pick<Runtime, 'ddb' | 'tableName' | 'logger'>;

/** What a reconcile did, marker by marker. */
export interface ResumeReport {
  /** Open jobs put back on the queue. */
  resumed: OpenJob[];
  /** Open jobs left alone: changed at or after `updatedBefore`, so presumably running. */
  skipped: OpenJob[];
  /** Markers of jobs that are final or gone (deleted now). */
  cleared: OpenJob[];
  /** Open jobs the queue refused (logged; still marked, so the next reconcile tries again). */
  failed: OpenJob[];
}

/** The marked job's subject as stored now: whether it is still open and when it last changed; null when it is gone. */
async function subjectState(deps: Deps, job: OpenJob): Promise<{ open: boolean; updatedAt: string } | null> {
  if (job.type !== 'export-points-expiration') {
    const action = await getAsyncAction(deps, job.projectId, job.subjectId);
    return action && { open: action.status === 'ENQUEUED' || action.status === 'IN_PROGRESS', updatedAt: action.updatedAt };
  }
  const record = await getExport(deps, job.projectId, job.subjectId);
  return record && { open: record.status === 'SCHEDULED' || record.status === 'IN_PROGRESS', updatedAt: record.updatedAt };
}

/**
 * Puts every open job back on the jobs queue, found through the open-job markers (one Query per
 * shard, never a Scan) and checked against its subject (a consistent GetItem each). The workers
 * resume a job from its checkpoint and leave a final one alone, so a job sent twice (its old
 * message still alive, or two reconciles) is still done once.
 *
 * The local runtime calls this at start-up, before its pollers run: its queue lives in memory, so
 * whatever was queued or in hand when the last run died is gone. `updatedBefore` (ISO time) leaves
 * out jobs whose subject changed since, for a caller that runs while workers are busy (a
 * scheduled sweep); without it every open job is sent. Markers whose job is final or gone are
 * deleted. Jobs created before markers existed have none and are not found.
 * @throws Error when the table cannot be read (a refused send is reported in `failed` instead).
 */
export async function resumeOpenJobs(deps: Deps, jobs: JobQueue, options: { updatedBefore?: string } = {}): Promise<ResumeReport> {
  const report: ResumeReport = { resumed: [], skipped: [], cleared: [], failed: [] };
  for await (const page of openJobPages(deps)) {
    for (const job of page) {
      const state = await subjectState(deps, job);
      if (!state?.open) {
        await deleteOpenJob(deps, job.projectId, job.subjectId);
        report.cleared.push(job);
        continue;
      }
      if (options.updatedBefore !== undefined && state.updatedAt >= options.updatedBefore) {
        report.skipped.push(job);
        continue;
      }
      try {
        await jobs.send(jobMessageOf(job));
        report.resumed.push(job);
      } catch (error) {
        deps.logger.error('open job not re-enqueued', {
          type: job.type,
          project_id: job.projectId,
          subject_id: job.subjectId,
          error: error instanceof Error ? error.message : String(error),
        });
        report.failed.push(job);
      }
    }
  }
  return report;
}
