import type { JobRunner } from '../jobs/job-worker.js';
import { getCustomerErasure } from './customer-erasure.service.js';

/**
 * The `erase-customer` runner of the export jobs worker: the job's code (customer-erasure.job.ts) is in that worker's
 * lazy chunk (lib/exports/export-lane.lazy.ts), whose load (begun by the worker) goes on during the job's first read,
 * the erasure item. An erasure that is not IN_PROGRESS (done, failed, or never asked) needs no more: it is answered
 * without the chunk, as runCustomerErasure would answer it.
 */
export const runEraseCustomerJob: JobRunner<'erase-customer'> = async (deps, job) => {
  const code = import('../exports/export-lane.lazy.js');
  // Awaited only for an erasure in progress; a run that ends before must not leave a rejection unhandled.
  code.catch(() => undefined);
  const read = getCustomerErasure(deps, job.projectId, job.customerId);
  const erasure = await read;
  if (erasure?.status !== 'IN_PROGRESS') return erasure !== null;
  const { runCustomerErasure } = await code;
  return (await runCustomerErasure(deps, job.projectId, job.customerId, read)) !== null;
};
