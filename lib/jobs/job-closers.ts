import { failAsyncAction, getAsyncAction } from '../async-actions/async-action.repo.js';
import { failCampaignVouchersDeletion } from '../campaigns/campaign-deletion.js';
import { failCampaignVouchersUpdate } from '../campaigns/campaign-vouchers-update.js';
import { getExport } from '../exports/export.repo.js';
import { failExport } from '../exports/export.repo.js';
import type { Runtime } from '../runtime.js';
import { customerErasureState, failCustomerErasure } from '../customers/customer-erasure.closers.js';
import { failProjectDataRemoval, projectDataRemovalState } from '../projects/project-data-removal.js';
import { failGeneration } from '../vouchers/bulk-generation.js';
import { failImport } from '../vouchers/voucher-import-job.js';
import type { JobMessage, JobMessageOf, JobType } from './job.js';

type CloseDeps = Pick<Runtime, 'ddb' | 'tableName' | 'clock' | 'ids'>;

/** What every consumer of a kind's messages must know besides running it: how to end it, and whether it is open. */
export interface JobCloser<T extends JobType> {
  /**
   * Marks the job's subject final with the reason (async action FAILED, export ERROR), unless it is final already.
   * @returns true when this call moved it; false when it was final (DONE stays DONE) or does not exist.
   */
  fail(deps: CloseDeps, job: JobMessageOf<T>, reason: string): Promise<boolean>;
  /** The subject as stored now: open or not, and when it last changed; null when it is gone. */
  state(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, subjectId: string): Promise<{ open: boolean; updatedAt: string } | null>;
}

/** An async action's job is open while the action is ENQUEUED or IN_PROGRESS. */
async function asyncActionState(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, id: string) {
  const action = await getAsyncAction(deps, projectId, id);
  return action && { open: action.status === 'ENQUEUED' || action.status === 'IN_PROGRESS', updatedAt: action.updatedAt };
}

/** An export's job is open while the export is SCHEDULED or IN_PROGRESS. */
async function exportState(deps: Pick<Runtime, 'ddb' | 'tableName'>, projectId: string, id: string): Promise<{ open: boolean; updatedAt: string } | null> {
  const record = await getExport(deps, projectId, id);
  return record && { open: record.status === 'SCHEDULED' || record.status === 'IN_PROGRESS', updatedAt: record.updatedAt };
}

/**
 * One row per job kind (the type checker wants every kind of `jobKinds`): used by the workers
 * (last failed delivery), the dead-letter consumers and the start-up resume. Kept apart from the
 * runners so that a dead-letter consumer loads no job's code, only these status moves.
 */
export const jobClosers: { [T in JobType]: JobCloser<T> } = {
  'generate-vouchers': {
    fail: (deps, job, reason) => failGeneration(deps, job.projectId, job.asyncActionId, reason),
    state: asyncActionState,
  },
  'voucher-import': {
    fail: (deps, job, reason) => failImport(deps, job.projectId, job.asyncActionId, reason),
    state: asyncActionState,
  },
  'delete-campaign-vouchers': {
    fail: (deps, job, reason) => failCampaignVouchersDeletion(deps, job.projectId, job.asyncActionId, reason),
    state: asyncActionState,
  },
  'update-campaign-vouchers': {
    fail: (deps, job, reason) => failCampaignVouchersUpdate(deps, job.projectId, job.asyncActionId, reason),
    state: asyncActionState,
  },
  'bulk-update': {
    fail: async (deps, job, reason) => (await failAsyncAction(deps, job.projectId, job.asyncActionId, reason, deps.clock.now().toISOString())) !== null,
    state: asyncActionState,
  },
  'remove-project-data': {
    fail: (deps, job, reason) => failProjectDataRemoval(deps, job.projectId, reason),
    state: projectDataRemovalState,
  },
  'erase-customer': {
    fail: (deps, job, reason) => failCustomerErasure(deps, job.projectId, job.customerId, reason),
    state: customerErasureState,
  },
  'export-points-expiration': {
    fail: (deps, job, reason) => failExport(deps, job.projectId, job.exportId, reason),
    state: exportState,
  },
  export: {
    fail: (deps, job, reason) => failExport(deps, job.projectId, job.exportId, reason),
    state: exportState,
  },
};

/** The closer of a message's kind (one place for the cast a table indexed by a union needs). */
export const closerOf = (job: JobMessage): JobCloser<JobType> => jobClosers[job.type] as JobCloser<JobType>;

/**
 * Marks the job's subject final with the reason (async action FAILED, export ERROR), unless it is final already.
 * @returns true when this call moved it; false when it was final (DONE stays DONE) or does not exist.
 */
export const failJob = (deps: CloseDeps, job: JobMessage, reason: string): Promise<boolean> => closerOf(job).fail(deps, job, reason);
