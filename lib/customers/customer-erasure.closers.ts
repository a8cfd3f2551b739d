import * as entities from '../db/entities.js';
import { updateStatusWith } from '../db/status-update.js';
import { openJobDelete } from '../jobs/open-job.repo.js';
import type { Runtime } from '../runtime.js';
import { erasureKey, getCustomerErasure } from './customer-erasure.service.js';

/*
 * What the job closers (lib/jobs/job-closers.ts: a worker's last delivery, the dead-letter consumers, the start-up
 * resume) need of an erasure, apart from the job (customer-erasure.job.ts), which the export jobs worker loads lazily.
 */

/**
 * Marks the erasure FAILED with a reason (its marker deleted), unless it is final already. The
 * personal values it looks for stay on it, so that running it again by hand can finish.
 * @returns true when this call moved it.
 */
export async function failCustomerErasure(
  deps: Pick<Runtime, 'ddb' | 'tableName' | 'clock'>,
  projectId: string,
  customerId: string,
  reason: string,
): Promise<boolean> {
  const moved = await updateStatusWith(
    deps,
    entities.customerErasure,
    erasureKey(projectId, customerId),
    {
      set: 'SET #s = :failed, failure = :reason, updatedAt = :now',
      condition: '#s = :open',
      values: { ':failed': 'FAILED', ':open': 'IN_PROGRESS', ':reason': reason, ':now': deps.clock.now().toISOString() },
    },
    [openJobDelete(deps, projectId, customerId)],
    `The erasure of customer ${customerId} is busy`,
  );
  return moved !== null;
}

/** The erasure's job state for the closers: open while IN_PROGRESS. */
export async function customerErasureState(
  deps: Pick<Runtime, 'ddb' | 'tableName'>,
  projectId: string,
  customerId: string,
): Promise<{ open: boolean; updatedAt: string } | null> {
  const erasure = await getCustomerErasure(deps, projectId, customerId);
  return erasure && { open: erasure.status === 'IN_PROGRESS', updatedAt: erasure.updatedAt ?? erasure.createdAt };
}
